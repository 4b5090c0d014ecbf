import Testing

@testable import Architecture

/// A feature that waits on a clock: a zero-length pause, a delay, and a timer.
private struct Waiter: Reducer {
  struct State: Equatable, Sendable {
    var ticks = 0
    var isReady = false
  }
  enum Action: Equatable, Sendable, CasePathable {
    case delayed
    case nextRunLoop
    case ready
    case startTimer
    case stopTimer
    case tick

    struct AllCasePaths {
      var ready: AnyCasePath<Action, Void> {
        .init(.ready) { if case .ready = $0 { true } else { false } }
      }
      var tick: AnyCasePath<Action, Void> {
        .init(.tick) { if case .tick = $0 { true } else { false } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .delayed:
      return .run { send in
        try await self.clock.sleep(for: .seconds(5))
        await send(.ready)
      }
    case .nextRunLoop:
      return .run { send in
        try await self.clock.sleep(for: .zero)
        await send(.ready)
      }
    case .ready:
      state.isReady = true
      return .none
    case .startTimer:
      return .run { send in
        for await _ in self.clock.timer(interval: .seconds(1)) { await send(.tick) }
      }
      .cancellable(id: CancelID.timer)
    case .stopTimer:
      return .cancel(id: CancelID.timer)
    case .tick:
      state.ticks += 1
      return .none
    }
  }
}

/// TestClock's zero sleeps, ImmediateClock, and `Clock.timer(interval:)`.
@Suite struct ClockTests {
  @Test func sleepingForZeroOnATestClockWaitsForTheClockToMove() async {
    let clock = TestClock()
    let woke = Locked(false)
    let sleeper = Task {
      try await clock.sleep(for: .zero)
      woke.withLock { $0 = true }
    }
    #expect(await eventually { clock.sleeperCount == 1 })
    #expect(!woke.value)
    await clock.advance()
    try? await sleeper.value
    #expect(woke.value)
    #expect(clock.now.offset == .zero)
  }

  @Test func aZeroSleepInAnEffectResumesWhenTheTestRunsTheClock() async {
    let clock = TestClock()
    let store = TestStore(initialState: Waiter.State()) {
      Waiter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.nextRunLoop)
    #expect(await eventually { clock.sleeperCount == 1 })
    await clock.run()
    await store.receive(\.ready) { $0.isReady = true }
  }

  @Test func aSleepIntoThePastReturnsAtOnce() async {
    let clock = TestClock()
    await clock.advance(by: .seconds(2))
    let woke = Locked(false)
    let sleeper = Task {
      try await clock.sleep(until: TestClock.Instant(offset: .seconds(1)))
      woke.withLock { $0 = true }
    }
    #expect(await eventually { woke.value })
    sleeper.cancel()
  }

  @Test func anImmediateClockDoesNotWait() async {
    let clock = ImmediateClock()
    let store = TestStore(initialState: Waiter.State()) {
      Waiter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.delayed)
    await store.receive(\.ready) { $0.isReady = true }
    #expect(clock.now.offset == .seconds(5))
  }

  @Test func anImmediateClocksSleepThrowsWhenCancelled() async {
    let clock: any Clock<Duration> = .immediate
    let sleeper = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await sleeper.value }
  }

  @Test func aTimerTicksOncePerIntervalOfATestClock() async {
    let clock = TestClock()
    let store = TestStore(initialState: Waiter.State()) {
      Waiter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.startTimer)
    await clock.advance(by: .seconds(1))
    await store.receive(\.tick) { $0.ticks = 1 }
    await clock.advance(by: .seconds(2))
    await store.receive(\.tick) { $0.ticks = 2 }
    await store.receive(\.tick) { $0.ticks = 3 }
    await clock.advance(by: .milliseconds(500))
    await store.send(.stopTimer)
  }

  @Test func aTimerYieldsTheTimeSinceItStarted() async {
    let clock = TestClock()
    await clock.advance(by: .seconds(10))
    let elapsed = LockIsolated<[Duration]>([])
    let timer = Task {
      for await tick in clock.timer(interval: .seconds(2)) {
        elapsed.withValue { $0.append(tick) }
      }
    }
    #expect(await eventually { clock.sleeperCount == 1 })
    await clock.advance(by: .seconds(4))
    #expect(await eventually { elapsed.value.count == 2 })
    #expect(elapsed.value == [.seconds(2), .seconds(4)])
    timer.cancel()
  }
}
