import Architecture
import Testing

/// A feature whose state and actions are deliberately not `Sendable`, as TCA allows: a test
/// store must drive it all the same.
struct Scoreboard: Reducer {
  struct State: Equatable {
    var score = 0
    var log: [String] = []
    var player = Player.State()
  }

  enum Action: Equatable, CasePathable {
    case reset
    case scored(Int)
    case scoredLater(Int)
    case player(Player.Action)

    struct AllCasePaths {
      var reset: AnyCasePath<Action, Void> {
        .init(.reset) { if case .reset = $0 { true } else { false } }
      }
      var scored: AnyCasePath<Action, Int> {
        .init(Action.scored) { if case .scored(let v) = $0 { v } else { nil } }
      }
      var scoredLater: AnyCasePath<Action, Int> {
        .init(Action.scoredLater) { if case .scoredLater(let v) = $0 { v } else { nil } }
      }
      var player: AnyCasePath<Action, Player.Action> {
        .init(Action.player) { if case .player(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.player, action: \.player) { Player() }
    Reduce { state, action in
      switch action {
      case .reset:
        state.score = 0
        state.log.append("reset")
        return .none
      case .scored(let points):
        state.score += points
        return .none
      case .scoredLater(let points):
        return .run { send in await send(.scored(points)) }
      case .player:
        return .none
      }
    }
  }
}

struct Player: Reducer {
  struct State: Equatable {
    var name = ""
  }

  enum Action: Equatable, CasePathable {
    case rename(String)

    struct AllCasePaths {
      var rename: AnyCasePath<Action, String> {
        .init(Action.rename) { if case .rename(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .rename(let name):
      state.name = name
      return .none
    }
  }
}

@available(*, unavailable)
extension Scoreboard.State: Sendable {}
@available(*, unavailable)
extension Scoreboard.Action: Sendable {}

/// The test store's API in TCA's spelling: non-`Sendable` features, sending by case key path,
/// `withExhaustivity` and `assert`.
@Suite struct TestStoreAPITests {
  @Test func drivesAFeatureWhoseStateAndActionsAreNotSendable() async {
    let store = TestStore(initialState: Scoreboard.State()) { Scoreboard() }
    await store.send(.scored(3)) { $0.score = 3 }
    await store.send(.scoredLater(2))
    await store.receive(.scored(2)) { $0.score = 5 }
    await store.finish()
    #expect(store.state.score == 5)
  }

  @Test func sendsACaseWithoutPayloadByItsKeyPath() async {
    let store = TestStore(initialState: Scoreboard.State(score: 4)) { Scoreboard() }
    await store.send(\.reset) {
      $0.score = 0
      $0.log = ["reset"]
    }
  }

  @Test func sendsACaseWithAPayloadByItsKeyPath() async {
    let store = TestStore(initialState: Scoreboard.State()) { Scoreboard() }
    await store.send(\.scored, 7) { $0.score = 7 }
    await store.send(\.player.rename, "Blob") { $0.player.name = "Blob" }
  }

  @Test func sendByKeyPathTakesAnAssertLabel() async {
    let store = TestStore(initialState: Scoreboard.State()) { Scoreboard() }
    await store.send(\.scored, 1, assert: { $0.score = 1 })
  }

  @Test func sendByKeyPathReportsAMismatchAtItsLine() async {
    await expectTestStoreIssue(
      """
      A state change does not match expectation.

            Scoreboard.State(
          −   score: 6,
          +   score: 7,
              log: [],
              player: Player.State(name: "")
            )

      (Expected: −, Actual: +)
      """
    ) { line in
      let store = TestStore(initialState: Scoreboard.State()) { Scoreboard() }
      line.next()
      await store.send(\.scored, 7) { $0.score = 6 }
    }
  }

  @Test func withExhaustivityOffSkipsWhatItDoesNotAssert() async {
    let store = TestStore(initialState: Scoreboard.State()) { Scoreboard() }
    await store.withExhaustivity(.off) {
      await store.send(\.reset) { $0.score = 0 }
      await store.send(\.scoredLater, 2).finish()
    }
    #expect(store.exhaustivity == .on)
    await store.skipReceivedActions()
    await store.send(\.scored, 1) { $0.score = 3 }
  }

  @Test func withExhaustivityRestoresExhaustiveChecking() async {
    await expectTestStoreIssue(
      prefix: "State was not expected to change, but a change occurred", containing: "score: 1"
    ) { line in
      let store = TestStore(initialState: Scoreboard.State()) { Scoreboard() }
      await store.withExhaustivity(.off(showSkippedAssertions: false)) {
        await store.send(\.scored, 1)
      }
      line.next()
      await store.send(\.scored, 1)
    }
  }

  @Test func withExhaustivityRunsSynchronousAssertions() async {
    let store = TestStore(initialState: Scoreboard.State()) { Scoreboard() }
    await store.send(\.reset) {
      $0.log = ["reset"]
    }
    store.withExhaustivity(.off) {
      store.assert { $0.score = 0 }
    }
  }

  @Test func assertChecksTheStateAfterSkippedActions() async {
    let store = TestStore(initialState: Scoreboard.State()) { Scoreboard() }
    store.exhaustivity = .off
    await store.send(\.scoredLater, 4).finish()
    await store.skipReceivedActions()
    store.assert { $0.score = 4 }
    store.exhaustivity = .on
    await store.send(\.scored, 1) { $0.score = 5 }
  }

  @Test func assertSeesActionsNotYetReceived() async {
    let store = TestStore(initialState: Scoreboard.State()) { Scoreboard() }
    store.exhaustivity = .off
    await store.send(\.scoredLater, 4)
    await store.finish()
    store.assert { $0.score = 4 }
  }

  @Test func assertReportsAMismatch() async {
    await expectTestStoreIssue(
      prefix: "A state change does not match expectation", containing: "−   score: 5,"
    ) { line in
      let store = TestStore(initialState: Scoreboard.State()) { Scoreboard() }
      await store.send(\.scored, 4) { $0.score = 4 }
      line.next()
      store.assert { $0.score = 5 }
    }
  }
}
