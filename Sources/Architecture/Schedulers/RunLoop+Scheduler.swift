import Dispatch
import Foundation

extension RunLoop: Scheduler {
  /// A point in a run loop's time: a `Date`, as Combine's type of the same name.
  ///
  /// ```swift
  /// state.startedAt = self.mainRunLoop.now.date
  /// ```
  public struct SchedulerTimeType: Strideable, Hashable, Sendable {
    /// The date.
    public var date: Date

    /// A scheduler time at a date.
    ///
    /// - Parameter date: The date.
    public init(_ date: Date) {
      self.date = date
    }

    /// The stride from this time to another.
    public func distance(to other: Self) -> Stride {
      Stride(other.date.timeIntervalSince(self.date))
    }

    /// The time a stride later.
    public func advanced(by stride: Stride) -> Self {
      Self(self.date.addingTimeInterval(stride.magnitude))
    }

    /// A run loop's stride: signed seconds, written `.seconds(1)`, `.milliseconds(300)` or as a
    /// literal number of seconds (`0.5`).
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
      ExpressibleByFloatLiteral, Hashable, Sendable
    {
      /// The stride in seconds.
      public var magnitude: TimeInterval

      /// The stride in seconds.
      public var timeInterval: TimeInterval { self.magnitude }

      /// A stride of seconds.
      ///
      /// - Parameter timeInterval: The seconds.
      public init(_ timeInterval: TimeInterval) {
        self.magnitude = timeInterval
      }

      /// A stride of a literal number of seconds.
      public init(floatLiteral value: Double) { self.init(value) }

      /// A stride of a literal number of whole seconds.
      public init(integerLiteral value: Int) { self.init(TimeInterval(value)) }

      /// A stride of an exact number of seconds, if representable.
      public init?<T: BinaryInteger>(exactly source: T) {
        guard let seconds = TimeInterval(exactly: source) else { return nil }
        self.init(seconds)
      }

      /// The stride of a `Duration`.
      public init(duration: Swift.Duration) {
        let (seconds, attoseconds) = duration.components
        self.magnitude = TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
      }

      /// The stride as a `Duration` (rounded to nanoseconds).
      public var duration: Swift.Duration { .nanoseconds(Int64((self.magnitude * 1e9).rounded())) }

      /// A stride of whole seconds.
      public static func seconds(_ s: Int) -> Self { Self(TimeInterval(s)) }
      /// A stride of seconds.
      public static func seconds(_ s: Double) -> Self { Self(s) }
      /// A stride of milliseconds.
      public static func milliseconds(_ ms: Int) -> Self { Self(TimeInterval(ms) / 1e3) }
      /// A stride of microseconds.
      public static func microseconds(_ us: Int) -> Self { Self(TimeInterval(us) / 1e6) }
      /// A stride of nanoseconds.
      public static func nanoseconds(_ ns: Int) -> Self { Self(TimeInterval(ns) / 1e9) }

      /// Orders strides.
      public static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }
      /// The sum of two strides.
      public static func + (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude + rhs.magnitude) }
      /// The difference of two strides.
      public static func - (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude - rhs.magnitude) }
      /// A stride scaled.
      public static func * (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude * rhs.magnitude) }
      /// Adds a stride in place.
      public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }
      /// Subtracts a stride in place.
      public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }
      /// Scales a stride in place.
      public static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }
    }
  }

  /// Run loops take no scheduler options here.
  public typealias SchedulerOptions = Never

  /// The current date.
  public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

  /// No minimum tolerance.
  public var minimumTolerance: SchedulerTimeType.Stride { 0 }

  /// Suspends until the date `deadline` (measured from now on the uptime clock; see
  /// ``_liveSleep(until:)``: the run loop need not run).
  public func sleep(until deadline: SchedulerTimeType, tolerance: SchedulerTimeType.Stride?)
    async throws
  {
    try await RunLoop._sleep(until: deadline)
  }

  static func _sleep(until deadline: SchedulerTimeType) async throws {
    let delay = max(0, deadline.date.timeIntervalSinceNow)
    try await _liveSleep(until: .now() + .nanoseconds(Int((delay * 1e9).rounded())))
  }

  /// Erases the run loop as the live value of `\.mainRunLoop` does: it tells the time with
  /// `Date()` and sleeps without touching the run loop, so the eraser is `Sendable` although a
  /// run loop is not.
  ///
  /// ```swift
  /// static let liveValue = RunLoop.main.eraseToAnyScheduler()
  /// ```
  public func eraseToAnyScheduler() -> AnySchedulerOf<RunLoop> {
    AnyScheduler(
      minimumTolerance: { 0 }, now: { SchedulerTimeType(Date()) },
      sleep: { deadline, _ in try await RunLoop._sleep(until: deadline) })
  }

  /// A test scheduler on a run loop's time, starting at the Unix epoch, as combine-schedulers'
  /// `RunLoop.test`.
  ///
  /// ```swift
  /// let mainRunLoop = RunLoop.test
  /// $0.mainRunLoop = mainRunLoop.eraseToAnyScheduler()
  /// await mainRunLoop.advance(by: .seconds(1))
  /// ```
  public static var test: TestSchedulerOf<RunLoop> {
    TestScheduler(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
  }

  /// A scheduler on a run loop's time that never waits: sleeps return at once.
  public static var immediate: ImmediateSchedulerOf<RunLoop> {
    ImmediateScheduler(now: SchedulerTimeType(Date()))
  }
}
