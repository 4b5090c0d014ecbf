@testable import Architecture
import Foundation
import Testing

/// A feature whose effects take a while to get where they are going: a test store must wait for
/// them, however slow the machine, without being told how long.
private struct Busy: Reducer {
  struct State: Equatable {
    var ticks = 0
  }

  enum Action: Equatable, CasePathable {
    case work
    case startTimer
    case stopTimer
    case tick
    case spin
    case stopSpinning
    case recordExecutor

    struct AllCasePaths {
      var tick: AnyCasePath<Action, Void> {
        .init(.tick) { if case .tick = $0 { true } else { false } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  enum CancelID { case timer, spin }

  /// A step of slow work between suspensions: heavy computation, or a loaded machine that does
  /// not run the effect's thread for a while. It blocks the thread on purpose (it is not a
  /// suspension): the tests pass whatever its length, and a test store that gave effects a
  /// fixed number of yields would not wait for it.
  static func slowStep() {
    usleep(30_000)
  }

  let log: LockIsolated<[String]>
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .work:
      return .run { [log] _ in
        for _ in 0..<8 {
          Self.slowStep()
          await Task.yield()
        }
        log.withValue { $0.append("worked") }
      }
    case .startTimer:
      return .run { send in
        while true {
          try await self.clock.sleep(for: .seconds(1))
          Self.slowStep()
          await Task.yield()
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.timer)
    case .stopTimer:
      return .cancel(id: CancelID.timer)
    case .tick:
      state.ticks += 1
      return .none
    case .spin:
      return .run { _ in
        while !Task.isCancelled { await Task.yield() }
      }
      .cancellable(id: CancelID.spin)
    case .stopSpinning:
      return .cancel(id: CancelID.spin)
    case .recordExecutor:
      return .run { [log] _ in
        let onExecutor = _TestStoreExecutorThread.current != nil
        log.withValue { $0.append(onExecutor ? "serial" : "global") }
      }
    }
  }
}

/// The test store waits for effects exactly (on its own serial executor) instead of yielding a
/// fixed number of times.
@Suite(.timeLimit(.minutes(1))) struct TestStoreDeterminismTests {
  @Test func sendReturnsOnceTheEffectsItStartedHaveRunAsFarAsTheyCan() async {
    let log = LockIsolated<[String]>([])
    let store = TestStore(initialState: Busy.State()) { Busy(log: log) }
    await store.send(.work)
    #expect(log.value == ["worked"])
  }

  @Test func advanceWaitsUntilAResumedTimerHasTickedAndSleptAgain() async {
    let clock = TestClock()
    let store = TestStore(initialState: Busy.State()) {
      Busy(log: LockIsolated([]))
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.startTimer)
    await clock.advance(by: .seconds(3))
    await store.receive(\.tick, timeout: .zero) { $0.ticks = 1 }
    await store.receive(\.tick, timeout: .zero) { $0.ticks = 2 }
    await store.receive(\.tick, timeout: .zero) { $0.ticks = 3 }
    await store.send(.stopTimer)
  }

  @Test func effectsRunOnTheTestStoresExecutorUnlessTurnedOff() async {
    let log = LockIsolated<[String]>([])
    let store = TestStore(initialState: Busy.State()) { Busy(log: log) }
    #expect(store.useMainSerialExecutor)
    await store.send(.recordExecutor)
    store.useMainSerialExecutor = false
    await store.send(.recordExecutor)
    await store.finish()
    #expect(log.value == ["serial", "global"])
  }

  @Test func anEffectThatNeverStopsYieldingDoesNotHangTheTest() async {
    let store = TestStore(initialState: Busy.State()) { Busy(log: LockIsolated([])) }
    await store.send(.spin)
    await store.send(.stopSpinning)
  }

  @Test func aTestStoresExecutorThreadEndsWithTheTestStore() async {
    weak var thread: _TestStoreExecutorThread?
    do {
      let store = TestStore(initialState: Busy.State()) { Busy(log: LockIsolated([])) }
      await store.send(.work)
      thread = store.executor.thread
      #expect(thread != nil)
    }
    // The thread ends (and releases its queue) shortly after the executor is released.
    let deadline = ContinuousClock.now + .seconds(30)
    while thread != nil, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(5))
    }
    #expect(thread == nil, "the executor's thread outlived its test store")
  }
}
