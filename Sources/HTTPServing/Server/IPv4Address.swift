/// An IPv4 address such as `127.0.0.1`.
public struct IPv4Address: Sendable, Hashable, CustomStringConvertible {
  /// The four bytes, most significant first.
  public var bytes: (UInt8, UInt8, UInt8, UInt8)

  /// Creates an address from its four bytes.
  public init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
    self.bytes = (a, b, c, d)
  }

  /// Reads dotted-decimal text (`127.0.0.1`); `nil` for anything else (no leading zeros, no
  /// shorthand forms such as `127.1`).
  ///
  /// - Parameter text: The text.
  public init?(_ text: String) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    var values: [UInt8] = []
    for part in parts {
      guard !part.isEmpty, part.count <= 3, part.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
        part == "0" || part.first != "0", let value = UInt8(part)
      else { return nil }
      values.append(value)
    }
    self.bytes = (values[0], values[1], values[2], values[3])
  }

  /// `127.0.0.1`.
  public static let loopback = IPv4Address(127, 0, 0, 1)

  /// Whether the address is on the loopback network (`127.0.0.0/8`): reachable only from this
  /// machine.
  public var isLoopback: Bool { self.bytes.0 == 127 }

  /// Dotted-decimal text.
  public var description: String {
    "\(self.bytes.0).\(self.bytes.1).\(self.bytes.2).\(self.bytes.3)"
  }

  /// Whether two addresses are the same.
  public static func == (lhs: IPv4Address, rhs: IPv4Address) -> Bool {
    lhs.bytes == rhs.bytes
  }

  /// Hashes the four bytes.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.bytes.0)
    hasher.combine(self.bytes.1)
    hasher.combine(self.bytes.2)
    hasher.combine(self.bytes.3)
  }
}
