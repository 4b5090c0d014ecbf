#if canImport(Glibc)
  import Glibc
  private let systemConnect = Glibc.connect
  private let systemRead = Glibc.read
#elseif canImport(Darwin)
  import Darwin
  private let systemConnect = Darwin.connect
  private let systemRead = Darwin.read
#endif

/// The few system calls the fuzzer makes on its client sockets: non-blocking Unix-domain
/// stream sockets, written and read as far as they go without waiting.
///
/// The fuzzer drives its sockets itself, with `poll(2)`, rather than through Wire's event
/// loop: the point is to be an independent, badly behaved client of the host.
enum RawSocket {
  enum Outcome {
    case done(Int)
    case wouldBlock
    case closed
  }

  /// Connects a non-blocking socket to `path`; `nil` with `errno` when the host refuses.
  static func connect(path: String) -> Int32? {
    #if canImport(Glibc)
      let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    #else
      let fd = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { return nil }
    #if canImport(Darwin)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      var on: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    #endif
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else {
      close(fd)
      return nil
    }
    // The path is copied into the fixed-size `sun_path` tuple, whose size was checked above.
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        systemConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    // A Unix-domain connect completes at once or fails (EAGAIN: the backlog is full).
    guard result == 0 else {
      let saved = errno
      close(fd)
      errno = saved
      return nil
    }
    return fd
  }

  static func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Outcome {
    let count = bytes.withUnsafeBytes { raw -> Int in
      #if canImport(Glibc)
        send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
      #else
        send(fd, raw.baseAddress, raw.count, 0)
      #endif
    }
    if count >= 0 { return .done(count) }
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .wouldBlock : .closed
  }

  static func read(_ fd: Int32, into buffer: inout [UInt8]) -> Outcome {
    let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
    if count > 0 { return .done(count) }
    if count == 0 { return .closed }
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .wouldBlock : .closed
  }

  /// Stops sending (the host reads end of input) but keeps reading.
  static func shutdownWrite(_ fd: Int32) {
    _ = shutdown(fd, Int32(SHUT_WR))
  }
}
