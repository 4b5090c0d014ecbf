// Darwin first: Tests/DarwinStandIn type-checks the Darwin half on Linux, where Glibc exists too.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import CSystemLinux  // <sys/socket.h>'s SOCK_STREAM, which the Glibc module leaves out
  import Glibc
#endif

// TCP client sockets (for clients of TCP services such as a NATS server): name resolution,
// non-blocking connect and `TCP_NODELAY`. Written against names both C libraries share; the two
// differences (the type of `SOCK_STREAM`, `sin_len`-style length fields) are marked where they
// occur. Kept apart from Posix.swift so that the Unix-socket layer reads as it did.

extension Posix {
  /// `SOCK_STREAM` as an `Int32` without flags (the resolver's hint; Linux imports the constant
  /// as an enum).
  static var plainStreamType: Int32 {
    #if canImport(Darwin)
      SOCK_STREAM
    #else
      Int32(SOCK_STREAM.rawValue)
    #endif
  }

  static let addressFamilyIPv4 = AF_INET
  static let addressFamilyIPv6 = AF_INET6

  /// The outcome of name resolution: socket addresses (each a copy of a `sockaddr` of the
  /// family's size, with its family), or the resolver's message.
  enum ResolveResult {
    case addresses([(family: Int32, bytes: [UInt8])])
    case failed(String)
  }

  /// `getaddrinfo(3)` for TCP: the addresses of `host` at `port`, in the resolver's order.
  ///
  /// With `numericOnly`, no lookup is made (the call never blocks): `host` must be an IPv4 or
  /// IPv6 literal, and anything else fails. Otherwise the call may block on DNS: make it off an
  /// event loop's thread.
  static func resolveTCP(host: String, port: UInt16, numericOnly: Bool) -> ResolveResult {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Self.plainStreamType
    hints.ai_flags = numericOnly ? AI_NUMERICHOST | AI_NUMERICSERV : AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    let result = getaddrinfo(host, String(port), &hints, &list)
    guard result == 0 else { return .failed(String(cString: gai_strerror(result))) }
    defer { freeaddrinfo(list) }
    var addresses: [(family: Int32, bytes: [UInt8])] = []
    var entry = list
    while let current = entry {
      let info = current.pointee
      if let address = info.ai_addr, info.ai_family == AF_INET || info.ai_family == AF_INET6 {
        // `ai_addr` points at `ai_addrlen` bytes owned by the list, which is freed only when
        // this function returns (the `defer` above): the bytes are copied out before then.
        let bytes = UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen))
        let element = (family: info.ai_family, bytes: Array(bytes))
        if !addresses.contains(where: { $0.bytes == element.bytes }) { addresses.append(element) }
      }
      entry = info.ai_next
    }
    return addresses.isEmpty ? .failed("no IPv4 or IPv6 address") : .addresses(addresses)
  }

  /// The numeric host of a socket address made by ``resolveTCP(host:port:numericOnly:)``.
  static func numericHost(family: Int32, bytes: [UInt8]) -> String {
    var storage = sockaddr_storage()
    withUnsafeMutableBytes(of: &storage) { $0.copyBytes(from: bytes.prefix($0.count)) }
    var text = [CChar](repeating: 0, count: 64)
    // `sockaddr_storage` is large and aligned enough for any socket address, so viewing it as
    // a `sockaddr_in`/`sockaddr_in6` inside the closures is valid; `inet_ntop` writes at most
    // `text.count` bytes (64: more than INET6_ADDRSTRLEN) and NUL-terminates what it writes.
    let written: UnsafePointer<CChar>? = withUnsafePointer(to: &storage) { pointer in
      if family == AF_INET6 {
        return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
          withUnsafePointer(to: address.pointee.sin6_addr) {
            inet_ntop(AF_INET6, $0, &text, socklen_t(text.count))
          }
        }
      }
      return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
        withUnsafePointer(to: address.pointee.sin_addr) {
          inet_ntop(AF_INET, $0, &text, socklen_t(text.count))
        }
      }
    }
    guard written != nil else { return "?" }
    return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  }

  /// A new non-blocking, close-on-exec TCP socket of `family` with `TCP_NODELAY` (small
  /// request/reply messages must not wait for Nagle's algorithm), or `-errno`.
  static func makeTCPSocket(family: Int32) -> Int32 {
    let fd = socket(family, Self.streamSocketType, Int32(IPPROTO_TCP))
    guard fd >= 0 else { return -errno }
    Self.configureNewSocket(fd)
    var one: Int32 = 1
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    return fd
  }

  /// Connects a non-blocking TCP socket to a socket address from ``resolveTCP(host:port:numericOnly:)``;
  /// returns 0, or an errno (`EINPROGRESS`: completion is signalled by POLLOUT).
  static func connectTCP(_ fd: Int32, bytes: [UInt8]) -> Int32 {
    var storage = sockaddr_storage()
    withUnsafeMutableBytes(of: &storage) { $0.copyBytes(from: bytes.prefix($0.count)) }
    // `connect` reads `length` bytes of the storage, through a pointer valid for the closure's
    // duration: never more than the storage holds, whatever `bytes` is (from the resolver, it
    // is a `sockaddr_in` or `sockaddr_in6`, both smaller).
    let length = socklen_t(min(bytes.count, MemoryLayout<sockaddr_storage>.size))
    let result = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, length)
      }
    }
    if result == 0 { return 0 }
    let code = errno
    // POSIX: an interrupted connect is not aborted but completes asynchronously, as a
    // non-blocking one does; calling it again would fail with EALREADY.
    return code == EINTR ? EINPROGRESS : code
  }
}
