import Dispatch
import Foundation
import Testing

@testable import Architecture

/// A search screen written the way TCA apps wrote it before clocks: it waits, ticks and
/// debounces on `\.mainQueue`, and stamps dates from `\.mainRunLoop`.
private struct Search: Reducer {
  struct State: Equatable, Sendable {
    var query = ""
    var searches: [String] = []
    var ticks = 0
    var isReady = false
    var startedAt: Date?
    var tickedAt: [Date] = []
  }

  enum Action: Equatable, Sendable, CasePathable {
    case queryChanged(String)
    case search(String)
    case delayed
    case ready
    case startTimer
    case stopTimer
    case tick
    case stamp

    struct AllCasePaths {
      var search: AnyCasePath<Action, String> {
        .init(Action.search) { if case .search(let v) = $0 { v } else { nil } }
      }
      var ready: AnyCasePath<Action, Void> {
        .init(.ready) { if case .ready = $0 { true } else { false } }
      }
      var tick: AnyCasePath<Action, Void> {
        .init(.tick) { if case .tick = $0 { true } else { false } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  enum CancelID { case search, timer }

  @Dependency(\.mainQueue) var mainQueue
  @Dependency(\.mainRunLoop) var mainRunLoop

  func reduce(into state: inout State, action: Action) -> EffectOf<Self> {
    switch action {
    case .queryChanged(let query):
      state.query = query
      return .run { send in await send(.search(query)) }
        .debounce(id: CancelID.search, for: 0.3, scheduler: self.mainQueue)
    case .search(let query):
      state.searches.append(query)
      return .none
    case .delayed:
      return .run { send in
        try await self.mainQueue.sleep(for: .seconds(5))
        await send(.ready)
      }
    case .ready:
      state.isReady = true
      return .none
    case .startTimer:
      state.startedAt = self.mainRunLoop.now.date
      return .run { send in
        for await _ in self.mainQueue.timer(interval: .seconds(1)) { await send(.tick) }
      }
      .cancellable(id: CancelID.timer)
    case .stopTimer:
      return .cancel(id: CancelID.timer)
    case .tick:
      state.ticks += 1
      state.tickedAt.append(self.mainRunLoop.now.date)
      return .none
    case .stamp:
      state.startedAt = self.mainRunLoop.now.date
      return .none
    }
  }
}

/// Schedulers without Combine: `\.mainQueue` and `\.mainRunLoop`, test and immediate schedulers,
/// type erasure, and the effects that take a scheduler.
@Suite struct SchedulerTests {
  @Test func aTestQueueResumesASleepOnlyWhenAdvancedPastIt() async {
    let mainQueue = DispatchQueue.test
    let store = TestStore(initialState: Search.State()) { Search() } withDependencies: {
      $0.mainQueue = mainQueue.eraseToAnyScheduler()
    }
    await store.send(.delayed)
    await mainQueue.advance(by: .seconds(4))
    // Nothing is received yet: the exhaustive store would fail on an unexpected `.ready` at
    // the next step.
    await mainQueue.advance(by: .milliseconds(1000))
    await store.receive(\.ready) { $0.isReady = true }
  }

  @Test func aTimerTicksOncePerIntervalOfVirtualTime() async {
    let mainQueue = DispatchQueue.test
    let mainRunLoop = RunLoop.test
    let store = TestStore(initialState: Search.State()) { Search() } withDependencies: {
      $0.mainQueue = mainQueue.eraseToAnyScheduler()
      $0.mainRunLoop = mainRunLoop.eraseToAnyScheduler()
    }
    await store.send(.startTimer) { $0.startedAt = Date(timeIntervalSince1970: 0) }
    await mainQueue.advance(by: .seconds(3))
    await store.receive(\.tick) { $0.ticks = 1; $0.tickedAt = [Date(timeIntervalSince1970: 0)] }
    await store.receive(\.tick) { $0.ticks = 2; $0.tickedAt.append(Date(timeIntervalSince1970: 0)) }
    await store.receive(\.tick) { $0.ticks = 3; $0.tickedAt.append(Date(timeIntervalSince1970: 0)) }
    await store.send(.stopTimer)
    await mainQueue.advance(by: .seconds(10))
  }

  @Test func aDebounceSendsOnlyTheLastQueryAfterAQuietPeriod() async {
    let mainQueue = DispatchQueue.test
    let store = TestStore(initialState: Search.State()) { Search() } withDependencies: {
      $0.mainQueue = mainQueue.eraseToAnyScheduler()
    }
    await store.send(.queryChanged("c")) { $0.query = "c" }
    await mainQueue.advance(by: .milliseconds(200))
    await store.send(.queryChanged("ca")) { $0.query = "ca" }
    await mainQueue.advance(by: .milliseconds(299))
    await store.send(.queryChanged("cat")) { $0.query = "cat" }
    await mainQueue.advance(by: .milliseconds(300))
    await store.receive(\.search, "cat") { $0.searches = ["cat"] }
  }

  @Test func anImmediateQueueRunsDelayedWorkAtOnce() async {
    let store = TestStore(initialState: Search.State()) { Search() } withDependencies: {
      $0.mainQueue = .immediate
    }
    await store.send(.delayed)
    await store.receive(\.ready) { $0.isReady = true }
  }

  @Test func theRunLoopsTimeIsADateThatMovesWithTheTestScheduler() async {
    let mainRunLoop = RunLoop.test
    let erased = mainRunLoop.eraseToAnyScheduler()
    #expect(erased.now.date == Date(timeIntervalSince1970: 0))
    await mainRunLoop.advance(by: .seconds(90))
    #expect(erased.now.date == Date(timeIntervalSince1970: 90))
    await mainRunLoop.advance(to: .init(Date(timeIntervalSince1970: 100)))
    #expect(mainRunLoop.now.date == Date(timeIntervalSince1970: 100))
    #expect(mainRunLoop.clock.now.offset == .seconds(100))
  }

  @Test func sleepersOnATestSchedulerWakeInDeadlineOrderAtTheirDeadlines() async {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let woke = Locked<[Int]>([])
    let late = Task {
      try await scheduler.sleep(for: .seconds(2))
      woke.withLock { $0.append(Int(start.distance(to: scheduler.now).magnitude / 1_000_000)) }
    }
    let early = Task {
      try await scheduler.sleep(for: .milliseconds(500))
      woke.withLock { $0.append(Int(start.distance(to: scheduler.now).magnitude / 1_000_000)) }
    }
    #expect(await eventually { scheduler.clock.sleeperCount == 2 })
    await scheduler.run()
    try? await late.value
    try? await early.value
    #expect(woke.value == [500, 2000])
  }

  @Test func cancellingASleepOnATestSchedulerThrowsAtOnce() async {
    let scheduler = DispatchQueue.test
    let sleeper = Task { try await scheduler.sleep(for: .seconds(60)) }
    #expect(await eventually { scheduler.clock.sleeperCount == 1 })
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
  }

  @Test func theLiveQueueSleepsAndACancelledSleepEndsAtOnce() async throws {
    let queue: AnySchedulerOf<DispatchQueue> = .main
    let before = DispatchTime.now()
    try await queue.sleep(for: .milliseconds(20))
    #expect(DispatchTime.now().uptimeNanoseconds - before.uptimeNanoseconds >= 20_000_000)
    // An hour-long sleep, cancelled, throws without waiting for its deadline (the test would
    // otherwise not end).
    let sleeper = Task { try await RunLoop.main.eraseToAnyScheduler().sleep(for: .seconds(3600)) }
    // Most likely asleep by then (if not, the cancellation is seen before it sleeps).
    try await Task.sleep(for: .milliseconds(50))
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
  }

  @MainActor @Test func aForgottenQueueOverrideWarns() async {
    let warnings = Locked<[String]>([])
    let store = Store(initialState: Search.State()) { Search() } withDependencies: {
      $0.runtimeWarnings = RuntimeWarningReporter { message in warnings.withLock { $0.append(message) } }
      $0.context = .test
    }
    await store.send(.queryChanged("c")).finish()
    #expect(warnings.value.contains { $0.hasPrefix("Unimplemented: @Dependency(\\.mainQueue)") })
  }

  @Test func stridesAreWrittenAsCombineWritesThemAndConvertToDurations() {
    typealias QueueStride = DispatchQueue.SchedulerTimeType.Stride
    typealias LoopStride = RunLoop.SchedulerTimeType.Stride
    #expect(QueueStride.milliseconds(1500) == 1.5)
    #expect(QueueStride.seconds(2) == 2)
    #expect(QueueStride.microseconds(3).duration == .microseconds(3))
    #expect(QueueStride(duration: .milliseconds(250)) == .milliseconds(250))
    #expect(QueueStride.seconds(1) + .milliseconds(1) - .nanoseconds(1_000_000) == .seconds(1))
    #expect(LoopStride.milliseconds(250).timeInterval == 0.25)
    #expect(LoopStride(duration: .seconds(90)).duration == .seconds(90))
    #expect(RunLoop.SchedulerTimeType(Date(timeIntervalSince1970: 10)).advanced(by: 5).date
      == Date(timeIntervalSince1970: 15))
  }
}
