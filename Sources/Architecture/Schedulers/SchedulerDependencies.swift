import Foundation

/// A scheduler that reports a runtime warning the first time it sleeps, then sleeps as the live
/// one: the test value of the scheduler dependencies, so a test that forgets to override them is
/// told, without hanging.
private func _unimplementedScheduler<T, O>(
  _ name: String, _ live: AnyScheduler<T, O>
) -> AnyScheduler<T, O> {
  AnyScheduler(
    minimumTolerance: { live.minimumTolerance }, now: { live.now },
    sleep: { deadline, tolerance in
      DependencyValues._effective.runtimeWarnings(
        "Unimplemented: @Dependency(\\.\(name)) was used in a test context."
          + " Override it with a test scheduler (DispatchQueue.test or RunLoop.test) or .immediate.")
      try await live.sleep(until: deadline, tolerance: tolerance)
    })
}

private enum MainQueueKey: DependencyKey {
  static let liveValue = AnySchedulerOf<DispatchQueue>.main
  static let testValue = _unimplementedScheduler("mainQueue", liveValue)
}

private enum MainRunLoopKey: DependencyKey {
  static let liveValue = AnySchedulerOf<RunLoop>.main
  static let testValue = _unimplementedScheduler("mainRunLoop", liveValue)
}

extension DependencyValues {
  /// The main dispatch queue as a scheduler, for code written against combine-schedulers.
  ///
  /// ```swift
  /// @Dependency(\.mainQueue) var mainQueue
  /// try await self.mainQueue.sleep(for: .seconds(1))
  /// ```
  ///
  /// Prefer ``clock`` in new code; in tests, override it with `DispatchQueue.test` (erased) or
  /// `.immediate`. See ``Scheduler``.
  public var mainQueue: AnySchedulerOf<DispatchQueue> {
    get { self[MainQueueKey.self] }
    set { self[MainQueueKey.self] = newValue }
  }

  /// The main run loop as a scheduler, whose time is a `Date` (`now.date`).
  ///
  /// ```swift
  /// @Dependency(\.mainRunLoop) var mainRunLoop
  /// state.startedAt = self.mainRunLoop.now.date
  /// ```
  ///
  /// In tests, override it with `RunLoop.test` (erased) or `.immediate`. See ``Scheduler``.
  public var mainRunLoop: AnySchedulerOf<RunLoop> {
    get { self[MainRunLoopKey.self] }
    set { self[MainRunLoopKey.self] = newValue }
  }
}
