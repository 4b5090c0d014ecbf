// Darwin first: Tests/DarwinStandIn type-checks the Darwin half on Linux, where Glibc exists too.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

// The module's one contact with the C library. This file holds the logic, written once against
// names both C libraries share; Posix+Glibc.swift and Posix+Darwin.swift hold only what differs
// (flags, a few calls and their types) under the same names, and Epoll.swift the Linux
// readiness set. The rest of the module calls `Posix.…` and never needs `#if`.

/// One entry of a poll(2) set.
typealias PollDescriptor = pollfd

/// A thread started by ``Posix/spawnThread(name:_:)``.
typealias ThreadHandle = pthread_t

/// Thin wrappers over the system calls the sockets layer uses: `EINTR` is retried inside,
/// `errno` is captured immediately, `SIGPIPE` is suppressed (``sendFlags``, or a socket option
/// set by ``configureNewSocket(_:)``).
enum Posix {
  static let eagain = EAGAIN
  static let ewouldblock = EWOULDBLOCK
  static let eintr = EINTR
  static let einprogress = EINPROGRESS
  static let enoent = ENOENT
  static let econnrefused = ECONNREFUSED
  static let eaddrinuse = EADDRINUSE
  static let eacces = EACCES
  static let eperm = EPERM
  static let epipe = EPIPE
  static let econnreset = ECONNRESET
  static let econnaborted = ECONNABORTED
  static let eproto = EPROTO
  static let emfile = EMFILE
  static let enfile = ENFILE
  static let enobufs = ENOBUFS
  static let enomem = ENOMEM
  static let enotdir = ENOTDIR
  static let enametoolong = ENAMETOOLONG

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
  static func deallocate(_ pointer: UnsafeMutableRawPointer) { free(pointer) }

  static let pollIn = Int16(POLLIN)
  static let pollOut = Int16(POLLOUT)
  static let pollErr = Int16(POLLERR)
  static let pollHup = Int16(POLLHUP)
  static let pollNval = Int16(POLLNVAL)

  /// The longest socket path `sockaddr_un` holds, excluding the terminating NUL (107 on Linux,
  /// 103 on Darwin).
  static let maxPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

  /// The result of a non-blocking read or write.
  enum IOResult {
    case done(Int)
    case wouldBlock
    case failed(Int32)
  }

  static var errno: Int32 { lastError() }

  static func errorDescription(_ code: Int32) -> String { String(cString: strerror(code)) }

  static func currentUserID() -> UInt32 { getuid() }

  // MARK: - Mutexes

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

  static func close(_ fd: Int32) { _ = closeDescriptor(fd) }

  static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
    Self.retryingIO { readDescriptor(fd, buffer.baseAddress, buffer.count) }
  }

  static func send(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> IOResult {
    Self.retryingIO { sendOnSocket(fd, buffer.baseAddress, buffer.count, Self.sendFlags) }
  }

  /// Runs `call` (a read or a write returning a count or -1) again on `EINTR`.
  @inline(__always)
  private static func retryingIO(_ call: () -> Int) -> IOResult {
    while true {
      let n = call()
      if n >= 0 { return .done(n) }
      let code = lastError()
      if code == EINTR { continue }
      return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
    }
  }

  /// poll(2); returns the number of ready descriptors, or `-errno`. `EINTR` reports 0 ready.
  static func poll(_ descriptors: inout [PollDescriptor], timeoutMilliseconds: Int32) -> Int32 {
    let n = descriptors.withUnsafeMutableBufferPointer {
      pollDescriptors($0.baseAddress, nfds_t($0.count), timeoutMilliseconds)
    }
    if n >= 0 { return n }
    let code = lastError()
    return code == EINTR ? 0 : -code
  }

  /// Adds `O_NONBLOCK` and `FD_CLOEXEC` to a descriptor's flags (or-ing, never replacing).
  static func makeNonBlocking(_ fd: Int32) {
    let flags = fcntl(fd, F_GETFL)
    if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    let fdFlags = fcntl(fd, F_GETFD)
    if fdFlags >= 0 { _ = fcntl(fd, F_SETFD, fdFlags | FD_CLOEXEC) }
  }

  // MARK: - Wakeup

  /// Creates the loop's wakeup channel: an eventfd where there is one (one descriptor for both
  /// ends), else a non-blocking pipe.
  static func makeWakeup() -> (read: Int32, write: Int32)? {
    if let fd = Self.makeEventFD() { return (fd, fd) }
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return nil }
    Self.makeNonBlocking(fds[0])
    Self.makeNonBlocking(fds[1])
    return (fds[0], fds[1])
  }

  static func signalWakeup(_ fd: Int32) {
    var one: UInt64 = 1
    // 8 bytes suit an eventfd; a pipe takes them as well. EAGAIN means already signalled (the
    // eventfd's counter or the pipe is full).
    while write(fd, &one, 8) < 0 && lastError() == EINTR {}
  }

  static func drainWakeup(_ fd: Int32) {
    var scratch: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    while true {
      let n = withUnsafeMutableBytes(of: &scratch) { readDescriptor(fd, $0.baseAddress, $0.count) }
      if n > 0 { continue }
      if n < 0 && lastError() == EINTR { continue }
      return
    }
  }

  // MARK: - Unix sockets

  /// A new non-blocking, close-on-exec `AF_UNIX` stream socket, or `-errno`.
  static func makeUnixSocket() -> Int32 {
    let fd = socket(AF_UNIX, Self.streamSocketType, 0)
    guard fd >= 0 else { return -lastError() }
    Self.configureNewSocket(fd)
    return fd
  }

  /// Runs `body` with `path` as a `sockaddr_un` and its length.
  static func withAddress<R>(
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
    Self.setAddressLength(&address, length)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
    }
  }

  static func listen(_ fd: Int32, backlog: Int32) -> Int32 {
    listenOnSocket(fd, backlog) == 0 ? 0 : lastError()
  }

  /// Connects a non-blocking socket; returns 0, or an errno (`EAGAIN`: the listener's backlog
  /// is full; `EINPROGRESS`: completion is signalled by POLLOUT).
  static func connectUnix(_ fd: Int32, path: String) -> Int32 {
    while true {
      let result = Self.withAddress(path) { connect(fd, $0, $1) }
      if result == 0 { return 0 }
      let code = lastError()
      if code != EINTR { return code }
    }
  }

  /// The pending error of a socket (`SO_ERROR`), 0 if none.
  static func socketError(_ fd: Int32) -> Int32 {
    var code: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return lastError() }
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
      let client = Self.acceptNonBlocking(fd)
      if client >= 0 { return .accepted(client) }
      let code = lastError()
      if code == EINTR { continue }
      return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
    }
  }

  /// What the descriptor `fd` is, when it is a socket: whether it is an `AF_UNIX` stream
  /// socket, whether it listens (`SO_ACCEPTCONN`), and the path it is bound to. `nil` when it
  /// is not a socket (or not open).
  static func unixSocketInfo(_ fd: Int32) -> (isUnixStream: Bool, isListening: Bool, path: String?)? {
    var type: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) == 0 else { return nil }
    var listening: Int32 = 0
    length = socklen_t(MemoryLayout<Int32>.size)
    let accepts = getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0 && listening != 0
    var address = sockaddr_un()
    length = socklen_t(MemoryLayout<sockaddr_un>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard named == 0, Int32(address.sun_family) == AF_UNIX else { return (false, accepts, nil) }
    let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
    let count = max(0, min(Int(length) - offset, Self.maxPathLength + 1))
    let path = withUnsafeBytes(of: &address.sun_path) { raw in
      // Up to the terminating NUL, if the kernel wrote one within the length.
      String(decoding: raw.prefix(count).prefix { $0 != 0 }, as: UTF8.self)
    }
    return (type == Self.streamType, accepts, path.isEmpty ? nil : path)
  }

  // MARK: - Files

  /// Identifies the file at `path` without following links: device, inode, is-a-socket.
  static func fileIdentity(_ path: String) -> (device: UInt64, inode: UInt64, isSocket: Bool)? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    // `dev_t` is unsigned on Linux and a signed 32-bit integer on Darwin: either way, only
    // compared with another identity from the same platform.
    let device = UInt64(truncatingIfNeeded: info.st_dev)
    return (device, UInt64(info.st_ino), (info.st_mode & S_IFMT) == S_IFSOCK)
  }

  /// The kind of file at `path`, without following links.
  enum FileKind { case socket, regular, directory, other }

  /// The kind of the file at `path`, or `nil` when there is none.
  static func fileKind(_ path: String) -> FileKind? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    switch info.st_mode & S_IFMT {
    case S_IFSOCK: return .socket
    case S_IFREG: return .regular
    case S_IFDIR: return .directory
    default: return .other
    }
  }

  /// The permission bits of the file at `path`.
  static func fileMode(_ path: String) -> UInt32? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return UInt32(info.st_mode) & 0o7777
  }

  static func unlink(_ path: String) -> Int32 { unlinkFile(path) == 0 ? 0 : lastError() }

  // MARK: - Threads

  /// What a thread started by `spawnThread` runs, passed to it as a retained pointer.
  final class ThreadBody {
    let name: String
    let body: () -> Void
    init(name: String, body: @escaping () -> Void) {
      self.name = name
      self.body = body
    }
  }

  /// The start of every thread `spawnThread` creates: takes over the retained ``ThreadBody``,
  /// names the thread and runs the body.
  static func runThread(_ argument: UnsafeMutableRawPointer) {
    let box = Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue()
    Self.nameCurrentThread(box.name)
    box.body()
  }

  static func joinThread(_ thread: ThreadHandle) { _ = pthread_join(thread, nil) }
}

// The C functions that `Posix` has members of the same name as: called from here, where the
// names refer to the C library's, not to the members.

@inline(__always)
private func lastError() -> Int32 { errno }

@inline(__always)
private func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }

@inline(__always)
private func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(fd, buffer, count)
}

@inline(__always)
private func sendOnSocket(
  _ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32
) -> Int {
  send(fd, buffer, count, flags)
}

@inline(__always)
private func pollDescriptors(
  _ descriptors: UnsafeMutablePointer<pollfd>?, _ count: nfds_t, _ timeout: Int32
) -> Int32 {
  poll(descriptors, count, timeout)
}

@inline(__always)
private func listenOnSocket(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }

@inline(__always)
private func unlinkFile(_ path: String) -> Int32 { unlink(path) }
