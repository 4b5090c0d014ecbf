// The child process of a transport (`ssh`): a socket pair for its standard input and output,
// a pipe for its standard error, spawning, reaping, and the thread that waits for it.
#if canImport(Glibc)
  import CSystemLinux
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Platform {
  /// A connected pair of `AF_UNIX` stream sockets, both close-on-exec, or the errno.
  static func makeSocketPair() -> Result<(Int32, Int32), PlatformError> {
    var ends: [Int32] = [-1, -1]
    #if canImport(Glibc)
      let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    #else
      let type = SOCK_STREAM
    #endif
    guard socketpair(AF_UNIX, type, 0, &ends) == 0 else { return .failure(PlatformError(errno)) }
    #if !canImport(Glibc)
      for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    #endif
    return .success((ends[0], ends[1]))
  }

  /// A pipe whose ends are both close-on-exec, and whose read end is non-blocking.
  static func makePipe() -> Result<(read: Int32, write: Int32), PlatformError> {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return .failure(PlatformError(errno)) }
    for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
    return .success((ends[0], ends[1]))
  }

  /// Closes a descriptor.
  static func close(_ fd: Int32) {
    _ = closeDescriptor(fd)
  }

  /// Starts `arguments[0]` (looked up in `PATH`) with `arguments`, this process's environment,
  /// `stdio` as its standard input and output and `stderr` as its standard error, no other
  /// descriptor of this process, the default action for the signals a terminal sends and
  /// none blocked.
  ///
  /// - Returns: The child's process id, or the errno (`ENOENT`: no such program).
  static func spawn(
    _ arguments: [String], stdio: Int32, stderr: Int32
  ) -> Result<Int32, PlatformError> {
    #if canImport(Glibc)
      var actions = posix_spawn_file_actions_t()
      var attributes = posix_spawnattr_t()
    #else
      var actions: posix_spawn_file_actions_t?
      var attributes: posix_spawnattr_t?
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdio, 0)
    posix_spawn_file_actions_adddup2(&actions, stdio, 1)
    posix_spawn_file_actions_adddup2(&actions, stderr, 2)
    #if canImport(Glibc)
      // Whatever else this process has open (a program's own files and sockets, some without
      // close-on-exec) is not the child's business.
      posix_spawn_file_actions_addclosefrom_np(&actions, 3)
      let closeOthers: Int32 = 0
    #else
      let closeOthers = Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #endif
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT] { sigaddset(&defaults, signal) }
    var noneBlocked = sigset_t()
    sigemptyset(&noneBlocked)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &noneBlocked)
    posix_spawnattr_setflags(
      &attributes, Int16(Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK) | closeOthers))
    // C strings for argv, freed after the spawn (the child has its own copy by then).
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let result = argv.withUnsafeBufferPointer { argv in
      posix_spawnp(&pid, arguments[0], &actions, &attributes, argv.baseAddress!, environ)
    }
    return result == 0 ? .success(pid) : .failure(PlatformError(result))
  }

  /// How a child process ended.
  enum ExitStatus: Equatable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signalled(Int32)

    /// `status 255` or `signal 15`.
    var description: String {
      switch self {
      case .exited(let code): "status \(code)"
      case .signalled(let signal): "signal \(signal)"
      }
    }
  }

  /// Reaps `pid` if it has ended, without waiting; `nil` while it runs.
  static func exitStatus(of pid: Int32) -> ExitStatus? {
    var status: Int32 = 0
    while true {
      let result = waitpid(pid, &status, WNOHANG)
      if result == 0 { return nil }
      if result < 0 {
        if errno == EINTR { continue }
        // Already reaped, or not our child: nothing more will be learnt.
        return .exited(-1)
      }
      // WIFEXITED / WEXITSTATUS / WTERMSIG, written out: the macros do not import.
      let signal = status & 0x7f
      return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }
  }

  /// Sends SIGTERM to `pid`.
  static func terminate(_ pid: Int32) {
    _ = kill(pid, SIGTERM)
  }

  /// Waits until `fd` is readable or `milliseconds` have passed (`EINTR` counts as passed).
  static func waitReadable(_ fd: Int32, milliseconds: Int32) {
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    _ = poll(&descriptor, 1, milliseconds)
  }

  /// Reads what `fd` (non-blocking) holds now: the bytes, and whether its end was reached.
  static func readAvailable(_ fd: Int32) -> (bytes: [UInt8], atEnd: Bool) {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count > 0 {
        bytes += chunk[..<count]
        continue
      }
      if count < 0 && errno == EINTR { continue }
      return (bytes, count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
    }
  }

  /// Seconds on the monotonic clock.
  static func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// Sleeps for `milliseconds`.
  static func sleep(milliseconds: Int) {
    _ = usleep(useconds_t(milliseconds * 1000))
  }

  /// Runs `body` on a new detached thread.
  static func startThread(_ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    #if canImport(Glibc)
      var thread = pthread_t()
    #else
      var thread: pthread_t?
    #endif
    let result = pthread_create(
      &thread, nil,
      { argument in
        // The box was retained for this thread; it takes that reference over.
        let body = Unmanaged<ThreadBody>.fromOpaque(
          (argument as UnsafeMutableRawPointer?).unsafelyUnwrapped
        ).takeRetainedValue()
        body.run()
        return nil
      }, box)
    precondition(result == 0, "pthread_create failed: \(result)")
    #if canImport(Glibc)
      _ = pthread_detach(thread)
    #else
      if let thread { _ = pthread_detach(thread) }
    #endif
  }

  /// What a thread started by ``startThread(_:)`` runs.
  private final class ThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }
}

/// An errno from a call of the transports' platform layer, with the C library's text for it.
struct PlatformError: Error, CustomStringConvertible {
  /// The errno.
  let code: Int32

  init(_ code: Int32) { self.code = code }

  /// Whether it is `ENOENT` (for a spawn: no such program).
  var isNotFound: Bool { self.code == ENOENT }

  /// The C library's description, e.g. `No such file or directory`.
  var description: String { String(cString: strerror(self.code)) }
}

// The C library's `close`, which `Platform.close` shadows inside the extension.
@inline(__always)
private func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }
