import Testing

@testable import Architecture

/// Saves after a quiet second, debounced with `withTaskCancellation` inside one effect per
/// request, as TCA's SyncUps app saves its data.
private struct Saver: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id = 0
    var saved: [Int] = []
  }

  enum Action: Equatable, Sendable, CasePathable {
    case cancelButtonTapped
    case cancelFromEffectButtonTapped
    case save(Int)
    case saved(Int)

    struct AllCasePaths {
      var cancelButtonTapped: AnyCasePath<Action, Void> {
        .init(.cancelButtonTapped) { if case .cancelButtonTapped = $0 { true } else { false } }
      }
      var save: AnyCasePath<Action, Int> {
        .init(Action.save) { if case .save(let v) = $0 { v } else { nil } }
      }
      var saved: AnyCasePath<Action, Int> {
        .init(Action.saved) { if case .saved(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  enum CancelID { case save }
  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .cancelButtonTapped:
        return .cancel(id: CancelID.save)
      case .cancelFromEffectButtonTapped:
        return .run { _ in Task.cancel(id: CancelID.save) }
      case .save(let value):
        return .run { send in
          try await withTaskCancellation(id: CancelID.save, cancelInFlight: true) {
            try await self.clock.sleep(for: .seconds(1))
          }
          await send(.saved(value))
        }
      case .saved(let value):
        state.saved.append(value)
        return .none
      }
    }
  }
}

/// Two savers in a list: each one's ids are its own, as TCA scopes effect ids per element.
private struct Savers: Reducer {
  struct State: Equatable, Sendable {
    var savers: IdentifiedArrayOf<Saver.State> = [Saver.State(id: 1), Saver.State(id: 2)]
  }

  enum Action: Equatable, Sendable, CasePathable {
    case savers(IdentifiedActionOf<Saver>)

    struct AllCasePaths {
      var savers: AnyCasePath<Action, IdentifiedActionOf<Saver>> {
        .init(Action.savers) { if case .savers(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    EmptyReducer().forEach(\.savers, action: \.savers) { Saver() }
  }
}

/// `withTaskCancellation(id:cancelInFlight:operation:)` and `Task.cancel(id:)`.
@Suite struct TaskCancellationTests {
  @Test func aNewCallCancelsTheOneInFlight() async {
    let clock = TestClock()
    let store = TestStore(initialState: Saver.State()) {
      Saver()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.save(1))
    #expect(await eventually { clock.sleeperCount == 1 })
    await clock.advance(by: .milliseconds(500))
    await store.send(.save(2))
    // The first wait ends (cancelled) and the second begins.
    #expect(await eventually { clock.sleeperCount == 1 })
    await clock.advance(by: .seconds(1))
    // The first effect's wait was cancelled: it ended quietly, without sending.
    await store.receive(\.saved, 2) { $0.saved = [2] }
  }

  @Test func theReducersCancelReachesTheWork() async {
    let clock = TestClock()
    let store = TestStore(initialState: Saver.State()) {
      Saver()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.save(1))
    #expect(await eventually { clock.sleeperCount == 1 })
    await store.send(.cancelButtonTapped)
    #expect(await eventually { clock.sleeperCount == 0 })
    await clock.run()
  }

  @Test func anEffectCancelsTheWorkById() async {
    let clock = TestClock()
    let store = TestStore(initialState: Saver.State()) {
      Saver()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.save(1))
    #expect(await eventually { clock.sleeperCount == 1 })
    await store.send(.cancelFromEffectButtonTapped)
    #expect(await eventually { clock.sleeperCount == 0 })
    await clock.run()
  }

  @Test func idsAreScopedToTheElementTheEffectCameFrom() async {
    let clock = TestClock()
    let store = TestStore(initialState: Savers.State()) {
      Savers()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(\.savers[id: 1].save, 10)
    await store.send(\.savers[id: 2].save, 20)
    #expect(await eventually { clock.sleeperCount == 2 })
    await store.send(\.savers[id: 1].cancelButtonTapped)
    #expect(await eventually { clock.sleeperCount == 1 })
    await clock.advance(by: .seconds(1))
    await store.receive(\.savers[id: 2].saved) { $0.savers[id: 2]?.saved = [20] }
  }

  @Test func workOutsideAnyEffectIsCancelledById() async throws {
    enum ID { case work }
    let started = LockIsolated(false)
    let task = Task {
      try await withTaskCancellation(id: ID.work) {
        started.setValue(true)
        try await Task.never()
      }
    }
    #expect(await eventually { started.value })
    Task.cancel(id: ID.work)
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test func cancellingTheCallerCancelsTheWork() async {
    enum ID { case work }
    let started = LockIsolated(false)
    let task = Task {
      try await withTaskCancellation(id: ID.work) {
        started.setValue(true)
        try await Task.never()
      }
    }
    #expect(await eventually { started.value })
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test func theResultOfTheWorkIsReturned() async {
    enum ID { case work }
    let value = await withTaskCancellation(id: ID.work) { 42 }
    #expect(value == 42)
  }
}
