import Wire

extension Actor {
  /// Runs `operation` isolated to this actor, which must run on `loop` (its executor is the
  /// loop's), from a job or callback already on that loop's thread.
  ///
  /// This is the standard library's `assumeIsolated` with a cheaper proof: being on the loop's
  /// thread *is* being on this actor's executor, so the check is a thread-id compare instead of
  /// the runtime's general executor check, which cost ~10 % of a request's instructions in the
  /// host (bench/PROFILE.md). The host's two actors qualify: ``HostCore`` declares the loop as
  /// its executor, and ``StoreHost`` creates the root `Store` with the loop as its executor.
  ///
  /// - Parameters:
  ///   - loop: The event loop that is this actor's executor.
  ///   - operation: The work to run with the actor's isolation.
  /// - Returns: What `operation` returns.
  @inlinable
  nonisolated func assumeIsolated<T: Sendable>(
    on loop: EventLoop, _ operation: (isolated Self) throws -> T
  ) rethrows -> T {
    precondition(loop.inEventLoop, "assumeIsolated(on:) called off the thread of loop '\(loop.name)'")
    typealias Isolated = (isolated Self) throws -> T
    typealias Plain = (Self) throws -> T
    // An `isolated` parameter is an ordinary parameter in the calling convention; the cast only
    // drops the static proof, which the check above has just provided.
    return try withoutActuallyEscaping(operation) { (operation: @escaping Isolated) throws -> T in
      try unsafeBitCast(operation, to: Plain.self)(self)
    }
  }
}
