// What `storeclient dial-stdio` needs from the C library: a blocking connection to the host's
// socket, and reads and writes on it and on standard input and output, gated by poll(2).
// Darwin first: Tests/DarwinStandIn type-checks the Darwin branch on Linux, where Glibc exists.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

extension Platform {
  /// Standard input's descriptor.
  static let standardInput: Int32 = 0

  /// An errno, with the C library's text for it.
  struct SystemError: Error, Equatable, CustomStringConvertible {
    /// The errno.
    let code: Int32
    /// Whether nothing listens there (`ENOENT`: no file, `ECONNREFUSED`: a stale socket).
    var meansNoListener: Bool { self.code == ENOENT || self.code == ECONNREFUSED }
    /// The C library's description.
    var description: String { String(cString: strerror(self.code)) }
  }

  /// A connected, close-on-exec, non-blocking `AF_UNIX` stream socket to `path` (the connect
  /// itself waits, as a local connect is immediate or refused).
  static func connectUnixSocket(_ path: String) -> Result<Int32, SystemError> {
    var address = sockaddr_un()
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
      return .failure(SystemError(code: ENAMETOOLONG))
    }
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    #if canImport(Darwin)
      let fd = socket(AF_UNIX, SOCK_STREAM, 0)
    #else
      let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    guard fd >= 0 else { return .failure(SystemError(code: errno)) }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    #if canImport(Darwin)
      var one: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    let length = socklen_t(MemoryLayout<sockaddr_un>.size)
    var result: Int32
    repeat {
      result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
      }
    } while result != 0 && errno == EINTR
    guard result == 0 else {
      let code = errno
      _ = close(fd)
      return .failure(SystemError(code: code))
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    return .success(fd)
  }

  /// Makes writing to a reader that has gone away fail with `EPIPE` instead of killing the
  /// process with `SIGPIPE`, so the relay can say what happened.
  static func ignoreBrokenPipes() {
    _ = signal(SIGPIPE, SIG_IGN)
  }

  /// What a read or a write did.
  enum Transfer: Equatable {
    /// This many bytes moved.
    case moved(Int)
    /// Nothing now: try again when poll says so.
    case wouldBlock
    /// End of input (reads only).
    case end
    /// The descriptor failed (`EPIPE`, `ECONNRESET`, …).
    case failed(SystemError)
  }

  /// Reads what is available into `buffer` (after poll said readable, this never waits).
  static func readSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
    while true {
      let count = systemRead(fd, buffer.baseAddress, buffer.count)
      if count > 0 { return .moved(count) }
      if count == 0 { return .end }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: return .wouldBlock
      case let code: return .failed(SystemError(code: code))
      }
    }
  }

  /// Writes as much of `bytes` as `fd` takes now.
  static func writeSome(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Transfer {
    while true {
      let count = systemWrite(fd, bytes.baseAddress, bytes.count)
      if count >= 0 { return .moved(count) }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: return .wouldBlock
      case let code: return .failed(SystemError(code: code))
      }
    }
  }

  /// Says to the socket's peer that nothing more will be written (`shutdown(SHUT_WR)`).
  static func shutdownWriting(_ fd: Int32) {
    _ = shutdown(fd, Int32(SHUT_WR))
  }

  /// Closes a descriptor.
  static func closeDescriptor(_ fd: Int32) {
    _ = systemClose(fd)
  }

  /// Readiness bits for ``waitForReadiness(_:)``.
  static let readable = Int16(POLLIN)
  static let writable = Int16(POLLOUT)
  /// Hang-up and error bits, reported whatever was asked.
  static let hangUp = Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)

  /// Waits until one of `descriptors` (descriptor, wanted events; a negative descriptor is
  /// skipped) is ready; returns each one's reported events, in order.
  static func waitForReadiness(_ descriptors: [(Int32, Int16)]) -> [Int16] {
    var set = descriptors.map { pollfd(fd: $0.0, events: $0.1, revents: 0) }
    while true {
      let result = set.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), -1) }
      if result >= 0 || errno != EINTR { break }
    }
    return set.map(\.revents)
  }
}

// The C library's functions that `Platform` has members of the same name as.

@inline(__always)
private func systemRead(
  _ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int
) -> Int {
  read(fd, buffer, count)
}

@inline(__always)
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(fd, buffer, count)
}

@inline(__always)
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
