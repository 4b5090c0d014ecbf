/// The address of a TCP service: an IPv4 or IPv6 socket address, resolved from a host and a
/// port.
///
/// ```swift
/// // A literal never blocks: safe on an event loop's thread.
/// let local = try TCPAddress.resolve(host: "127.0.0.1", port: 4222, numericOnly: true)
/// // A name may query DNS: resolve it off the loop, then connect on it.
/// let remote = try TCPAddress.resolve(host: "nats.example.com", port: 4222)
/// ```
public struct TCPAddress: Sendable, Hashable, CustomStringConvertible {
  /// The socket address (`sockaddr_in` or `sockaddr_in6`), as the resolver returned it.
  let bytes: [UInt8]
  /// `AF_INET` or `AF_INET6`.
  let family: Int32

  /// The numeric host, e.g. `127.0.0.1` or `::1`.
  public let host: String
  /// The port.
  public let port: UInt16

  /// Whether this is an IPv6 address.
  public var isIPv6: Bool { self.family == Posix.addressFamilyIPv6 }

  /// `host:port`, with an IPv6 host in brackets: `[::1]:4222`.
  public var description: String {
    self.isIPv6 ? "[\(self.host)]:\(self.port)" : "\(self.host):\(self.port)"
  }

  /// The addresses of `host` at `port`, in the resolver's order (IPv4 and IPv6).
  ///
  /// - Parameters:
  ///   - host: A name, or an IPv4 or IPv6 literal (without brackets).
  ///   - port: The TCP port.
  ///   - numericOnly: Accept only a literal and never query DNS, so that the call cannot block
  ///     (what code on an event loop's thread must use). Without it, a name may take as long
  ///     as the resolver does.
  /// - Returns: At least one address.
  /// - Throws: ``SocketError`` with code ``SocketError/Code/noSuchFile`` when the name does not
  ///   resolve (or is not a literal under `numericOnly`), naming the host and the resolver's
  ///   reason.
  public static func resolve(
    host: String, port: UInt16, numericOnly: Bool = false
  ) throws(SocketError) -> [TCPAddress] {
    switch Posix.resolveTCP(host: host, port: port, numericOnly: numericOnly) {
    case .addresses(let list):
      return list.map { address in
        TCPAddress(
          bytes: address.bytes, family: address.family,
          host: Posix.numericHost(family: address.family, bytes: address.bytes), port: port)
      }
    case .failed(let reason):
      throw SocketError(
        code: .noSuchFile,
        operation: "resolve (\(numericOnly ? "not an IP address" : "no address found"): \(reason))",
        path: "\(host):\(port)")
    }
  }
}
