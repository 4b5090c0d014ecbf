#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value protected by a `pthread_mutex_t`.
///
/// Used instead of `Synchronization.Mutex` because ThreadSanitizer understands pthread mutexes
/// but not `Mutex`'s raw futex on Linux, and CI runs the store's tests under ThreadSanitizer:
/// with `Mutex` every access would be reported as a race.
final class _Lock<Value>: @unchecked Sendable {
  // @unchecked: `value` is only read or written inside `withLock`, while `mutex` is held.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  init(_ value: Value) {
    self.value = value
    self.mutex = .allocate(capacity: 1)
    self.mutex.initialize(to: pthread_mutex_t())
    let result = pthread_mutex_init(self.mutex, nil)
    precondition(result == 0, "pthread_mutex_init failed: \(result)")
  }

  deinit {
    pthread_mutex_destroy(self.mutex)
    self.mutex.deinitialize(count: 1)
    self.mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    pthread_mutex_lock(self.mutex)
    defer { pthread_mutex_unlock(self.mutex) }
    return try body(&self.value)
  }
}
