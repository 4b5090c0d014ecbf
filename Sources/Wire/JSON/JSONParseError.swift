/// Why a byte sequence is not acceptable JSON text, and where.
///
/// ```swift
/// do { _ = try JSON(parsing: "[1, x]") }
/// catch { print(error) }   // unexpected character 'x' at byte 4
/// ```
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The zero-based byte offset of the first byte that could not be accepted (the input's
  /// length when the text ends too early).
  public var offset: Int
  /// A short human-readable reason, such as `unexpected character 'x'`.
  public var reason: String

  /// An error at `offset` for `reason`.
  ///
  /// - Parameters:
  ///   - offset: The zero-based byte offset of the problem.
  ///   - reason: A short human-readable reason.
  public init(offset: Int, reason: String) {
    self.offset = offset
    self.reason = reason
  }

  /// The reason followed by the offset, e.g. `unexpected character 'x' at byte 12`.
  public var description: String { "\(self.reason) at byte \(self.offset)" }
}

extension JSONParseError {
  /// An unexpected byte, shown as a character when printable and as hex otherwise.
  static func unexpected(_ byte: UInt8, at offset: Int, expecting: String? = nil) -> Self {
    let shown: String
    if byte >= 0x21 && byte < 0x7F && byte != UInt8(ascii: "'") {
      shown = "character '\(Character(Unicode.Scalar(byte)))'"
    } else if byte == UInt8(ascii: "'") {
      shown = "character \"'\""
    } else {
      shown = "byte 0x\(hex(byte))"
    }
    if let expecting {
      return Self(offset: offset, reason: "unexpected \(shown), expected \(expecting)")
    }
    return Self(offset: offset, reason: "unexpected \(shown)")
  }

  /// The text ended while `expecting` was still needed.
  static func endOfInput(at offset: Int, expecting: String) -> Self {
    Self(offset: offset, reason: "unexpected end of input, expected \(expecting)")
  }

  /// Two uppercase hex digits.
  static func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
  }
}
