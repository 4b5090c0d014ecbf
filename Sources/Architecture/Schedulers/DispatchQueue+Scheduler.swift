import Dispatch
import Foundation

extension DispatchQueue: Scheduler {
  /// A point in a dispatch queue's time: a `DispatchTime`, as Combine's type of the same name.
  public struct SchedulerTimeType: Strideable, Hashable, Sendable {
    /// The dispatch time.
    public var dispatchTime: DispatchTime

    /// A scheduler time at a dispatch time.
    ///
    /// - Parameter time: The dispatch time.
    public init(_ time: DispatchTime) {
      self.dispatchTime = time
    }

    /// The stride from this time to another.
    public func distance(to other: Self) -> Stride {
      let from = Int64(bitPattern: self.dispatchTime.uptimeNanoseconds)
      let to = Int64(bitPattern: other.dispatchTime.uptimeNanoseconds)
      return Stride(nanoseconds: Int(to &- from))
    }

    /// The time a stride later (never before the start of uptime).
    public func advanced(by stride: Stride) -> Self {
      let nanoseconds = Int64(bitPattern: self.dispatchTime.uptimeNanoseconds) + Int64(stride.magnitude)
      return Self(DispatchTime(uptimeNanoseconds: UInt64(max(1, nanoseconds))))
    }

    /// Hashes the time's nanoseconds.
    public func hash(into hasher: inout Hasher) {
      hasher.combine(self.dispatchTime.uptimeNanoseconds)
    }

    /// Whether two times are the same nanosecond.
    public static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
    }

    /// A dispatch queue's stride: signed nanoseconds, written `.seconds(1)`,
    /// `.milliseconds(300)` or as a literal number of seconds (`0.5`).
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
      ExpressibleByFloatLiteral, Hashable, Sendable
    {
      /// The stride in nanoseconds.
      public var magnitude: Int

      /// The stride as a `DispatchTimeInterval`.
      public var timeInterval: DispatchTimeInterval { .nanoseconds(self.magnitude) }

      init(nanoseconds: Int) { self.magnitude = nanoseconds }

      /// A stride of a dispatch time interval.
      ///
      /// - Parameter timeInterval: The interval.
      public init(_ timeInterval: DispatchTimeInterval) {
        switch timeInterval {
        case .seconds(let s): self.magnitude = s * 1_000_000_000
        case .milliseconds(let ms): self.magnitude = ms * 1_000_000
        case .microseconds(let us): self.magnitude = us * 1_000
        case .nanoseconds(let ns): self.magnitude = ns
        case .never: self.magnitude = .max
        @unknown default: self.magnitude = .max
        }
      }

      /// A stride of seconds.
      ///
      /// - Parameter seconds: The seconds.
      public init(_ seconds: Double) {
        self.magnitude = Int((seconds * 1_000_000_000).rounded())
      }

      /// A stride of a literal number of seconds.
      public init(floatLiteral value: Double) { self.init(value) }

      /// A stride of a literal number of whole seconds.
      public init(integerLiteral value: Int) { self.init(.seconds(value)) }

      /// A stride of an exact number of seconds, if representable.
      public init?<T: BinaryInteger>(exactly source: T) {
        guard let seconds = Int(exactly: source) else { return nil }
        self.init(.seconds(seconds))
      }

      /// The stride of a `Duration`, rounded to nanoseconds.
      public init(duration: Swift.Duration) {
        let (seconds, attoseconds) = duration.components
        self.magnitude = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
      }

      /// The stride as a `Duration`.
      public var duration: Swift.Duration { .nanoseconds(self.magnitude) }

      /// A stride of whole seconds.
      public static func seconds(_ s: Int) -> Self { Self(.seconds(s)) }
      /// A stride of seconds.
      public static func seconds(_ s: Double) -> Self { Self(s) }
      /// A stride of milliseconds.
      public static func milliseconds(_ ms: Int) -> Self { Self(.milliseconds(ms)) }
      /// A stride of microseconds.
      public static func microseconds(_ us: Int) -> Self { Self(.microseconds(us)) }
      /// A stride of nanoseconds.
      public static func nanoseconds(_ ns: Int) -> Self { Self(.nanoseconds(ns)) }

      /// Orders strides.
      public static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }
      /// The sum of two strides.
      public static func + (lhs: Self, rhs: Self) -> Self { Self(nanoseconds: lhs.magnitude + rhs.magnitude) }
      /// The difference of two strides.
      public static func - (lhs: Self, rhs: Self) -> Self { Self(nanoseconds: lhs.magnitude - rhs.magnitude) }
      /// A stride scaled.
      public static func * (lhs: Self, rhs: Self) -> Self {
        Self(nanoseconds: Int((Double(lhs.magnitude) * Double(rhs.magnitude) / 1e9).rounded()))
      }
      /// Adds a stride in place.
      public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }
      /// Subtracts a stride in place.
      public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }
      /// Scales a stride in place.
      public static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }
    }
  }

  /// Dispatch queues take no scheduler options here.
  public typealias SchedulerOptions = Never

  /// The current dispatch time.
  public var now: SchedulerTimeType { SchedulerTimeType(.now()) }

  /// No minimum tolerance.
  public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

  /// Suspends until the dispatch time `deadline` (see ``_liveSleep(until:)``).
  public func sleep(until deadline: SchedulerTimeType, tolerance: SchedulerTimeType.Stride?)
    async throws
  {
    try await _liveSleep(until: deadline.dispatchTime)
  }

  /// A test scheduler on a dispatch queue's time, starting at the first moment of uptime, as
  /// combine-schedulers' `DispatchQueue.test`.
  ///
  /// ```swift
  /// let mainQueue = DispatchQueue.test
  /// $0.mainQueue = mainQueue.eraseToAnyScheduler()
  /// await mainQueue.advance(by: .seconds(1))
  /// ```
  public static var test: TestSchedulerOf<DispatchQueue> {
    TestScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
  }

  /// A scheduler on a dispatch queue's time that never waits: sleeps return at once.
  public static var immediate: ImmediateSchedulerOf<DispatchQueue> {
    ImmediateScheduler(now: SchedulerTimeType(.now()))
  }
}
