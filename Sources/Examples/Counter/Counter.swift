import Architecture

/// The counter of TCA's tutorial ("Your first feature", "Adding side effects"): a count that
/// can be incremented, decremented, ticked by a one-second timer, and looked up for a fact.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) { Counter() }
/// await store.send(.incrementButtonTapped)
/// await store.send(.factButtonTapped).finish()
/// ```
///
/// Its state encodes as `{"count":0,"isLoading":false,"isTimerRunning":false}` (plus `"fact"`
/// when there is one) and its actions as `{"incrementButtonTapped":{}}`: the host's `counter`
/// scope serves exactly these forms.
public struct Counter: Reducer, Sendable {
  /// The counter's state.
  public struct State: Codable, Equatable, Sendable {
    /// The current count.
    public var count: Int
    /// The last fact fetched about the count; cleared whenever the count changes.
    public var fact: String?
    /// Whether a fact is being fetched.
    public var isLoading: Bool
    /// Whether the one-second timer is running.
    public var isTimerRunning: Bool

    /// Creates a counter state.
    ///
    /// - Parameters:
    ///   - count: The count.
    ///   - fact: A fact about the count.
    ///   - isLoading: Whether a fact is being fetched.
    ///   - isTimerRunning: Whether the timer is running.
    public init(
      count: Int = 0, fact: String? = nil, isLoading: Bool = false, isTimerRunning: Bool = false
    ) {
      self.count = count
      self.fact = fact
      self.isLoading = isLoading
      self.isTimerRunning = isTimerRunning
    }
  }

  /// The counter's actions.
  public enum Action: Codable, Equatable, Sendable, CasePathable {
    /// Decrements the count (saturating at `Int.min`) and clears the fact.
    case decrementButtonTapped
    /// Fetches a fact about the count through ``NumberFactClient``.
    case factButtonTapped
    /// The fact fetched (or a sentence saying why none could be).
    case factResponse(String)
    /// Increments the count (saturating at `Int.max`) and clears the fact.
    case incrementButtonTapped
    /// The state was restored by a host that restarted, whose effects did not survive: starts
    /// the timer again if it was running, and fetches the fact again if one was loading.
    case stateRestored
    /// A tick of the timer: increments the count.
    case timerTick
    /// Starts or stops the one-second timer.
    case toggleTimerButtonTapped

    /// The case paths of ``Counter/Action``.
    public struct AllCasePaths: Sendable {
      /// `.decrementButtonTapped`.
      public var decrementButtonTapped: AnyCasePath<Action, Void> {
        .init(.decrementButtonTapped) {
          if case .decrementButtonTapped = $0 { true } else { false }
        }
      }
      /// `.factButtonTapped`.
      public var factButtonTapped: AnyCasePath<Action, Void> {
        .init(.factButtonTapped) { if case .factButtonTapped = $0 { true } else { false } }
      }
      /// `.factResponse`.
      public var factResponse: AnyCasePath<Action, String> {
        .init(Action.factResponse) { if case .factResponse(let v) = $0 { v } else { nil } }
      }
      /// `.incrementButtonTapped`.
      public var incrementButtonTapped: AnyCasePath<Action, Void> {
        .init(.incrementButtonTapped) {
          if case .incrementButtonTapped = $0 { true } else { false }
        }
      }
      /// `.stateRestored`.
      public var stateRestored: AnyCasePath<Action, Void> {
        .init(.stateRestored) { if case .stateRestored = $0 { true } else { false } }
      }
      /// `.timerTick`.
      public var timerTick: AnyCasePath<Action, Void> {
        .init(.timerTick) { if case .timerTick = $0 { true } else { false } }
      }
      /// `.toggleTimerButtonTapped`.
      public var toggleTimerButtonTapped: AnyCasePath<Action, Void> {
        .init(.toggleTimerButtonTapped) {
          if case .toggleTimerButtonTapped = $0 { true } else { false }
        }
      }
    }

    /// The case paths of ``Counter/Action``.
    public static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  enum CancelID: Hashable, Sendable {
    case timer
  }

  @Dependency(\.clock) var clock
  @Dependency(\.numberFact) var numberFact

  /// Creates the counter feature.
  public init() {}

  /// The counter's logic.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped:
        // Saturating: a remote client sending this forever must not crash the host.
        if state.count > .min { state.count -= 1 }
        state.fact = nil
        return .none

      case .factButtonTapped:
        state.fact = nil
        state.isLoading = true
        return self.fetchFact(about: state.count)

      case .factResponse(let fact):
        state.fact = fact
        state.isLoading = false
        return .none

      case .incrementButtonTapped:
        if state.count < .max { state.count += 1 }
        state.fact = nil
        return .none

      case .stateRestored:
        var effects: [Effect<Action>] = []
        if state.isTimerRunning { effects.append(self.timer()) }
        if state.isLoading { effects.append(self.fetchFact(about: state.count)) }
        return .merge(effects)

      case .timerTick:
        if state.count < .max { state.count += 1 }
        state.fact = nil
        return .none

      case .toggleTimerButtonTapped:
        state.isTimerRunning.toggle()
        guard state.isTimerRunning else { return .cancel(id: CancelID.timer) }
        return self.timer()
      }
    }
  }

  /// A `.timerTick` every second, until cancelled.
  private func timer() -> Effect<Action> {
    .run { send in
      while true {
        try await self.clock.sleep(for: .seconds(1))
        await send(.timerTick)
      }
    }
    .cancellable(id: CancelID.timer, cancelInFlight: true)
  }

  /// Fetches a fact about `count` and sends it back as `.factResponse`.
  private func fetchFact(about count: Int) -> Effect<Action> {
    .run { send in
      await send(.factResponse(try await self.numberFact.fetch(count)))
    } catch: { error, send in
      await send(.factResponse("Couldn't load a fact about \(count): \(error)."))
    }
  }
}
