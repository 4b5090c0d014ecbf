extension Task where Success == Never, Failure == Never {
  /// Suspends until the task is cancelled, then throws `CancellationError`.
  ///
  /// Useful in test doubles of long-living dependencies, and in effects that must keep
  /// running (holding a resource) until they are cancelled:
  ///
  /// ```swift
  /// store.dependencies.notifications.stream = { try await Task.never() }
  /// ```
  ///
  /// - Throws: `CancellationError`, when the task is cancelled.
  public static func never() async throws -> Never {
    // An `AsyncStream` iterator returns `nil` once its task is cancelled; nothing else ends this
    // one (the continuation is kept alive and never finished).
    let (stream, continuation) = AsyncStream<Never>.makeStream()
    for await _ in stream {}
    withExtendedLifetime(continuation) {}
    throw _Concurrency.CancellationError()
  }
}
