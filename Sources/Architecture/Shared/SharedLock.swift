#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value guarded by a recursive `pthread_mutex_t`: the lock of shared state.
///
/// Recursive because a `withLock` on a `Shared` may read the same `Shared` (or another one
/// derived from the same root) from inside its closure, on the same thread; a plain mutex would
/// deadlock there. pthread rather than `Synchronization.Mutex` so that ThreadSanitizer, which
/// CI runs the tests under, understands it.
final class _SharedLock<State>: @unchecked Sendable {
  // @unchecked: `state` is only read or written inside `withLock`, while `mutex` is held; the
  // mutex itself is allocated once and freed in deinit, when no other reference exists.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var state: State

  init(_ state: State) {
    self.state = state
    self.mutex = .allocate(capacity: 1)
    self.mutex.initialize(to: pthread_mutex_t())
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
    let result = pthread_mutex_init(self.mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
    precondition(result == 0, "pthread_mutex_init failed: \(result)")
  }

  deinit {
    pthread_mutex_destroy(self.mutex)
    self.mutex.deinitialize(count: 1)
    self.mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the state. `body` must not run code that could take
  /// this lock again (user code): it holds an `inout` access to the state, and a nested access
  /// would violate exclusivity. Use ``whileLocked(_:)`` for that.
  func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
    pthread_mutex_lock(self.mutex)
    defer { pthread_mutex_unlock(self.mutex) }
    return try body(&self.state)
  }

  /// Runs `body` holding the lock but no access to the state, so that `body` may run user code
  /// that takes the lock again on this thread; `body` reads and writes the state through
  /// ``locked``, one instantaneous access at a time.
  func whileLocked<R>(_ body: () throws -> R) rethrows -> R {
    pthread_mutex_lock(self.mutex)
    defer { pthread_mutex_unlock(self.mutex) }
    return try body()
  }

  /// The state, for use inside ``whileLocked(_:)`` only (the lock must be held).
  var locked: State {
    get { self.state }
    set { self.state = newValue }
  }
}
