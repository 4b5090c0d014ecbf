/// An RFC 6901 JSON Pointer: a path of reference tokens from the root of a JSON document.
///
/// The empty pointer `""` names the whole document; `"/todos/0/title"` names the `title` of the
/// first element of `todos`. In the text form `~` is written `~0` and `/` is written `~1`;
/// ``tokens`` hold the unescaped member names and array indices.
///
/// ```swift
/// let pointer = try JSONPointer("/a~1b/m~0n")
/// pointer.tokens       // ["a/b", "m~n"]
/// pointer.description  // "/a~1b/m~0n"
/// ```
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
  /// The unescaped reference tokens, outermost first; empty for the whole document.
  public var tokens: [String]

  /// The pointer to the whole document, `""`.
  public static let root = JSONPointer(tokens: [])

  /// Creates a pointer from unescaped reference tokens.
  ///
  /// - Parameter tokens: Member names and array indices (`"0"`, or `"-"` for the end of an
  ///   array), outermost first, without `~0`/`~1` escapes.
  public init(tokens: [String]) {
    self.tokens = tokens
  }

  /// Parses the text form of a pointer.
  ///
  /// - Parameter string: `""`, or `/` followed by tokens separated by `/`, with `~` escaped as
  ///   `~0` and `/` as `~1`.
  /// - Throws: ``JSONPatchError/Kind/malformedPointer(_:)`` if the text does not start with `/`
  ///   or has a `~` not followed by `0` or `1`.
  public init(_ string: String) throws(JSONPatchError) {
    var tokens: [String] = []
    var utf8 = string.utf8[...]
    guard let first = utf8.popFirst() else {
      self.tokens = []
      return
    }
    guard first == UInt8(ascii: "/") else { throw JSONPatchError(.malformedPointer(string)) }
    while true {
      let end = utf8.firstIndex(of: UInt8(ascii: "/")) ?? utf8.endIndex
      guard let token = Self.unescape(utf8[..<end]) else {
        throw JSONPatchError(.malformedPointer(string))
      }
      tokens.append(token)
      guard end < utf8.endIndex else { break }
      utf8 = utf8[utf8.index(after: end)...]
    }
    self.tokens = tokens
  }

  /// The text form, with `~` written as `~0` and `/` as `~1`.
  public var description: String {
    var result = ""
    for token in self.tokens {
      result += "/"
      if token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) {
        // `~` first, so that the `~` introduced by `~1` is not escaped again.
        result += token.replacing("~", with: "~0").replacing("/", with: "~1")
      } else {
        result += token
      }
    }
    return result
  }

  /// Whether this pointer names the whole document.
  public var isRoot: Bool { self.tokens.isEmpty }

  /// The pointer to the container of the value this pointer names, or `nil` for the root.
  public var parent: JSONPointer? {
    self.tokens.isEmpty ? nil : JSONPointer(tokens: Array(self.tokens.dropLast()))
  }

  /// This pointer extended by one member name or array index token.
  ///
  /// - Parameter token: An unescaped token.
  /// - Returns: A pointer naming `token` inside the value this pointer names.
  public func appending(_ token: String) -> JSONPointer {
    JSONPointer(tokens: self.tokens + [token])
  }

  /// This pointer extended by an array index.
  ///
  /// - Parameter index: A non-negative array index.
  /// - Returns: A pointer naming element `index` of the array this pointer names.
  public func appending(index: Int) -> JSONPointer {
    self.appending(String(index))
  }

  /// The value this pointer names in `document`.
  ///
  /// - Parameter document: The document to look into.
  /// - Returns: The value at this location.
  /// - Throws: A ``JSONPatchError`` if some token names no member or element.
  public func evaluate(in document: JSON) throws(JSONPatchError) -> JSON {
    try document.value(atPointerTokens: self.tokens)
  }

  /// Whether `other` names a value strictly inside the one this pointer names.
  func isProperPrefix(of other: JSONPointer) -> Bool {
    self.tokens.count < other.tokens.count && other.tokens.starts(with: self.tokens)
  }

  /// Decodes one escaped token, or returns `nil` for a `~` not followed by `0` or `1`.
  private static func unescape(_ bytes: Substring.UTF8View) -> String? {
    guard bytes.contains(UInt8(ascii: "~")) else { return String(Substring(bytes)) }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var iterator = bytes.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "~") else {
        result.append(byte)
        continue
      }
      switch iterator.next() {
      case UInt8(ascii: "0"): result.append(UInt8(ascii: "~"))
      case UInt8(ascii: "1"): result.append(UInt8(ascii: "/"))
      default: return nil
      }
    }
    return String(decoding: result, as: UTF8.self)
  }

  /// The array index a token denotes, or `nil` if it is not `0` or digits without a leading
  /// zero (RFC 6901 §4), or does not fit in `Int`.
  static func arrayIndex(_ token: String) -> Int? {
    let utf8 = token.utf8
    guard let first = utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
      return nil
    }
    if first == UInt8(ascii: "0") { return utf8.count == 1 ? 0 : nil }
    var value = 0
    for byte in utf8 {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
      guard !overflow1, !overflow2 else { return nil }
      value = sum
    }
    return value
  }
}
