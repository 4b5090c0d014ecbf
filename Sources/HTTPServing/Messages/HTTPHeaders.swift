/// The header fields of a request or response, in the order they were given; names compare
/// without regard to ASCII case (RFC 9110 §5.1).
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers.add("Cache-Control", "no-store")
/// headers["content-type"]   // "application/json"
/// ```
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
  /// The fields, as given.
  public private(set) var fields: [(name: String, value: String)] = []

  /// Creates an empty set of fields.
  public init() {}

  /// Creates fields from a literal, in its order.
  ///
  /// - Parameter elements: The fields.
  public init(dictionaryLiteral elements: (String, String)...) {
    for (name, value) in elements { self.add(name, value) }
  }

  /// The number of fields.
  public var count: Int { self.fields.count }

  /// Appends a field (a name may occur more than once).
  ///
  /// - Parameters:
  ///   - name: The field name.
  ///   - value: The field value.
  public mutating func add(_ name: String, _ value: String) {
    self.fields.append((name, value))
  }

  /// Replaces every field named `name` with one field; removes them when `value` is `nil`.
  ///
  /// - Parameters:
  ///   - name: The field name (any case).
  ///   - value: The new value, or `nil`.
  public mutating func set(_ name: String, _ value: String?) {
    self.fields.removeAll { Self.same($0.name, name) }
    if let value { self.fields.append((name, value)) }
  }

  /// The value of the first field named `name`, or `nil`.
  public subscript(name: String) -> String? {
    self.fields.first { Self.same($0.name, name) }?.value
  }

  /// The values of every field named `name`, in order.
  ///
  /// - Parameter name: The field name (any case).
  /// - Returns: The values.
  public func values(_ name: String) -> [String] {
    self.fields.filter { Self.same($0.name, name) }.map(\.value)
  }

  /// The comma-separated elements of every field named `name`, trimmed and lowercased — for
  /// list fields such as `Connection` and `Transfer-Encoding`.
  ///
  /// - Parameter name: The field name.
  /// - Returns: The elements, empty ones left out.
  public func tokens(_ name: String) -> [String] {
    self.values(name).flatMap { value in
      value.split(separator: ",").map { ASCII.lowercased(ASCII.trimmed($0)) }.filter { !$0.isEmpty }
    }
  }

  /// Iterates over the fields in order.
  public func makeIterator() -> some IteratorProtocol<(name: String, value: String)> {
    self.fields.makeIterator()
  }

  /// Whether two sets hold the same fields in the same order (names compared without case).
  public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
    lhs.fields.count == rhs.fields.count
      && zip(lhs.fields, rhs.fields).allSatisfy {
        Self.same($0.name, $1.name) && $0.value == $1.value
      }
  }

  /// Hashes the fields consistently with `==`.
  public func hash(into hasher: inout Hasher) {
    for field in self.fields {
      hasher.combine(ASCII.lowercased(Substring(field.name)))
      hasher.combine(field.value)
    }
  }

  private static func same(_ a: String, _ b: String) -> Bool {
    a.utf8.count == b.utf8.count
      && zip(a.utf8, b.utf8).allSatisfy { ASCII.lower($0) == ASCII.lower($1) }
  }
}

/// ASCII helpers for the parts of HTTP that are defined on bytes.
enum ASCII {
  static func lower(_ byte: UInt8) -> UInt8 {
    (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
  }

  static func lowercased(_ text: Substring) -> String {
    String(decoding: text.utf8.map(Self.lower), as: UTF8.self)
  }

  /// `text` without leading and trailing spaces and tabs (HTTP's optional whitespace).
  static func trimmed(_ text: Substring) -> Substring {
    var text = text
    while let first = text.utf8.first, first == 0x20 || first == 0x09 { text = text.dropFirst() }
    while let last = text.utf8.last, last == 0x20 || last == 0x09 { text = text.dropLast() }
    return text
  }

  /// Whether `byte` may appear in a token (RFC 9110 §5.6.2): a method or a field name.
  static func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
      UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
      UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
      UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
      return true
    default: return false
    }
  }

  static func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case 0x30...0x39: return Int(byte - 0x30)
    case 0x41...0x46: return Int(byte - 0x41 + 10)
    case 0x61...0x66: return Int(byte - 0x61 + 10)
    default: return nil
    }
  }
}
