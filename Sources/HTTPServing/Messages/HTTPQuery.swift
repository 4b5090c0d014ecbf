/// The decoded name–value pairs of a query string (`a=1&b=two%20words`).
public struct HTTPQuery: Sendable, Hashable {
  /// The pairs, in order; a name without `=` has an empty value.
  public var items: [(name: String, value: String)]

  /// Creates a query from pairs.
  public init(items: [(name: String, value: String)]) {
    self.items = items
  }

  /// Decodes a query string (without the `?`); `nil` for a bad `%` escape or bytes that are not
  /// UTF-8.
  ///
  /// - Parameter raw: The query string.
  public init?(parsing raw: String) {
    var items: [(String, String)] = []
    for part in raw.split(separator: "&", omittingEmptySubsequences: true) {
      let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard let name = Self.decode(pieces[0]),
        let value = pieces.count > 1 ? Self.decode(pieces[1]) : ""
      else { return nil }
      items.append((name, value))
    }
    self.items = items
  }

  /// The value of the first pair named `name`.
  ///
  /// - Parameter name: The name.
  /// - Returns: Its value, or `nil` when the query has no such pair.
  public func first(_ name: String) -> String? {
    self.items.first { $0.name == name }?.value
  }

  /// Whether two queries hold the same pairs in the same order.
  public static func == (lhs: HTTPQuery, rhs: HTTPQuery) -> Bool {
    lhs.items.count == rhs.items.count
      && zip(lhs.items, rhs.items).allSatisfy { $0.name == $1.name && $0.value == $1.value }
  }

  /// Hashes the pairs consistently with `==`.
  public func hash(into hasher: inout Hasher) {
    for item in self.items {
      hasher.combine(item.name)
      hasher.combine(item.value)
    }
  }

  /// Percent-decodes one component, `+` as a space.
  static func decode(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      switch byte {
      case UInt8(ascii: "+"):
        bytes.append(0x20)
      case UInt8(ascii: "%"):
        guard let high = iterator.next().flatMap(ASCII.hexValue),
          let low = iterator.next().flatMap(ASCII.hexValue)
        else { return nil }
        bytes.append(UInt8(high << 4 | low))
      default:
        bytes.append(byte)
      }
    }
    return String(validating: bytes, as: UTF8.self)
  }

  /// Percent-encodes a component for a query: everything but unreserved characters.
  ///
  /// - Parameter text: The text.
  /// - Returns: The encoded text.
  public static func encode(_ text: String) -> String {
    var result = ""
    for byte in text.utf8 {
      switch byte {
      case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        result.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let digits = Array("0123456789ABCDEF".utf8)
        result += "%"
        result.unicodeScalars.append(Unicode.Scalar(digits[Int(byte >> 4)]))
        result.unicodeScalars.append(Unicode.Scalar(digits[Int(byte & 0xF)]))
      }
    }
    return result
  }
}
