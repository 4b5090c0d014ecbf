/// A clock that reports a runtime warning the first time it is used, then behaves like a
/// `ContinuousClock`: the test value of the clock dependencies, so a test that forgets to
/// override them is told, without hanging.
struct _UnimplementedClock: Clock {
  typealias Duration = Swift.Duration
  typealias Instant = ContinuousClock.Instant

  let name: String
  let base = ContinuousClock()

  var now: Instant { self.base.now }
  var minimumResolution: Duration { self.base.minimumResolution }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    DependencyValues._effective.runtimeWarnings(
      "Unimplemented: @Dependency(\\.\(self.name)) was used in a test context."
        + " Override it with a TestClock.")
    try await self.base.sleep(until: deadline, tolerance: tolerance)
  }
}

private enum ClockKey: DependencyKey {
  static let liveValue: any Clock<Duration> = ContinuousClock()
  static let testValue: any Clock<Duration> = _UnimplementedClock(name: "clock")
}

private enum SuspendingClockKey: DependencyKey {
  static let liveValue: any Clock<Duration> = SuspendingClock()
  static let testValue: any Clock<Duration> = _UnimplementedClock(name: "suspendingClock")
}

private enum ContinuousClockKey: DependencyKey {
  static let liveValue: any Clock<Duration> = ContinuousClock()
  static let testValue: any Clock<Duration> = _UnimplementedClock(name: "continuousClock")
}

extension DependencyValues {
  /// The clock effects should sleep on: a `ContinuousClock` live, a ``TestClock`` in tests.
  public var clock: any Clock<Duration> {
    get { self[ClockKey.self] }
    set { self[ClockKey.self] = newValue }
  }

  /// A continuous clock (the same as ``clock`` unless overridden separately).
  public var continuousClock: any Clock<Duration> {
    get { self[ContinuousClockKey.self] }
    set { self[ContinuousClockKey.self] = newValue }
  }

  /// A clock that does not advance while the system sleeps (`SuspendingClock` live), for
  /// durations measured in the app's running time.
  public var suspendingClock: any Clock<Duration> {
    get { self[SuspendingClockKey.self] }
    set { self[SuspendingClockKey.self] = newValue }
  }
}
