#if canImport(Darwin)
  import Darwin

  // The Darwin half of the platform shim: the same names as Platform+Glibc.swift, so that the
  // rest of the module calls `Posix.…` and never needs `#if`.

  /// One entry of a poll(2) set.
  typealias PollDescriptor = pollfd

  /// A thread started by ``Posix/spawnThread(name:_:)``.
  typealias ThreadHandle = pthread_t

  /// Thin wrappers over the system calls the sockets layer uses: `EINTR` is retried inside,
  /// `errno` is captured immediately, `SIGPIPE` is suppressed (`SO_NOSIGPIPE` on every socket).
  enum Posix {
    static let eagain = Darwin.EAGAIN
    static let ewouldblock = Darwin.EWOULDBLOCK
    static let eintr = Darwin.EINTR
    static let einprogress = Darwin.EINPROGRESS
    static let enoent = Darwin.ENOENT
    static let econnrefused = Darwin.ECONNREFUSED
    static let eaddrinuse = Darwin.EADDRINUSE
    static let eacces = Darwin.EACCES
    static let eperm = Darwin.EPERM
    static let epipe = Darwin.EPIPE
    static let econnreset = Darwin.ECONNRESET
    static let econnaborted = Darwin.ECONNABORTED
    static let eproto = Darwin.EPROTO
    static let emfile = Darwin.EMFILE
    static let enfile = Darwin.ENFILE
    static let enobufs = Darwin.ENOBUFS
    static let enomem = Darwin.ENOMEM
    static let enotdir = Darwin.ENOTDIR
    static let enametoolong = Darwin.ENAMETOOLONG

    /// `malloc(3)`: `nil` when out of memory.
    static func allocate(byteCount: Int) -> UnsafeMutableRawPointer? { malloc(byteCount) }

    /// `realloc(3)`, which can move a large block's pages instead of copying them: `nil` when
    /// out of memory (the block is then unchanged).
    static func reallocate(
      _ pointer: UnsafeMutableRawPointer, byteCount: Int
    ) -> UnsafeMutableRawPointer? {
      realloc(pointer, byteCount)
    }

    /// `free(3)` for a block from ``allocate(byteCount:)`` or ``reallocate(_:byteCount:)``.
    static func deallocate(_ pointer: UnsafeMutableRawPointer) { Darwin.free(pointer) }

    static let pollIn = Int16(POLLIN)
    static let pollOut = Int16(POLLOUT)
    static let pollErr = Int16(POLLERR)
    static let pollHup = Int16(POLLHUP)
    static let pollNval = Int16(POLLNVAL)

    /// The longest socket path `sockaddr_un` holds, excluding the terminating NUL (103 here).
    static let maxPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// The result of a non-blocking read or write.
    enum IOResult {
      case done(Int)
      case wouldBlock
      case failed(Int32)
    }

    static var errno: Int32 { Darwin.errno }

    static func errorDescription(_ code: Int32) -> String { String(cString: strerror(code)) }

    static func currentUserID() -> UInt32 { getuid() }

  /// A heap-allocated pthread mutex (ThreadSanitizer understands these; it cannot see the
  /// futex inside `Synchronization.Mutex`, and reports false races through it).
  typealias MutexHandle = UnsafeMutablePointer<pthread_mutex_t>

  static func makeMutex() -> MutexHandle {
    let mutex = MutexHandle.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    let result = pthread_mutex_init(mutex, nil)
    precondition(result == 0, "pthread_mutex_init failed: \(result)")
    return mutex
  }

  static func lock(_ mutex: MutexHandle) { _ = pthread_mutex_lock(mutex) }

  static func unlock(_ mutex: MutexHandle) { _ = pthread_mutex_unlock(mutex) }

  static func destroyMutex(_ mutex: MutexHandle) {
    _ = pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

    // MARK: - Descriptors

    static func close(_ fd: Int32) { _ = Darwin.close(fd) }

    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
      while true {
        let n = Darwin.read(fd, buffer.baseAddress, buffer.count)
        if n >= 0 { return .done(n) }
        let code = Darwin.errno
        if code == EINTR { continue }
        return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
      }
    }

    static func send(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> IOResult {
      while true {
        // SO_NOSIGPIPE (set at creation) turns a vanished peer into EPIPE instead of SIGPIPE.
        let n = Darwin.send(fd, buffer.baseAddress, buffer.count, 0)
        if n >= 0 { return .done(n) }
        let code = Darwin.errno
        if code == EINTR { continue }
        return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
      }
    }

    /// poll(2); returns the number of ready descriptors, or `-errno`. `EINTR` reports 0 ready.
    static func poll(_ descriptors: inout [PollDescriptor], timeoutMilliseconds: Int32) -> Int32 {
      let n = descriptors.withUnsafeMutableBufferPointer {
        Darwin.poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds)
      }
      if n >= 0 { return n }
      let code = Darwin.errno
      return code == EINTR ? 0 : -code
    }

    /// Adds `O_NONBLOCK` and `FD_CLOEXEC` to a descriptor's flags (or-ing, never replacing).
    static func makeNonBlocking(_ fd: Int32) {
      let flags = fcntl(fd, F_GETFL)
      if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
      let fdFlags = fcntl(fd, F_GETFD)
      if fdFlags >= 0 { _ = fcntl(fd, F_SETFD, fdFlags | FD_CLOEXEC) }
    }

    private static func suppressSIGPIPE(_ fd: Int32) {
      var one: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    // MARK: - Wakeup

    /// Creates the loop's wakeup channel: a non-blocking pipe (Darwin has no eventfd).
    static func makeWakeup() -> (read: Int32, write: Int32)? {
      var fds: [Int32] = [-1, -1]
      guard pipe(&fds) == 0 else { return nil }
      Self.makeNonBlocking(fds[0])
      Self.makeNonBlocking(fds[1])
      return (fds[0], fds[1])
    }

    static func signalWakeup(_ fd: Int32) {
      var one: UInt64 = 1
      // EAGAIN means the pipe is full: the loop is already signalled.
      while Darwin.write(fd, &one, 8) < 0 && Darwin.errno == EINTR {}
    }

    static func drainWakeup(_ fd: Int32) {
      var scratch: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
      while true {
        let n = withUnsafeMutableBytes(of: &scratch) { Darwin.read(fd, $0.baseAddress, $0.count) }
        if n > 0 { continue }
        if n < 0 && Darwin.errno == EINTR { continue }
        return
      }
    }

    // MARK: - Unix sockets

    /// A new non-blocking, close-on-exec `AF_UNIX` stream socket, or `-errno`.
    static func makeUnixSocket() -> Int32 {
      let fd = socket(AF_UNIX, SOCK_STREAM, 0)
      guard fd >= 0 else { return -Darwin.errno }
      Self.makeNonBlocking(fd)
      Self.suppressSIGPIPE(fd)
      return fd
    }

    private static func withAddress<R>(
      _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R
    ) -> R {
      var address = sockaddr_un()
      address.sun_family = sa_family_t(AF_UNIX)
      let bytes = Array(path.utf8)
      precondition(bytes.count <= Self.maxPathLength, "socket path checked by the caller")
      withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: bytes)
        raw[bytes.count] = 0
      }
      let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + 1)
      address.sun_len = UInt8(truncatingIfNeeded: length)
      return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
      }
    }

    /// Binds `fd` to `path` so that the socket file has exactly `mode` from the moment it exists.
    ///
    /// Darwin creates the file with `0777 & ~umask` and ignores a socket's own mode, so the
    /// umask is narrowed to `mode` around `bind` (never briefly wider than `mode`); the `chmod`
    /// afterwards only restores bits the umask removed. Returns 0 or an errno.
    static func bindUnix(_ fd: Int32, path: String, mode: UInt32) -> Int32 {
      let previous = umask(mode_t(~mode & 0o777))
      let result = Self.withAddress(path) { Darwin.bind(fd, $0, $1) }
      let code = Darwin.errno
      _ = umask(previous)
      guard result == 0 else { return code }
      guard chmod(path, mode_t(mode)) == 0 else { return Darwin.errno }
      return 0
    }

    static func listen(_ fd: Int32, backlog: Int32) -> Int32 {
      Darwin.listen(fd, backlog) == 0 ? 0 : Darwin.errno
    }

    /// Connects a non-blocking socket; returns 0, or an errno (`EAGAIN`: the listener's backlog
    /// is full; `EINPROGRESS`: completion is signalled by POLLOUT).
    static func connectUnix(_ fd: Int32, path: String) -> Int32 {
      while true {
        let result = Self.withAddress(path) { Darwin.connect(fd, $0, $1) }
        if result == 0 { return 0 }
        let code = Darwin.errno
        if code != EINTR { return code }
      }
    }

    /// The pending error of a socket (`SO_ERROR`), 0 if none.
    static func socketError(_ fd: Int32) -> Int32 {
      var code: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return Darwin.errno }
      return code
    }

    enum AcceptResult {
      case accepted(Int32)
      case wouldBlock
      case failed(Int32)
    }

    /// Accepts one connection as a non-blocking, close-on-exec descriptor.
    static func accept(_ fd: Int32) -> AcceptResult {
      while true {
        let client = Darwin.accept(fd, nil, nil)
        if client >= 0 {
          Self.makeNonBlocking(client)
          Self.suppressSIGPIPE(client)
          return .accepted(client)
        }
        let code = Darwin.errno
        if code == EINTR { continue }
        return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
      }
    }

    /// The credentials of the process at the other end, via `getpeereid` and `LOCAL_PEERPID`.
    static func peerCredentials(_ fd: Int32) -> PeerCredentials? {
      var uid: uid_t = 0
      var gid: gid_t = 0
      guard getpeereid(fd, &uid, &gid) == 0 else { return nil }
      var pid: pid_t = 0
      var length = socklen_t(MemoryLayout<pid_t>.size)
      let hasPID = getsockopt(fd, SOL_LOCAL, LOCAL_PEERPID, &pid, &length) == 0
      return PeerCredentials(pid: hasPID ? pid : nil, uid: uid, gid: gid)
    }

    // MARK: - Files

    /// Identifies the file at `path` without following links: device, inode, is-a-socket.
    static func fileIdentity(_ path: String) -> (device: UInt64, inode: UInt64, isSocket: Bool)? {
      var info = stat()
      guard lstat(path, &info) == 0 else { return nil }
      // dev_t is a signed 32-bit integer on Darwin.
      let device = UInt64(UInt32(bitPattern: info.st_dev))
      return (device, UInt64(info.st_ino), (info.st_mode & S_IFMT) == S_IFSOCK)
    }

    /// The permission bits of the file at `path`.
    static func fileMode(_ path: String) -> UInt32? {
      var info = stat()
      guard lstat(path, &info) == 0 else { return nil }
      return UInt32(info.st_mode) & 0o7777
    }

    static func unlink(_ path: String) -> Int32 { Darwin.unlink(path) == 0 ? 0 : Darwin.errno }

    // MARK: - Threads

    private final class ThreadBody {
      let name: String
      let body: () -> Void
      init(name: String, body: @escaping () -> Void) {
        self.name = name
        self.body = body
      }
    }

    /// Starts a named thread running `body`.
    static func spawnThread(name: String, _ body: @escaping @Sendable () -> Void) -> ThreadHandle {
      let box = Unmanaged.passRetained(ThreadBody(name: name, body: body)).toOpaque()
      var thread: pthread_t?
      let result = pthread_create(
        &thread, nil,
        { argument in
          let box = Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue()
          _ = pthread_setname_np(box.name)
          box.body()
          return nil
        }, box)
      precondition(result == 0, "pthread_create failed: \(Self.errorDescription(result))")
      return thread!
    }

    static func joinThread(_ thread: ThreadHandle) { _ = pthread_join(thread, nil) }

    /// An identifier of the calling thread, comparable with another thread's.
    static func currentThreadID() -> UInt { UInt(bitPattern: pthread_self()) }
  }
#endif
