/// A value guarded by a pthread mutex: the lock for state shared between an event loop's
/// thread and the threads that submit work to it.
///
/// Used instead of `Synchronization.Mutex` because ThreadSanitizer sees through pthread
/// mutexes but not through `Mutex`'s futex, and this module's cross-thread state is exactly
/// what `swift test --sanitize=thread` must be able to check.
final class Locked<Value>: @unchecked Sendable {
  // @unchecked Sendable: `value` is only read or written between `Posix.lock` and
  // `Posix.unlock` of `mutex`, which every access goes through (`withLock`).
  private var value: Value
  private let mutex = Posix.makeMutex()

  init(_ value: Value) {
    self.value = value
  }

  deinit {
    Posix.destroyMutex(mutex)
  }

  /// Runs `body` with exclusive access to the value.
  @inline(__always)
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    Posix.lock(mutex)
    defer { Posix.unlock(mutex) }
    return try body(&value)
  }
}
