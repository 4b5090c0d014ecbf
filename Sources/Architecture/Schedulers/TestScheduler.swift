/// A scheduler whose time only moves when a test says so: combine-schedulers' test scheduler,
/// built on ``TestClock``.
///
/// ```swift
/// let mainQueue = DispatchQueue.test
/// let store = TestStore(initialState: Search.State()) { Search() } withDependencies: {
///   $0.mainQueue = mainQueue.eraseToAnyScheduler()
/// }
/// await store.send(.queryChanged("c")) { $0.query = "c" }
/// await mainQueue.advance(by: .milliseconds(300))
/// await store.receive(\.searchResponse.success)
/// ```
///
/// Its time is a ``TestClock``'s offset from a starting scheduler time, so it behaves as the
/// clock does: sleepers resume in deadline order, each seeing ``now`` at its deadline; after
/// each resumption it waits for the resumed work (exactly for a ``TestStore``'s effects); a
/// cancelled sleep throws at once. See ``TestClock`` for the details.
public final class TestScheduler<SchedulerTimeType: Strideable & Sendable>: Scheduler, Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible & Sendable {
  /// Test schedulers take no options.
  public typealias SchedulerOptions = Never

  /// The virtual time the scheduler counts in.
  public let clock: TestClock<Duration>
  private let start: SchedulerTimeType

  /// Creates a test scheduler.
  ///
  /// - Parameter now: The scheduler's starting time.
  public init(now: SchedulerTimeType) {
    self.clock = TestClock()
    self.start = now
  }

  /// The scheduler's current time.
  public var now: SchedulerTimeType {
    self.start.advanced(by: .init(duration: self.clock.now.offset))
  }

  /// No minimum tolerance.
  public var minimumTolerance: SchedulerTimeType.Stride { .init(duration: .zero) }

  /// Suspends until the test advances the scheduler to `deadline`.
  public func sleep(until deadline: SchedulerTimeType, tolerance: SchedulerTimeType.Stride?)
    async throws
  {
    try await self.clock.sleep(until: self.instant(deadline))
  }

  /// Advances the scheduler's time, resuming the sleepers whose deadlines pass, in order (see
  /// ``TestClock/advance(by:)``).
  ///
  /// - Parameter stride: How far to move time; zero runs what is due now.
  public func advance(by stride: SchedulerTimeType.Stride = .init(duration: .zero)) async {
    await self.clock.advance(by: stride.duration)
  }

  /// Advances the scheduler to a time (see ``advance(by:)``).
  ///
  /// - Parameter instant: The time to move to.
  public func advance(to instant: SchedulerTimeType) async {
    await self.clock.advance(to: self.instant(instant))
  }

  /// Advances the scheduler until nothing sleeps on it any more.
  ///
  /// - Parameter limit: How far to advance at most, against runaway timers.
  public func run(limit: SchedulerTimeType.Stride = .seconds(60 * 60 * 24)) async {
    await self.clock.run(limit: limit.duration)
  }

  private func instant(_ time: SchedulerTimeType) -> TestClock<Duration>.Instant {
    TestClock<Duration>.Instant(offset: self.start.distance(to: time).duration)
  }
}

/// The test scheduler of a scheduler type: `TestSchedulerOf<DispatchQueue>`.
public typealias TestSchedulerOf<S: Scheduler> = TestScheduler<S.SchedulerTimeType>

/// A scheduler that never waits: every sleep returns at once (if the task is not cancelled) and
/// its time stands still, as combine-schedulers' immediate scheduler.
///
/// For tests of features that wait but whose waiting is beside the point:
///
/// ```swift
/// $0.mainQueue = .immediate
/// ```
///
/// A timer on it ticks without end as fast as its consumer takes ticks; test timers with a
/// ``TestScheduler``.
public struct ImmediateScheduler<SchedulerTimeType: Strideable & Sendable>: Scheduler, Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible & Sendable {
  /// Immediate schedulers take no options.
  public typealias SchedulerOptions = Never

  /// The scheduler's time, which never moves.
  public let now: SchedulerTimeType

  /// Creates an immediate scheduler.
  ///
  /// - Parameter now: Its time.
  public init(now: SchedulerTimeType) {
    self.now = now
  }

  /// No minimum tolerance.
  public var minimumTolerance: SchedulerTimeType.Stride { .init(duration: .zero) }

  /// Returns at once, after letting other tasks run; throws if the task is cancelled.
  public func sleep(until deadline: SchedulerTimeType, tolerance: SchedulerTimeType.Stride?)
    async throws
  {
    try Task.checkCancellation()
    await Task.yield()
    try Task.checkCancellation()
  }
}

/// The immediate scheduler of a scheduler type: `ImmediateSchedulerOf<DispatchQueue>`.
public typealias ImmediateSchedulerOf<S: Scheduler> = ImmediateScheduler<S.SchedulerTimeType>
