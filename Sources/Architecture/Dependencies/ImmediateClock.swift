/// A clock that does not suspend when sleeping: time jumps to each deadline at once.
///
/// Useful in tests (and previews) that do not care about the passage of time, only about what
/// happens after it:
///
/// ```swift
/// let store = TestStore(initialState: Feature.State()) {
///   Feature()
/// } withDependencies: {
///   $0.continuousClock = ImmediateClock()
/// }
/// await store.send(.startButtonTapped)
/// await store.receive(\.delayedResponse)   // no waiting
/// ```
///
/// Sleeping moves ``now`` to the deadline (never backwards) and yields once, so that other
/// tasks get a turn; a cancelled task's sleep throws `CancellationError`.
public final class ImmediateClock<Duration: DurationProtocol & Hashable>: Clock, Sendable {
  /// A point in an immediate clock's time: an offset from its start.
  public struct Instant: InstantProtocol, Sendable, Hashable {
    /// The time since the clock's start.
    public var offset: Duration

    /// An instant at an offset from the clock's start.
    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Self {
      Self(offset: self.offset + duration)
    }

    /// The duration from this instant to another.
    public func duration(to other: Self) -> Duration {
      other.offset - self.offset
    }

    /// Orders instants.
    public static func < (lhs: Self, rhs: Self) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private let current: _Lock<Instant>

  /// The smallest step of the clock.
  public var minimumResolution: Duration { .zero }

  /// Creates an immediate clock.
  ///
  /// - Parameter now: The starting instant.
  public init(now: Instant = Instant()) {
    self.current = _Lock(now)
  }

  /// The current instant: the latest deadline slept until.
  public var now: Instant {
    self.current.withLock { $0 }
  }

  /// Moves the clock to `deadline` (if it is later than now) without suspending, then yields.
  ///
  /// - Throws: `CancellationError` if the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    self.current.withLock { now in
      if deadline > now { now = deadline }
    }
    await Task.yield()
  }
}

extension ImmediateClock where Duration == Swift.Duration {
  /// Creates an immediate clock of `Duration`, starting at offset zero.
  public convenience init() {
    self.init(now: Instant())
  }
}

extension Clock where Self == ImmediateClock<Swift.Duration> {
  /// A clock that does not suspend when sleeping (see ``ImmediateClock``).
  public static var immediate: Self { ImmediateClock() }
}
