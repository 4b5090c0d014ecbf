import Foundation

/// Something that tells time and can wait for it: the shape of Combine's `Scheduler`, for the
/// async effects of a reducer and without Combine.
///
/// TCA apps written before Swift's clocks inject a `DispatchQueue` or `RunLoop` scheduler
/// (`@Dependency(\.mainQueue)`, `@Dependency(\.mainRunLoop)`) and sleep, tick and debounce on it.
/// This protocol gives those call sites the same names and shapes on every platform:
///
/// ```swift
/// @Dependency(\.mainQueue) var mainQueue
///
/// case .startButtonTapped:
///   return .run { send in
///     for await _ in self.mainQueue.timer(interval: .seconds(1)) {
///       await send(.tick)
///     }
///   }
/// ```
///
/// and in tests a ``TestScheduler`` (`DispatchQueue.test`) moves virtual time:
///
/// ```swift
/// let mainQueue = DispatchQueue.test
/// let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
///   $0.mainQueue = mainQueue.eraseToAnyScheduler()
/// }
/// await store.send(.startButtonTapped)
/// await mainQueue.advance(by: .seconds(1))
/// await store.receive(\.tick)
/// ```
///
/// ## Schedulers and clocks
///
/// Swift's `Clock` (``DependencyValues/clock``, ``DependencyValues/continuousClock`` and
/// ``TestClock``) remains the recommended way to wait in new code: it needs no queue and its
/// durations are Swift's own. Schedulers exist so that code written against Combine's ports
/// unchanged, and they share the clocks' machinery: a ``TestScheduler`` is a ``TestClock`` that
/// counts in its scheduler's time type, so it waits for a ``TestStore``'s effects exactly as the
/// clock does. Every stride converts to a `Duration` (``SchedulerTimeIntervalConvertible``).
///
/// Unlike Combine's protocol there is no callback-based `schedule`: effects are async, and a
/// scheduler's one primitive is ``sleep(until:tolerance:)``, which the task resumes from on its
/// own executor (a scheduler names a time base, not a thread).
public protocol Scheduler<SchedulerTimeType> {
  /// The scheduler's notion of a point in time (`DispatchQueue.SchedulerTimeType`, …).
  associatedtype SchedulerTimeType: Strideable & Sendable
  where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible & Sendable

  /// The options a scheduler accepts, kept for the shape of `AnySchedulerOf<DispatchQueue>`;
  /// the schedulers here take none.
  associatedtype SchedulerOptions = Never

  /// The scheduler's current time.
  var now: SchedulerTimeType { get }

  /// The smallest tolerance the scheduler honours.
  var minimumTolerance: SchedulerTimeType.Stride { get }

  /// Suspends until the scheduler's time reaches `deadline`; throws `CancellationError` if the
  /// task is cancelled first.
  ///
  /// - Parameters:
  ///   - deadline: When to resume.
  ///   - tolerance: How late the resumption may be, or `nil` for the scheduler's default.
  func sleep(until deadline: SchedulerTimeType, tolerance: SchedulerTimeType.Stride?)
    async throws
}

/// A scheduler's stride: built from seconds, milliseconds, microseconds or nanoseconds, as
/// Combine's protocol of the same name, and convertible to and from Swift's `Duration` (which
/// ties schedulers to clocks).
public protocol SchedulerTimeIntervalConvertible {
  /// A stride of whole seconds.
  static func seconds(_ s: Int) -> Self
  /// A stride of seconds.
  static func seconds(_ s: Double) -> Self
  /// A stride of milliseconds.
  static func milliseconds(_ ms: Int) -> Self
  /// A stride of microseconds.
  static func microseconds(_ us: Int) -> Self
  /// A stride of nanoseconds.
  static func nanoseconds(_ ns: Int) -> Self
  /// The stride of a `Duration` (rounded to the stride's precision).
  init(duration: Swift.Duration)
  /// The stride as a `Duration`.
  var duration: Swift.Duration { get }
}

extension Scheduler {
  /// Suspends for a stride of the scheduler's time.
  ///
  /// ```swift
  /// try await self.mainQueue.sleep(for: .seconds(1))
  /// ```
  ///
  /// - Parameters:
  ///   - duration: How long to sleep.
  ///   - tolerance: How late the resumption may be.
  public func sleep(
    for duration: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride? = nil
  ) async throws {
    try await self.sleep(until: self.now.advanced(by: duration), tolerance: tolerance)
  }

  /// Suspends until a point in the scheduler's time.
  ///
  /// - Parameter deadline: When to resume.
  public func sleep(until deadline: SchedulerTimeType) async throws {
    try await self.sleep(until: deadline, tolerance: nil)
  }

  /// An async sequence of the scheduler's time every `interval`, as combine-schedulers' async
  /// timer; it ends when the iterating task is cancelled.
  ///
  /// ```swift
  /// for await _ in self.mainQueue.timer(interval: .seconds(1)) {
  ///   await send(.timerTicked)
  /// }
  /// ```
  ///
  /// Ticks are due at whole multiples of `interval`; ticks a slow consumer missed are skipped.
  /// With a ``TestScheduler`` it ticks once per `interval` the test advances.
  ///
  /// - Parameters:
  ///   - interval: The time between ticks.
  ///   - tolerance: The tolerance of each sleep.
  /// - Returns: The ticks, each the scheduler's time at the tick.
  public func timer(
    interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride? = nil
  ) -> _SchedulerTimer<Self> where Self: Sendable {
    _SchedulerTimer(scheduler: self, interval: interval, tolerance: tolerance)
  }

  /// Wraps the scheduler in an ``AnyScheduler``, the type of the scheduler dependencies.
  ///
  /// ```swift
  /// $0.mainQueue = mainQueue.eraseToAnyScheduler()
  /// ```
  public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions>
  where Self: Sendable {
    AnyScheduler(self)
  }
}

/// The timer returned by ``Scheduler/timer(interval:tolerance:)``: the clock timer, on the
/// scheduler's time.
public struct _SchedulerTimer<S: Scheduler & Sendable>: AsyncSequence, Sendable {
  /// The scheduler's time at each tick.
  public typealias Element = S.SchedulerTimeType

  let scheduler: S
  let ticks: _ClockTimer<Swift.Duration>

  init(scheduler: S, interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride?) {
    self.scheduler = scheduler
    self.ticks = _SchedulerClock(scheduler).timer(
      interval: interval.duration, tolerance: tolerance?.duration)
  }

  /// Iterates the ticks of a scheduler timer.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let scheduler: S
    var ticks: _ClockTimer<Swift.Duration>.AsyncIterator

    /// Waits for the next tick; `nil` once the task is cancelled.
    public mutating func next() async -> S.SchedulerTimeType? {
      guard await self.ticks.next() != nil else { return nil }
      return self.scheduler.now
    }
  }

  /// Starts the timer's schedule.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(scheduler: self.scheduler, ticks: self.ticks.makeAsyncIterator())
  }
}

/// A `Clock` that runs on a scheduler's time, so that clock-based operators (the store's
/// debounce, the clock timer) serve schedulers too.
struct _SchedulerClock<S: Scheduler & Sendable>: Clock {
  struct Instant: InstantProtocol {
    let time: S.SchedulerTimeType

    func advanced(by duration: Swift.Duration) -> Self {
      Self(time: self.time.advanced(by: .init(duration: duration)))
    }

    func duration(to other: Self) -> Swift.Duration {
      self.time.distance(to: other.time).duration
    }

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.time < rhs.time }
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.time == rhs.time }
    // Scheduler times need not be hashable: every instant hashes alike, which is consistent
    // with `==` (the clock never hashes its instants).
    func hash(into hasher: inout Hasher) {}
  }

  let scheduler: S

  init(_ scheduler: S) { self.scheduler = scheduler }

  var now: Instant { Instant(time: self.scheduler.now) }
  var minimumResolution: Swift.Duration { self.scheduler.minimumTolerance.duration }

  func sleep(until deadline: Instant, tolerance: Swift.Duration?) async throws {
    try await self.scheduler.sleep(until: deadline.time, tolerance: tolerance.map { .init(duration: $0) })
  }
}
