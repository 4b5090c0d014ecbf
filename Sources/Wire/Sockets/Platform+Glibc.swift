#if canImport(Glibc)
  import Glibc

  // The Linux half of the platform shim. Platform+Darwin.swift exposes exactly the same names, so
  // that the rest of the module calls `Posix.…` and never needs `#if`.

  /// One entry of a poll(2) set.
  typealias PollDescriptor = pollfd

  /// A thread started by ``Posix/spawnThread(name:_:)``.
  typealias ThreadHandle = pthread_t

  /// Thin wrappers over the system calls the sockets layer uses: `EINTR` is retried inside,
  /// `errno` is captured immediately, `SIGPIPE` is suppressed (`MSG_NOSIGNAL`).
  enum Posix {
    static let eagain = Glibc.EAGAIN
    static let ewouldblock = Glibc.EWOULDBLOCK
    static let eintr = Glibc.EINTR
    static let einprogress = Glibc.EINPROGRESS
    static let enoent = Glibc.ENOENT
    static let econnrefused = Glibc.ECONNREFUSED
    static let eaddrinuse = Glibc.EADDRINUSE
    static let eacces = Glibc.EACCES
    static let eperm = Glibc.EPERM
    static let epipe = Glibc.EPIPE
    static let econnreset = Glibc.ECONNRESET
    static let econnaborted = Glibc.ECONNABORTED
    static let eproto = Glibc.EPROTO
    static let emfile = Glibc.EMFILE
    static let enfile = Glibc.ENFILE
    static let enobufs = Glibc.ENOBUFS
    static let enomem = Glibc.ENOMEM
    static let enotdir = Glibc.ENOTDIR
    static let enametoolong = Glibc.ENAMETOOLONG

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
    static func deallocate(_ pointer: UnsafeMutableRawPointer) { Glibc.free(pointer) }

    static let pollIn = Int16(POLLIN)
    static let pollOut = Int16(POLLOUT)
    static let pollErr = Int16(POLLERR)
    static let pollHup = Int16(POLLHUP)
    static let pollNval = Int16(POLLNVAL)

    /// The longest socket path `sockaddr_un` holds, excluding the terminating NUL (107 here).
    static let maxPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// The result of a non-blocking read or write.
    enum IOResult {
      case done(Int)
      case wouldBlock
      case failed(Int32)
    }

    static var errno: Int32 { Glibc.errno }

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

    static func close(_ fd: Int32) { _ = Glibc.close(fd) }

    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
      while true {
        let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
        if n >= 0 { return .done(n) }
        let code = Glibc.errno
        if code == EINTR { continue }
        return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
      }
    }

    static func send(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> IOResult {
      while true {
        // MSG_NOSIGNAL: a peer that has gone away yields EPIPE instead of killing us with SIGPIPE.
        let n = Glibc.send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
        if n >= 0 { return .done(n) }
        let code = Glibc.errno
        if code == EINTR { continue }
        return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
      }
    }

    /// poll(2); returns the number of ready descriptors, or `-errno`. `EINTR` reports 0 ready.
    static func poll(_ descriptors: inout [PollDescriptor], timeoutMilliseconds: Int32) -> Int32 {
      let n = descriptors.withUnsafeMutableBufferPointer {
        Glibc.poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds)
      }
      if n >= 0 { return n }
      let code = Glibc.errno
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

    private typealias EventFDFunction = @convention(c) (UInt32, Int32) -> Int32
    private typealias SetThreadNameFunction =
      @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
    private typealias Accept4Function =
      @convention(c) (
        Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32
      )
      -> Int32

    /// `eventfd`, `accept4` and `pthread_setname_np` are in glibc but not exported by the Glibc module (they need
    /// `_GNU_SOURCE`); looking them up once at run time avoids a C target.
    private static let eventfd: EventFDFunction? = {
      guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "eventfd") else {
        return nil
      }
      return unsafeBitCast(symbol, to: EventFDFunction.self)
    }()

    private static let accept4: Accept4Function? = {
      guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "accept4") else {
        return nil
      }
      return unsafeBitCast(symbol, to: Accept4Function.self)
    }()

    private static let setThreadName: SetThreadNameFunction? = {
      guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "pthread_setname_np")
      else { return nil }
      return unsafeBitCast(symbol, to: SetThreadNameFunction.self)
    }()

    /// Creates the loop's wakeup channel: an eventfd (one descriptor for both ends), else a pipe.
    static func makeWakeup() -> (read: Int32, write: Int32)? {
      if let eventfd {
        let fd = eventfd(0, O_NONBLOCK | O_CLOEXEC)
        if fd >= 0 { return (fd, fd) }
      }
      var fds: [Int32] = [-1, -1]
      guard pipe(&fds) == 0 else { return nil }
      Self.makeNonBlocking(fds[0])
      Self.makeNonBlocking(fds[1])
      return (fds[0], fds[1])
    }

    static func signalWakeup(_ fd: Int32) {
      var one: UInt64 = 1
      // 8 bytes suit an eventfd; a pipe takes them as well. EAGAIN means already signalled.
      while Glibc.write(fd, &one, 8) < 0 && Glibc.errno == EINTR {}
    }

    static func drainWakeup(_ fd: Int32) {
      var scratch: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
      while true {
        let n = withUnsafeMutableBytes(of: &scratch) { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n > 0 { continue }
        if n < 0 && Glibc.errno == EINTR { continue }
        return
      }
    }

    // MARK: - Unix sockets

    /// A new non-blocking, close-on-exec `AF_UNIX` stream socket, or `-errno`.
    static func makeUnixSocket() -> Int32 {
      let type =
        Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        | Int32(SOCK_CLOEXEC.rawValue)
      let fd = socket(AF_UNIX, type, 0)
      return fd >= 0 ? fd : -Glibc.errno
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
      return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
      }
    }

    /// Binds `fd` to `path` so that the socket file has exactly `mode` from the moment it exists.
    ///
    /// Linux creates the file with the socket inode's mode masked by the umask, so `fchmod`
    /// before `bind` makes the mode effective atomically (never briefly wider than `mode`); the
    /// `chmod` afterwards only restores bits the umask removed. Returns 0 or an errno.
    static func bindUnix(_ fd: Int32, path: String, mode: UInt32) -> Int32 {
      guard fchmod(fd, mode_t(mode)) == 0 else { return Glibc.errno }
      let result = Self.withAddress(path) { Glibc.bind(fd, $0, $1) }
      guard result == 0 else { return Glibc.errno }
      guard chmod(path, mode_t(mode)) == 0 else { return Glibc.errno }
      return 0
    }

    static func listen(_ fd: Int32, backlog: Int32) -> Int32 {
      Glibc.listen(fd, backlog) == 0 ? 0 : Glibc.errno
    }

    /// Connects a non-blocking socket; returns 0, or an errno (`EAGAIN`: the listener's backlog
    /// is full; `EINPROGRESS`: completion is signalled by POLLOUT).
    static func connectUnix(_ fd: Int32, path: String) -> Int32 {
      while true {
        let result = Self.withAddress(path) { Glibc.connect(fd, $0, $1) }
        if result == 0 { return 0 }
        let code = Glibc.errno
        if code != EINTR { return code }
      }
    }

    /// The pending error of a socket (`SO_ERROR`), 0 if none.
    static func socketError(_ fd: Int32) -> Int32 {
      var code: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return Glibc.errno }
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
        let client: Int32
        if let accept4 {
          client = accept4(fd, nil, nil, O_NONBLOCK | O_CLOEXEC)
        } else {
          client = Glibc.accept(fd, nil, nil)
          if client >= 0 { Self.makeNonBlocking(client) }
        }
        if client >= 0 { return .accepted(client) }
        let code = Glibc.errno
        if code == EINTR { continue }
        return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
      }
    }

    /// `struct ucred` from `<sys/socket.h>`, which Glibc exports only under `_GNU_SOURCE`.
    private struct UCred {
      var pid: Int32 = 0
      var uid: UInt32 = 0
      var gid: UInt32 = 0
    }

    /// The credentials of the process at the other end, via `SO_PEERCRED`.
    static func peerCredentials(_ fd: Int32) -> PeerCredentials? {
      var credentials = UCred()
      var length = socklen_t(MemoryLayout<UCred>.size)
      guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
        length == socklen_t(MemoryLayout<UCred>.size)
      else { return nil }
      return PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
    }

    // MARK: - Files

    /// Identifies the file at `path` without following links: device, inode, is-a-socket.
    static func fileIdentity(_ path: String) -> (device: UInt64, inode: UInt64, isSocket: Bool)? {
      var info = stat()
      guard lstat(path, &info) == 0 else { return nil }
      return (UInt64(info.st_dev), UInt64(info.st_ino), (info.st_mode & S_IFMT) == S_IFSOCK)
    }

    /// The permission bits of the file at `path`.
    static func fileMode(_ path: String) -> UInt32? {
      var info = stat()
      guard lstat(path, &info) == 0 else { return nil }
      return UInt32(info.st_mode) & 0o7777
    }

    static func unlink(_ path: String) -> Int32 { Glibc.unlink(path) == 0 ? 0 : Glibc.errno }

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
      var thread = pthread_t()
      let result = pthread_create(
        &thread, nil,
        { argument in
          let box = Unmanaged<ThreadBody>.fromOpaque(argument!).takeRetainedValue()
          // Linux limits thread names to 15 bytes.
          let name = String(decoding: box.name.utf8.prefix(15), as: UTF8.self)
          _ = Posix.setThreadName?(pthread_self(), name)
          box.body()
          return nil
        }, box)
      precondition(result == 0, "pthread_create failed: \(Self.errorDescription(result))")
      return thread
    }

    static func joinThread(_ thread: ThreadHandle) { _ = pthread_join(thread, nil) }

    /// An identifier of the calling thread, comparable with another thread's.
    static func currentThreadID() -> UInt { UInt(pthread_self()) }
  }

  // epoll(7), which the Glibc module does not import: declared by symbol name. Every argument
  // is an integer or a pointer, passed the same way by the Swift and C conventions.
  @_silgen_name("epoll_create1") private func c_epoll_create1(_ flags: Int32) -> Int32
  @_silgen_name("epoll_ctl") private func c_epoll_ctl(
    _ epfd: Int32, _ op: Int32, _ fd: Int32, _ event: UnsafeMutableRawPointer?) -> Int32
  @_silgen_name("epoll_wait") private func c_epoll_wait(
    _ epfd: Int32, _ events: UnsafeMutableRawPointer?, _ maxEvents: Int32, _ timeout: Int32) -> Int32

  /// epoll(7): the loop's readiness set on Linux, so that each wait costs what is ready rather
  /// than what is registered (poll(2) walks every descriptor on every call).
  enum Epoll {
    /// `struct epoll_event` is packed on x86-64 (12 bytes, data at offset 4), natural elsewhere.
    #if arch(x86_64)
      static let eventStride = 12
      static let dataOffset = 4
    #else
      static let eventStride = 16
      static let dataOffset = 8
    #endif
    static let add: Int32 = 1
    static let remove: Int32 = 2
    static let modify: Int32 = 3
    /// EPOLLIN, EPOLLOUT, EPOLLERR and EPOLLHUP have poll(2)'s values.
    static let pollBits: UInt32 = 0x1F

    /// A new epoll descriptor (close-on-exec), or `-errno`.
    static func create() -> Int32 {
      let fd = c_epoll_create1(0x80000)  // EPOLL_CLOEXEC
      return fd >= 0 ? fd : -Glibc.errno
    }

    /// Adds, changes or removes `fd` with `events` (poll(2) bits); returns 0 or `errno`.
    static func control(_ epfd: Int32, _ op: Int32, _ fd: Int32, events: Int16) -> Int32 {
      var event = (UInt64(0), UInt64(0))
      return withUnsafeMutableBytes(of: &event) { raw in
        raw.storeBytes(of: UInt32(UInt16(bitPattern: events)), toByteOffset: 0, as: UInt32.self)
        raw.storeBytes(of: UInt32(bitPattern: fd), toByteOffset: dataOffset, as: UInt32.self)
        return c_epoll_ctl(epfd, op, fd, raw.baseAddress) == 0 ? 0 : Glibc.errno
      }
    }

    /// Registers `fd` for `events`, or changes its events when `change` (falling back to the
    /// other operation if the kernel's view differs: a descriptor closed and reused).
    static func register(_ epfd: Int32, _ fd: Int32, events: Int16, change: Bool) -> Int32 {
      let code = control(epfd, change ? modify : add, fd, events: events)
      guard code == (change ? ENOENT : EEXIST) else { return code }
      return control(epfd, change ? add : modify, fd, events: events)
    }

    /// Waits; returns the number of events in `buffer`, or `-errno` (`EINTR` reports 0).
    static func wait(_ epfd: Int32, into buffer: UnsafeMutableRawBufferPointer, timeoutMilliseconds: Int32) -> Int32 {
      let n = c_epoll_wait(epfd, buffer.baseAddress, Int32(buffer.count / eventStride), timeoutMilliseconds)
      if n >= 0 { return n }
      let code = Glibc.errno
      return code == EINTR ? 0 : -code
    }

    /// The descriptor and poll(2) bits of event `index` in `buffer`.
    static func event(_ index: Int, in buffer: UnsafeMutableRawBufferPointer) -> (fd: Int32, events: Int16) {
      let base = index * eventStride
      let bits = buffer.loadUnaligned(fromByteOffset: base, as: UInt32.self)
      let fd = buffer.loadUnaligned(fromByteOffset: base + dataOffset, as: Int32.self)
      return (fd, Int16(truncatingIfNeeded: bits & pollBits))
    }
  }
#endif
