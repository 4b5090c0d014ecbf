extension JSON {
  /// Appends the compact JSON text of this value (no whitespace) to `buffer`.
  ///
  /// ```swift
  /// var payload: [UInt8] = []
  /// JSON.object(["type": "pong", "id": 3]).serialize(into: &payload)
  /// // {"type":"pong","id":3}
  /// ```
  ///
  /// The output is valid UTF-8 JSON text. Strings escape `"`, `\` and the control characters
  /// U+0000–U+001F (as `\n`, `\t`… or `\u00XX`) and keep everything else as UTF-8. Objects keep
  /// member order. Integers are written exactly; doubles in the shortest form that parses back
  /// to the same `Double`, always with a `.` or an exponent so that they stay doubles
  /// (`5.0`, `0.1`, `-0.0`, `1e+300`, `1.5e-7`).
  ///
  /// > Important: JSON has no infinities or NaN. ``JSONValueEncoder`` refuses them; a
  /// > non-finite ``double(_:)`` built by hand is written as `null`.
  ///
  /// - Parameter buffer: The buffer to append to.
  public func serialize(into buffer: inout [UInt8]) {
    switch self {
    case .null:
      JSONWriter.appendLiteral("null", to: &buffer)
    case .bool(let bool):
      JSONWriter.appendLiteral(bool ? "true" : "false", to: &buffer)
    case .int(let int):
      JSONWriter.appendInteger(int, to: &buffer)
    case .double(let double):
      JSONWriter.appendDouble(double, to: &buffer)
    case .string(let string):
      JSONWriter.appendString(string, to: &buffer)
    case .array(let elements):
      buffer.append(UInt8(ascii: "["))
      var first = true
      for element in elements {
        if !first { buffer.append(UInt8(ascii: ",")) }
        first = false
        element.serialize(into: &buffer)
      }
      buffer.append(UInt8(ascii: "]"))
    case .object(let object):
      buffer.append(UInt8(ascii: "{"))
      var first = true
      for member in object.storage {
        if !first { buffer.append(UInt8(ascii: ",")) }
        first = false
        JSONWriter.appendString(member.key, to: &buffer)
        buffer.append(UInt8(ascii: ":"))
        member.value.serialize(into: &buffer)
      }
      buffer.append(UInt8(ascii: "}"))
    }
  }

  /// The compact JSON text of this value as UTF-8 bytes.
  ///
  /// - Returns: The bytes that ``serialize(into:)`` would append to an empty buffer.
  public func serialized() -> [UInt8] {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(64)
    self.serialize(into: &buffer)
    return buffer
  }

  /// The compact JSON text of this value, e.g. `{"count":3}`.
  public var compactString: String {
    String(decoding: self.serialized(), as: UTF8.self)
  }

  /// Human-readable JSON text: one member or element per line, indented by two spaces, with
  /// `": "` after keys.
  ///
  /// ```swift
  /// print(JSON.object(["count": 3, "tags": ["a"]]).prettyPrinted())
  /// // {
  /// //   "count": 3,
  /// //   "tags": [
  /// //     "a"
  /// //   ]
  /// // }
  /// ```
  ///
  /// - Returns: The text, without a trailing newline.
  public func prettyPrinted() -> String {
    var buffer: [UInt8] = []
    self.serializePretty(into: &buffer, indent: 0)
    return String(decoding: buffer, as: UTF8.self)
  }

  private func serializePretty(into buffer: inout [UInt8], indent: Int) {
    switch self {
    case .array(let elements) where !elements.isEmpty:
      buffer.append(UInt8(ascii: "["))
      for (offset, element) in elements.enumerated() {
        buffer.append(contentsOf: offset == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A])
        JSONWriter.appendIndent(indent + 1, to: &buffer)
        element.serializePretty(into: &buffer, indent: indent + 1)
      }
      buffer.append(0x0A)
      JSONWriter.appendIndent(indent, to: &buffer)
      buffer.append(UInt8(ascii: "]"))
    case .object(let object) where !object.isEmpty:
      buffer.append(UInt8(ascii: "{"))
      for (offset, member) in object.storage.enumerated() {
        buffer.append(contentsOf: offset == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A])
        JSONWriter.appendIndent(indent + 1, to: &buffer)
        JSONWriter.appendString(member.key, to: &buffer)
        buffer.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
        member.value.serializePretty(into: &buffer, indent: indent + 1)
      }
      buffer.append(0x0A)
      JSONWriter.appendIndent(indent, to: &buffer)
      buffer.append(UInt8(ascii: "}"))
    default:
      self.serialize(into: &buffer)
    }
  }
}

/// The byte-level pieces of JSON output.
enum JSONWriter {
  @inline(__always)
  static func appendLiteral(_ literal: StaticString, to buffer: inout [UInt8]) {
    buffer.append(
      contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  static func appendIndent(_ level: Int, to buffer: inout [UInt8]) {
    buffer.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * 2))
  }

  /// "00" through "99", for writing two digits per division.
  private static let digitPairs: [UInt8] = (0..<100).flatMap { pair in
    [UInt8(ascii: "0") + UInt8(pair / 10), UInt8(ascii: "0") + UInt8(pair % 10)]
  }

  /// Appends the decimal digits of `value`.
  static func appendInteger(_ value: Int64, to buffer: inout [UInt8]) {
    if value >= 0 && value < 10 {
      buffer.append(UInt8(ascii: "0") + UInt8(value))
      return
    }
    if value < 0 { buffer.append(UInt8(ascii: "-")) }
    Self.appendDigits(value.magnitude, to: &buffer)
  }

  private static func appendDigits(_ value: UInt64, to buffer: inout [UInt8]) {
    var value = value
    // 20 digits hold UInt64.max; fill from the right.
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &digits) { raw in
      var start = 24
      Self.digitPairs.withUnsafeBufferPointer { pairs in
        while value >= 100 {
          let pair = Int(value % 100) &* 2
          value /= 100
          start &-= 2
          raw[start] = pairs[pair]
          raw[start &+ 1] = pairs[pair &+ 1]
        }
        if value >= 10 {
          let pair = Int(value) &* 2
          start &-= 2
          raw[start] = pairs[pair]
          raw[start &+ 1] = pairs[pair &+ 1]
        } else {
          start &-= 1
          raw[start] = UInt8(ascii: "0") &+ UInt8(value)
        }
      }
      buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[start...]))
    }
  }

  /// Appends the shortest text that parses back to `value`, keeping it recognisably a double.
  static func appendDouble(_ value: Double, to buffer: inout [UInt8]) {
    guard value.isFinite else {
      Self.appendLiteral("null", to: &buffer)
      return
    }
    // Integral values below 1e15 print as "<digits>.0", as `description` does, without
    // building a String.
    if value.magnitude < 1e15 && value == value.rounded(.towardZero) {
      if value.sign == .minus { buffer.append(UInt8(ascii: "-")) }
      Self.appendDigits(UInt64(value.magnitude), to: &buffer)
      buffer.append(contentsOf: [UInt8(ascii: "."), UInt8(ascii: "0")])
      return
    }
    // `description` is the shortest round-tripping form and always JSON-compatible once
    // finite ("0.1", "1e+300", "5e-324"); only drop the exponent's leading zeros ("1.5e-07").
    var text = value.description
    text.withUTF8 { utf8 in
      guard let e = utf8.firstIndex(of: UInt8(ascii: "e")) else {
        buffer.append(contentsOf: utf8)
        return
      }
      var digitsStart = e + 1
      if utf8[digitsStart] == UInt8(ascii: "-") || utf8[digitsStart] == UInt8(ascii: "+") {
        digitsStart += 1
      }
      var firstSignificant = digitsStart
      while firstSignificant < utf8.count - 1 && utf8[firstSignificant] == UInt8(ascii: "0") {
        firstSignificant += 1
      }
      buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[..<digitsStart]))
      buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[firstSignificant...]))
    }
  }

  /// Appends `string` quoted, escaping only what JSON requires.
  static func appendString(_ string: String, to buffer: inout [UInt8]) {
    var string = string
    buffer.append(UInt8(ascii: "\""))
    string.withUTF8 { utf8 in
      guard let base = utf8.baseAddress else { return }
      let count = utf8.count
      var runStart = 0
      var offset = 0
      while true {
        // Skip 8 plain bytes at a time.
        while offset &+ 8 <= count {
          let word = UInt64(
            littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
          let flags = Self.bytesNeedingEscape(word)
          if flags != 0 {
            offset &+= flags.trailingZeroBitCount >> 3
            break
          }
          offset &+= 8
        }
        while offset < count {
          let byte = base[offset]
          if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
          offset &+= 1
        }
        guard offset < count else { break }
        buffer.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: offset - runStart))
        Self.appendEscape(for: base[offset], to: &buffer)
        offset &+= 1
        runStart = offset
      }
      buffer.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart))
    }
    buffer.append(UInt8(ascii: "\""))
  }

  /// High bit set in each byte of `word` that is `"`, `\` or below 0x20 (lowest one exact).
  @inline(__always)
  private static func bytesNeedingEscape(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quotes = word ^ (ones &* 0x22)
    let backslashes = word ^ (ones &* 0x5C)
    let hasQuote = (quotes &- ones) & ~quotes
    let hasBackslash = (backslashes &- ones) & ~backslashes
    let hasControl = (word &- ones &* 0x20) & ~word
    return (hasQuote | hasBackslash | hasControl) & 0x8080_8080_8080_8080
  }

  private static func appendEscape(for byte: UInt8, to buffer: inout [UInt8]) {
    let short: UInt8
    switch byte {
    case UInt8(ascii: "\""): short = UInt8(ascii: "\"")
    case UInt8(ascii: "\\"): short = UInt8(ascii: "\\")
    case 0x08: short = UInt8(ascii: "b")
    case 0x0C: short = UInt8(ascii: "f")
    case 0x0A: short = UInt8(ascii: "n")
    case 0x0D: short = UInt8(ascii: "r")
    case 0x09: short = UInt8(ascii: "t")
    default:
      let hex = Array("0123456789abcdef".utf8)
      buffer.append(contentsOf: [
        UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
        hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
      ])
      return
    }
    buffer.append(contentsOf: [UInt8(ascii: "\\"), short])
  }
}
