// Darwin first: Tests/DarwinStandIn type-checks the Darwin half on Linux, where Glibc exists too.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// A thread of its own for a server's poll loop (a blocking wait must not occupy one of the
/// Swift concurrency runtime's few threads).
struct ServerThread: @unchecked Sendable {
  // @unchecked Sendable: a pthread handle is an identifier the system lets any thread join;
  // the struct holds nothing else.
  #if canImport(Darwin)
    private let handle: pthread_t?
  #else
    private let handle: pthread_t
  #endif

  private final class Body {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }

  /// Starts a thread running `body`.
  ///
  /// - Returns: The thread, or `nil` with the error when the system cannot start one.
  static func start(_ body: @escaping @Sendable () -> Void) -> Result<ServerThread, SystemCallError>
  {
    // The box is retained here and released by the thread, which is its only user after start.
    let box = Unmanaged.passRetained(Body(body)).toOpaque()
    #if canImport(Darwin)
      var handle: pthread_t?
    #else
      var handle = pthread_t()
    #endif
    let result = pthread_create(
      &handle, nil,
      { argument in
        Unmanaged<Body>.fromOpaque(unwrap(argument)).takeRetainedValue().run()
        return nil
      }, box)
    guard result == 0 else {
      Unmanaged<Body>.fromOpaque(box).release()
      return .failure(SystemCallError(call: "pthread_create", code: result))
    }
    return .success(ServerThread(handle: handle))
  }

  /// Waits until the thread has finished.
  func join() {
    #if canImport(Darwin)
      if let handle = self.handle { _ = pthread_join(handle, nil) }
    #else
      _ = pthread_join(self.handle, nil)
    #endif
  }

  /// An identifier of the calling thread, comparable with another thread's.
  static func currentID() -> UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }
}

/// The thread's argument, whether the platform declares it optional or not.
private func unwrap(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer {
  pointer!
}

/// A value guarded by a pthread mutex, for the state a server's loop shares with the threads
/// that answer its requests (a pthread mutex rather than `Synchronization.Mutex`, so that
/// ThreadSanitizer sees the locking).
final class ServerLock<Value>: @unchecked Sendable {
  // @unchecked Sendable: `value` is only touched inside `withLock`, between
  // pthread_mutex_lock and pthread_mutex_unlock of `mutex`.
  private var value: Value
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init(_ value: Value) {
    self.value = value
    self.mutex = .allocate(capacity: 1)
    self.mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(self.mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(self.mutex)
    self.mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    pthread_mutex_lock(self.mutex)
    defer { pthread_mutex_unlock(self.mutex) }
    return try body(&self.value)
  }
}
