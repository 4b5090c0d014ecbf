import Testing

@testable import Architecture

/// Collects strings (runtime warnings, printed changes) from any thread.
final class Collector: Sendable {
  private let storage = _Lock<[String]>([])
  var values: [String] { self.storage.withLock { $0 } }
  func append(_ value: String) { self.storage.withLock { $0.append(value) } }
  var reporter: RuntimeWarningReporter { RuntimeWarningReporter { self.append($0) } }
}

/// A lock-protected value shared with tasks.
final class Locked<Value: Sendable>: Sendable {
  private let storage: _Lock<Value>
  init(_ value: Value) { self.storage = _Lock(value) }
  var value: Value { self.storage.withLock { $0 } }
  func withLock<R: Sendable>(_ body: @Sendable (inout Value) -> R) -> R {
    self.storage.withLock { body(&$0) }
  }
}

struct Counter: Reducer {
  struct State: Equatable, Sendable, Identifiable, Codable {
    var id = 0
    var count = 0
  }
  enum Action: Equatable, Sendable, CasePathable {
    case increment
    case decrement
    case set(Int)
    case noop

    struct AllCasePaths {
      var increment: AnyCasePath<Action, Void> {
        .init(.increment) { if case .increment = $0 { true } else { false } }
      }
      var set: AnyCasePath<Action, Int> {
        .init(Action.set) { if case .set(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .decrement: state.count -= 1
    case .set(let value): state.count = value
    case .noop: break
    }
    return .none
  }
}

/// A parent with one child of each kind, and a log of the actions its own reducer saw.
struct Parent: Reducer {
  struct State: Equatable, Sendable {
    var counter = Counter.State()
    var optional: Counter.State?
    var counters: IdentifiedArrayOf<Counter.State> = []
    var log: [String] = []
  }

  enum Action: Equatable, Sendable, CasePathable {
    case counter(Counter.Action)
    case optional(Counter.Action)
    case counters(IdentifiedActionOf<Counter>)
    case setOptional(Counter.State?)
    case removeCounter(id: Int)

    struct AllCasePaths {
      var counter: AnyCasePath<Action, Counter.Action> {
        .init(Action.counter) { if case .counter(let v) = $0 { v } else { nil } }
      }
      var optional: AnyCasePath<Action, Counter.Action> {
        .init(Action.optional) { if case .optional(let v) = $0 { v } else { nil } }
      }
      var counters: AnyCasePath<Action, IdentifiedActionOf<Counter>> {
        .init(Action.counters) { if case .counters(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: \.counter) { Counter() }
    Reduce { state, action in
      state.log.append("parent")
      switch action {
      case .setOptional(let value): state.optional = value
      case .removeCounter(let id): state.counters.remove(id: id)
      default: break
      }
      return .none
    }
    .ifLet(\.optional, action: \.optional) { Counter() }
    .forEach(\.counters, action: \.counters) { Counter() }
  }
}

/// An enum-state feature for `ifCaseLet`.
struct Mode: Reducer {
  enum State: Equatable, Sendable, CasePathable {
    case counting(Counter.State)
    case idle

    struct AllCasePaths {
      var counting: AnyCasePath<State, Counter.State> {
        .init(State.counting) { if case .counting(let v) = $0 { v } else { nil } }
      }
      var idle: AnyCasePath<State, Void> {
        .init(.idle) { if case .idle = $0 { true } else { false } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  enum Action: Equatable, Sendable, CasePathable {
    case counting(Counter.Action)
    case stop
    case start

    struct AllCasePaths {
      var counting: AnyCasePath<Action, Counter.Action> {
        .init(Action.counting) { if case .counting(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .stop: state = .idle
      case .start: state = .counting(Counter.State())
      case .counting: break
      }
      return .none
    }
    .ifCaseLet(\.counting, action: \.counting) { Counter() }
  }
}

/// A feature whose effects are driven by actions, for effect and store tests.
struct Effects: Reducer {
  struct State: Equatable, Sendable {
    var log: [String] = []
    var count = 0
  }

  enum Action: Equatable, Sendable {
    case record(String)
    case sendTwo
    case runMany(Int)
    case runForever(id: String)
    case cancel(id: String)
    case restart(id: String)
    case concatenated
    case merged
    case search(String)
    case failing(handled: Bool)
    case failed(String)
    case timer
    case tick
    case readDate
    case readUUID
  }

  @Dependency(\.clock) var clock
  @Dependency(\.date) var date
  @Dependency(\.uuid) var uuid

  struct Failure: Error, Equatable {}

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .record(let entry):
      state.log.append(entry)
      return .none
    case .sendTwo:
      return .merge(.send(.record("a")), .send(.record("b")))
    case .runMany(let count):
      return .run { send in
        for index in 1...count { await send(.record("\(index)")) }
      }
    case .runForever(let id), .restart(let id):
      let cancelInFlight = if case .restart = action { true } else { false }
      return .run { [clock] send in
        await send(.record("start \(id)"))
        try await clock.sleep(for: .seconds(1_000_000))
        await send(.record("unreachable \(id)"))
      }
      .cancellable(id: id, cancelInFlight: cancelInFlight)
    case .cancel(let id):
      return .cancel(id: id)
    case .concatenated:
      return .concatenate(
        .run { send in
          await Task.yield()
          await send(.record("first"))
        },
        .send(.record("second")),
        .run { send in await send(.record("third")) }
      )
    case .merged:
      return .merge(
        .run { [clock] send in
          try await clock.sleep(for: .seconds(2))
          await send(.record("slow"))
        },
        .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.record("fast"))
        }
      )
    case .search(let query):
      return .run { send in await send(.record("search \(query)")) }
        .debounce(id: "search", for: .milliseconds(300), clock: self.clock)
    case .failing(let handled):
      if handled {
        return .run { _ in
          throw Failure()
        } catch: { error, send in
          await send(.failed("\(error)"))
        }
      }
      return .run { _ in throw Failure() }
    case .failed(let message):
      state.log.append("failed: \(message)")
      return .none
    case .timer:
      return .run { [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: "timer", cancelInFlight: true)
    case .tick:
      state.count += 1
      return .none
    case .readDate:
      state.log.append("date \(self.date.now.timeIntervalSince1970)")
      return .run { send in
        @Dependency(\.date) var date
        await send(.record("effect date \(date.now.timeIntervalSince1970)"))
      }
    case .readUUID:
      state.log.append(self.uuid().uuidString)
      return .none
    }
  }
}

/// A child with a long-running, cancellable effect: ticks every second on the clock.
struct Ticker: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id = 0
    var ticks = 0
  }
  enum Action: Equatable, Sendable {
    case start
    case stop
    case tick
  }

  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: "ticker")
    case .stop:
      return .cancel(id: "ticker")
    case .tick:
      state.ticks += 1
      return .none
    }
  }
}

/// Hosts tickers in every navigation shape.
struct Host: Reducer {
  enum AlertAction: Equatable, Sendable { case confirm }

  struct State: Equatable, Sendable {
    var optional: Ticker.State?
    var tickers: IdentifiedArrayOf<Ticker.State> = []
    @Presents var destination: Ticker.State?
    @Presents var alert: AlertState<AlertAction>?
    var path = StackState<Ticker.State>()
    var log: [String] = []
  }

  enum Action: Equatable, Sendable, CasePathable {
    case optional(Ticker.Action)
    case tickers(IdentifiedActionOf<Ticker>)
    case destination(PresentationAction<Ticker.Action>)
    case alert(PresentationAction<AlertAction>)
    case path(StackActionOf<Ticker>)
    case setOptional(Ticker.State?)
    case removeTicker(id: Int)
    case present(Ticker.State?)
    case showAlert

    struct AllCasePaths {
      var optional: AnyCasePath<Action, Ticker.Action> {
        .init(Action.optional) { if case .optional(let v) = $0 { v } else { nil } }
      }
      var tickers: AnyCasePath<Action, IdentifiedActionOf<Ticker>> {
        .init(Action.tickers) { if case .tickers(let v) = $0 { v } else { nil } }
      }
      var destination: AnyCasePath<Action, PresentationAction<Ticker.Action>> {
        .init(Action.destination) { if case .destination(let v) = $0 { v } else { nil } }
      }
      var alert: AnyCasePath<Action, PresentationAction<AlertAction>> {
        .init(Action.alert) { if case .alert(let v) = $0 { v } else { nil } }
      }
      var path: AnyCasePath<Action, StackActionOf<Ticker>> {
        .init(Action.path) { if case .path(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .setOptional(let value): state.optional = value
      case .removeTicker(let id): state.tickers.remove(id: id)
      case .present(let value): state.destination = value
      case .showAlert: state.alert = AlertState { TextState("Sure?") }
      case .alert(.presented(.confirm)): state.log.append("confirmed")
      case .destination(.presented(let childAction)): state.log.append("destination \(childAction)")
      case .path(.element(let id, let childAction)): state.log.append("path \(id) \(childAction)")
      default: break
      }
      return .none
    }
    .ifLet(\.optional, action: \.optional) { Ticker() }
    .forEach(\.tickers, action: \.tickers) { Ticker() }
    .ifLet(\.$destination, action: \.destination) { Ticker() }
    .ifLet(\.$alert, action: \.alert)
    .forEach(\.path, action: \.path) { Ticker() }
  }
}

/// Makes a store on a test clock, collecting runtime warnings.
func makeStore<R: Reducer & Sendable>(
  _ initialState: R.State,
  clock: TestClock<Duration> = TestClock(),
  warnings: Collector = Collector(),
  _ reducer: R
) -> StoreActor<R.State, R.Action> where R.State: Sendable {
  StoreActor(
    initialState: initialState, reducer: { reducer },
    withDependencies: {
      $0.clock = clock
      $0.runtimeWarnings = warnings.reporter
    })
}

/// Polls until a condition holds (effects run concurrently), failing after ~5 s.
func eventually(
  _ condition: () async -> Bool, sourceLocation: SourceLocation = #_sourceLocation
) async -> Bool {
  for _ in 0..<5_000 {
    if await condition() { return true }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return false
}

/// Whether a store task's effects finish within a time limit (a broken cancellation fails the
/// test instead of hanging it; on timeout the effects are cancelled).
func finishes(_ task: StoreTask, within limit: Duration = .seconds(5)) async -> Bool {
  await withTaskGroup(of: Bool.self) { group in
    group.addTask {
      await task.finish()
      return !Task.isCancelled
    }
    group.addTask {
      try? await Task.sleep(for: limit)
      return false
    }
    let first = await group.next()!
    group.cancelAll()
    return first
  }
}
