import Foundation

/// A type-erased scheduler: the type of the scheduler dependencies, so that a feature can take
/// a dispatch queue live and a test scheduler or an immediate one in tests.
///
/// ```swift
/// @Dependency(\.mainQueue) var mainQueue   // AnySchedulerOf<DispatchQueue>
///
/// // in a test:
/// $0.mainQueue = .immediate
/// ```
public struct AnyScheduler<SchedulerTimeType: Strideable & Sendable, SchedulerOptions>: Scheduler,
  Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible & Sendable {
  private let _minimumTolerance: @Sendable () -> SchedulerTimeType.Stride
  private let _now: @Sendable () -> SchedulerTimeType
  private let _sleep: @Sendable (SchedulerTimeType, SchedulerTimeType.Stride?) async throws -> Void

  /// A scheduler made of closures.
  ///
  /// - Parameters:
  ///   - minimumTolerance: The scheduler's minimum tolerance.
  ///   - now: The scheduler's current time.
  ///   - sleep: Suspends until a deadline with a tolerance; throws if cancelled.
  public init(
    minimumTolerance: @escaping @Sendable () -> SchedulerTimeType.Stride,
    now: @escaping @Sendable () -> SchedulerTimeType,
    sleep: @escaping @Sendable (SchedulerTimeType, SchedulerTimeType.Stride?) async throws -> Void
  ) {
    self._minimumTolerance = minimumTolerance
    self._now = now
    self._sleep = sleep
  }

  /// Erases a scheduler of the same time type.
  ///
  /// - Parameter scheduler: The scheduler.
  public init<S: Scheduler & Sendable>(_ scheduler: S)
  where S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions {
    if let erased = scheduler as? Self {
      self = erased
      return
    }
    self.init(
      minimumTolerance: { scheduler.minimumTolerance }, now: { scheduler.now },
      sleep: { try await scheduler.sleep(until: $0, tolerance: $1) })
  }

  /// The erased scheduler's current time.
  public var now: SchedulerTimeType { self._now() }

  /// The erased scheduler's minimum tolerance.
  public var minimumTolerance: SchedulerTimeType.Stride { self._minimumTolerance() }

  /// Suspends on the erased scheduler.
  public func sleep(until deadline: SchedulerTimeType, tolerance: SchedulerTimeType.Stride?)
    async throws
  {
    try await self._sleep(deadline, tolerance)
  }
}

/// The erased form of a scheduler type: `AnySchedulerOf<DispatchQueue>`.
public typealias AnySchedulerOf<S: Scheduler> = AnyScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension AnyScheduler
where SchedulerTimeType == DispatchQueue.SchedulerTimeType, SchedulerOptions == Never {
  /// The main dispatch queue, erased: the live value of `\.mainQueue`.
  public static var main: Self { DispatchQueue.main.eraseToAnyScheduler() }

  /// A scheduler that never waits, erased: `$0.mainQueue = .immediate`.
  public static var immediate: Self { DispatchQueue.immediate.eraseToAnyScheduler() }
}

extension AnyScheduler where SchedulerTimeType == RunLoop.SchedulerTimeType, SchedulerOptions == Never {
  /// The main run loop, erased: the live value of `\.mainRunLoop`.
  public static var main: Self { RunLoop.main.eraseToAnyScheduler() }

  /// A scheduler that never waits, erased: `$0.mainRunLoop = .immediate`.
  public static var immediate: Self { RunLoop.immediate.eraseToAnyScheduler() }
}
