extension Clock {
  /// An async sequence that ticks every `interval` on this clock, as swift-clocks' timer.
  ///
  /// ```swift
  /// case .startTimerButtonTapped:
  ///   return .run { send in
  ///     for await _ in self.clock.timer(interval: .seconds(1)) {
  ///       await send(.timerTicked)
  ///     }
  ///   }
  ///   .cancellable(id: CancelID.timer)
  /// ```
  ///
  /// Ticks are due at whole multiples of `interval` after the first `next()`; ticks missed
  /// because the consumer was slow are skipped, not bunched. With a ``TestClock`` it ticks once
  /// per `interval` the test advances. The sequence ends when the iterating task is cancelled.
  /// Each element is the time elapsed on the clock since the timer started.
  ///
  /// - Parameters:
  ///   - interval: The time between ticks.
  ///   - tolerance: The tolerance passed to the clock's `sleep`.
  /// - Returns: The timer.
  public func timer(interval: Duration, tolerance: Duration? = nil) -> _ClockTimer<Duration> {
    _ClockTimer(clock: self, interval: interval, tolerance: tolerance)
  }
}

/// The timer returned by ``_Concurrency/Clock/timer(interval:tolerance:)``: works on any clock,
/// including an `any Clock<Duration>` dependency.
public struct _ClockTimer<Duration: DurationProtocol>: AsyncSequence, Sendable {
  /// The time elapsed since the timer started, at each tick.
  public typealias Element = Duration

  private let makeTicks: @Sendable () -> @Sendable () async -> Duration?

  init<C: Clock>(clock: C, interval: Duration, tolerance: Duration?) where C.Duration == Duration {
    precondition(interval > .zero, "A timer's interval must be positive, not \(interval)")
    self.makeTicks = {
      let schedule = _Lock<(start: C.Instant, last: C.Instant)?>(nil)
      return {
        let now = clock.now
        let (start, last) = schedule.withLock { $0 } ?? (now, now)
        var deadline = last.advanced(by: interval)
        if deadline < now {
          // Skip the ticks the consumer missed: the next one due after now.
          let missed = (deadline.duration(to: now) / interval).rounded(.up)
          deadline = last.advanced(by: interval * Int(missed))
        }
        do {
          try await clock.sleep(until: deadline, tolerance: tolerance)
        } catch {
          return nil
        }
        schedule.withLock { $0 = (start, deadline) }
        return start.duration(to: clock.now)
      }
    }
  }

  /// Iterates the ticks of a timer.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let tick: @Sendable () async -> Duration?

    /// Waits for the next tick; `nil` once the task is cancelled.
    public mutating func next() async -> Duration? {
      await self.tick()
    }
  }

  /// Starts the timer's schedule.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(tick: self.makeTicks())
  }
}
