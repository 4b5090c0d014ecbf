// Darwin first: Tests/DarwinStandIn type-checks the Darwin half on Linux, where Glibc exists too.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

// HTTPServing's only contact with the C library (with ServerThread.swift): TCP on an IPv4
// address, poll(2), a wakeup pipe and the monotonic clock. The few differences between Linux
// and Darwin are marked where they occur; the rest of the module never needs `#if`.

/// One entry of a poll(2) set.
typealias PollDescriptor = pollfd

/// Thin wrappers over the system calls the server uses: `EINTR` is retried inside, `errno` is
/// captured at once, `SIGPIPE` is never raised.
enum SocketSystem {
  /// What a read or a send did.
  enum IOResult: Equatable {
    /// This many bytes (0 from a read: the peer finished sending).
    case done(Int)
    /// Nothing now; wait for readiness.
    case wouldBlock
    /// Failed with this `errno`.
    case failed(Int32)
  }

  static let pollIn = Int16(POLLIN)
  static let pollOut = Int16(POLLOUT)
  static let pollErrorOrHangUp = Int16(POLLERR | POLLHUP | POLLNVAL)
  /// `EADDRINUSE`: another socket has the address and port.
  static let addressInUse = EADDRINUSE

  /// The calling thread's last `errno`.
  static var lastError: Int32 { errno }

  static func errorDescription(_ code: Int32) -> String { String(cString: strerror(code)) }

  // MARK: - Listening

  /// Opens a non-blocking TCP listener on an IPv4 address (network order bytes `a.b.c.d`).
  ///
  /// - Returns: The descriptor and the port it got (the one asked for, or a free one for 0),
  ///   or the `errno` and the call that failed.
  static func listen(
    address: (UInt8, UInt8, UInt8, UInt8), port: UInt16, backlog: Int32
  ) -> Result<(fd: Int32, port: UInt16), SystemCallError> {
    #if canImport(Darwin)
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #else
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    guard fd >= 0 else { return .failure(SystemCallError(call: "socket", code: errno)) }
    Self.configure(fd)
    var one: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var socketAddress = sockaddr_in()
    #if canImport(Darwin)
      socketAddress.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    socketAddress.sin_family = sa_family_t(AF_INET)
    socketAddress.sin_port = port.bigEndian
    withUnsafeMutableBytes(of: &socketAddress.sin_addr) { bytes in
      bytes[0] = address.0
      bytes[1] = address.1
      bytes[2] = address.2
      bytes[3] = address.3
    }
    let bound = withUnsafePointer(to: &socketAddress) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, systemListen(fd, backlog) == 0 else {
      let error = SystemCallError(call: bound == 0 ? "listen" : "bind", code: errno)
      Self.close(fd)
      return .failure(error)
    }
    var actual = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard named == 0 else {
      let error = SystemCallError(call: "getsockname", code: errno)
      Self.close(fd)
      return .failure(error)
    }
    return .success((fd, UInt16(bigEndian: actual.sin_port)))
  }

  /// What accepting did.
  enum AcceptResult: Equatable {
    case accepted(Int32)
    case wouldBlock
    case failed(Int32)
  }

  /// Accepts one connection as a non-blocking, close-on-exec descriptor without Nagle's delay.
  static func accept(_ fd: Int32) -> AcceptResult {
    while true {
      let client = systemAccept(fd)
      if client >= 0 {
        Self.configure(client)
        var one: Int32 = 1
        _ = setsockopt(
          client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return .accepted(client)
      }
      let code = errno
      if code == EINTR || code == ECONNABORTED { continue }
      return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
    }
  }

  /// Makes a descriptor non-blocking and close-on-exec (or-ing the flags, never replacing
  /// them); on Darwin, a socket also stops raising `SIGPIPE`.
  private static func configure(_ fd: Int32) {
    let flags = fcntl(fd, F_GETFL)
    if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    let descriptorFlags = fcntl(fd, F_GETFD)
    if descriptorFlags >= 0 { _ = fcntl(fd, F_SETFD, descriptorFlags | FD_CLOEXEC) }
    #if canImport(Darwin)
      var one: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  // MARK: - Reading and writing

  static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
    while true {
      let n = recv(fd, buffer.baseAddress, buffer.count, 0)
      if n >= 0 { return .done(n) }
      let code = errno
      if code == EINTR { continue }
      return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
    }
  }

  static func send(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> IOResult {
    while true {
      let n = systemSend(fd, buffer)
      if n >= 0 { return .done(n) }
      let code = errno
      if code == EINTR { continue }
      return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
    }
  }

  /// Ends our sending half: the peer reads end of file once it has read what was sent.
  static func shutdownWrite(_ fd: Int32) {
    _ = shutdown(fd, Int32(SHUT_WR))
  }

  static func close(_ fd: Int32) {
    _ = systemClose(fd)
  }

  /// poll(2) over `descriptors`; `EINTR` reports nothing ready.
  static func poll(_ descriptors: inout [PollDescriptor], timeoutMilliseconds: Int32) {
    _ = descriptors.withUnsafeMutableBufferPointer {
      systemPoll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds)
    }
  }

  // MARK: - Wakeup

  /// A non-blocking pipe whose read end wakes the server's poll when another thread writes.
  static func makeWakeupPipe() -> (read: Int32, write: Int32)? {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return nil }
    for fd in fds { Self.configure(fd) }
    return (fds[0], fds[1])
  }

  static func signal(_ fd: Int32) {
    var byte: UInt8 = 1
    // EAGAIN means the pipe is full: the reader is woken already.
    while write(fd, &byte, 1) < 0 && errno == EINTR {}
  }

  static func drain(_ fd: Int32) {
    var scratch = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
    while true {
      let n = withUnsafeMutableBytes(of: &scratch) { systemRead(fd, $0) }
      if n > 0 || (n < 0 && errno == EINTR) { continue }
      return
    }
  }

  // MARK: - Time

  /// Nanoseconds on the monotonic clock.
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }
}

/// A system call that failed, with its `errno`.
struct SystemCallError: Error, Equatable {
  var call: String
  var code: Int32
}

// The C library's functions whose names `SocketSystem`'s own members shadow inside it.

private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
  listen(fd, backlog)
}

private func systemAccept(_ fd: Int32) -> Int32 {
  accept(fd, nil, nil)
}

private func systemSend(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
  #if canImport(Darwin)
    send(fd, buffer.baseAddress, buffer.count, 0)  // SO_NOSIGPIPE is set on every socket.
  #else
    // MSG_NOSIGNAL: a vanished peer gives EPIPE instead of killing the process.
    send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
  #endif
}

private func systemClose(_ fd: Int32) -> Int32 {
  close(fd)
}

private func systemPoll(_ fds: UnsafeMutablePointer<pollfd>?, _ count: nfds_t, _ timeout: Int32)
  -> Int32
{
  poll(fds, count, timeout)
}

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
  read(fd, buffer.baseAddress, buffer.count)
}
