/// The address of a NATS server: `nats://[user[:password]@]host[:port]`.
///
/// ```swift
/// try NATSServerURL("nats://127.0.0.1:4222")
/// try NATSServerURL("nats://alice:secret@nats.example.com")   // port 4222
/// try NATSServerURL("nats://s3cr3t-token@[::1]:4223")         // a token, IPv6
/// try NATSServerURL("127.0.0.1:4222")                         // as a server's connect_urls list them
/// ```
///
/// `tls://` is refused: this client does not implement TLS.
public struct NATSServerURL: Sendable, Hashable, CustomStringConvertible {
  /// The host name or IP literal (an IPv6 literal without brackets).
  public var host: String
  /// The TCP port (4222 unless given).
  public var port: UInt16
  /// The user, when the URL has `user:password@`.
  public var user: String?
  /// The password, when the URL has `user:password@`.
  public var password: String?
  /// The token, when the URL has `token@` (no colon).
  public var token: String?

  /// The default NATS client port.
  public static let defaultPort: UInt16 = 4222

  /// Parses a server URL.
  ///
  /// - Parameter text: `nats://…`, or `host:port` as INFO's `connect_urls` gives it.
  /// - Throws: ``NATSError`` with code ``NATSError/Code/invalidConfiguration`` naming the problem.
  public init(_ text: String) throws(NATSError) {
    func invalid(_ why: String) -> NATSError {
      NATSError(.invalidConfiguration, "invalid NATS server URL \"\(text)\": \(why)")
    }
    var rest = Substring(text)
    if let schemeEnd = rest.firstRange(of: "://") {
      let scheme = rest[..<schemeEnd.lowerBound].lowercased()
      guard scheme == "nats" else {
        throw invalid(
          scheme == "tls"
            ? "TLS is not supported by this client; use nats:// on a trusted network"
            : "the scheme must be nats://")
      }
      rest = rest[schemeEnd.upperBound...]
    }
    if let slash = rest.firstIndex(of: "/") {
      guard rest[slash...].allSatisfy({ $0 == "/" }) else { throw invalid("a server URL has no path") }
      rest = rest[..<slash]
    }
    if let at = rest.lastIndex(of: "@") {
      let credentials = rest[..<at]
      rest = rest[rest.index(after: at)...]
      if let colon = credentials.firstIndex(of: ":") {
        self.user = String(credentials[..<colon]).removingPercentEncoding()
        self.password = String(credentials[credentials.index(after: colon)...]).removingPercentEncoding()
      } else {
        self.token = String(credentials).removingPercentEncoding()
      }
    }
    var portText: Substring?
    if rest.first == "[" {
      guard let close = rest.firstIndex(of: "]") else { throw invalid("an IPv6 address needs its closing ]") }
      self.host = String(rest[rest.index(after: rest.startIndex)..<close])
      let after = rest[rest.index(after: close)...]
      if !after.isEmpty {
        guard after.first == ":" else { throw invalid("expected :port after the IPv6 address") }
        portText = after.dropFirst()
      }
    } else if let colon = rest.lastIndex(of: ":") {
      self.host = String(rest[..<colon])
      portText = rest[rest.index(after: colon)...]
    } else {
      self.host = String(rest)
    }
    guard !self.host.isEmpty else { throw invalid("the host is missing") }
    if let portText {
      guard let port = UInt16(portText), port > 0 else {
        throw invalid("the port must be a number from 1 to 65535")
      }
      self.port = port
    } else {
      self.port = Self.defaultPort
    }
  }

  /// `nats://host:port`, without credentials (safe to log).
  public var description: String {
    self.host.contains(":") ? "nats://[\(self.host)]:\(self.port)" : "nats://\(self.host):\(self.port)"
  }

  /// Whether two URLs name the same server (host and port; credentials aside).
  func sameServer(as other: NATSServerURL) -> Bool {
    self.host == other.host && self.port == other.port
  }

  /// Parses a comma-separated list, as `--replicate nats://a:4222,nats://b:4222` gives it.
  ///
  /// - Parameter list: One or more URLs separated by commas (spaces around them are ignored).
  /// - Returns: The URLs, in order.
  /// - Throws: ``NATSError`` naming the first invalid URL.
  public static func parseList(_ list: String) throws(NATSError) -> [NATSServerURL] {
    let parts = list.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
    guard !parts.isEmpty else {
      throw NATSError(.invalidConfiguration, "no NATS server URL given (expected nats://host:port[,…])")
    }
    var urls: [NATSServerURL] = []
    for part in parts { urls.append(try NATSServerURL(part)) }
    return urls
  }
}

extension Substring {
  fileprivate func trimmingSpaces() -> String {
    String(self.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}

extension String {
  /// `%XX` sequences decoded (credentials in URLs may hide `@` or `:` that way); the text as is
  /// when a sequence is malformed.
  fileprivate func removingPercentEncoding() -> String {
    guard self.contains("%") else { return self }
    var bytes: [UInt8] = []
    var iterator = Array(self.utf8)[...]
    while let byte = iterator.popFirst() {
      if byte == 0x25, iterator.count >= 2,
        let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
      {
        bytes.append(value)
        iterator = iterator.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
