import Architecture

/// The counter of TCA's tutorial, written in a package that depends on `Architecture` the
/// ordinary way: a count, a number fact fetched through a dependency, and a one-second timer.
public struct CounterFeature: Reducer, Sendable {
  /// The counter's state.
  public struct State: Equatable, Sendable {
    /// The current count.
    public var count = 0
    /// The last fact fetched, until the count changes.
    public var fact: String?
    /// Whether a fact is being fetched.
    public var isLoading = false
    /// Whether the timer is running.
    public var isTimerRunning = false

    /// A counter at zero, with no fact and no timer.
    public init() {}
  }

  /// The counter's actions.
  public enum Action: Equatable, Sendable, CasePathable {
    /// Decrements the count.
    case decrementButtonTapped
    /// Fetches a fact about the count.
    case factButtonTapped
    /// The fact fetched.
    case factResponse(String)
    /// Increments the count.
    case incrementButtonTapped
    /// A tick of the timer.
    case timerTick
    /// Starts or stops the timer.
    case toggleTimerButtonTapped

    /// The case paths of ``CounterFeature/Action``, spelled by hand (TCA's `@CasePathable`
    /// macro writes these).
    public struct AllCasePaths: Sendable {
      /// `.factResponse`.
      public var factResponse: AnyCasePath<Action, String> {
        .init(Action.factResponse) { if case .factResponse(let fact) = $0 { fact } else { nil } }
      }
      /// `.timerTick`.
      public var timerTick: AnyCasePath<Action, Void> {
        .init(.timerTick) { if case .timerTick = $0 { true } else { false } }
      }
    }

    /// The case paths of ``CounterFeature/Action``.
    public static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  enum CancelID: Hashable, Sendable {
    case timer
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.numberFact) var numberFact

  /// Creates the feature.
  public init() {}

  /// The counter's logic.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped:
        state.count -= 1
        state.fact = nil
        return .none

      case .factButtonTapped:
        state.fact = nil
        state.isLoading = true
        return .run { [count = state.count] send in
          try await send(.factResponse(self.numberFact.fetch(count)))
        }

      case .factResponse(let fact):
        state.fact = fact
        state.isLoading = false
        return .none

      case .incrementButtonTapped:
        state.count += 1
        state.fact = nil
        return .none

      case .timerTick:
        state.count += 1
        state.fact = nil
        return .none

      case .toggleTimerButtonTapped:
        state.isTimerRunning.toggle()
        guard state.isTimerRunning else { return .cancel(id: CancelID.timer) }
        return .run { send in
          while true {
            try await self.clock.sleep(for: .seconds(1))
            await send(.timerTick)
          }
        }
        .cancellable(id: CancelID.timer)
      }
    }
  }
}
