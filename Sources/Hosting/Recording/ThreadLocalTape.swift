#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The ``DrawTape`` of the reduce running on this thread, if any.
///
/// A thread-local rather than a task-local: reduces are synchronous, and pushing a task-local
/// costs more than the rest of a host's send (see Architecture's reduce context, which does the
/// same for dependencies).
@usableFromInline
enum ThreadLocalTape {
  /// Not `private`, so that the host's reduce can be specialized across modules (see
  /// ``ReductionRecorder``).
  @usableFromInline static let key: pthread_key_t = {
    var key = pthread_key_t()
    let result = pthread_key_create(&key, nil)
    precondition(result == 0, "pthread_key_create failed: \(result)")
    return key
  }()

  /// The tape of the reduce running on this thread.
  static var current: DrawTape? {
    guard let pointer = pthread_getspecific(self.key) else { return nil }
    // The pointer was set by `with(_:_:)` below from a tape that call keeps alive until it
    // clears the pointer again, so it is valid whenever it is read on this thread.
    return Unmanaged<DrawTape>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// Makes `tape` this thread's tape until ``restore(_:)``; returns the previous one, to give
  /// back to ``restore(_:)``. The caller keeps `tape` alive until then.
  @inlinable @inline(__always)
  static func install(_ tape: DrawTape) -> UnsafeMutableRawPointer? {
    let previous = pthread_getspecific(self.key)
    pthread_setspecific(self.key, Unmanaged.passUnretained(tape).toOpaque())
    return previous
  }

  /// Makes `previous` (from ``install(_:)``) this thread's tape again.
  @inlinable @inline(__always)
  static func restore(_ previous: UnsafeMutableRawPointer?) {
    pthread_setspecific(self.key, previous)
  }

  /// Runs `body` with `tape` as this thread's tape; the caller keeps `tape` alive.
  static func with<R>(_ tape: DrawTape, _ body: () throws -> R) rethrows -> R {
    let previous = pthread_getspecific(self.key)
    pthread_setspecific(self.key, Unmanaged.passUnretained(tape).toOpaque())
    defer { pthread_setspecific(self.key, previous) }
    return try withExtendedLifetime(tape) { try body() }
  }
}
