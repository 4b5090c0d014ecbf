/// Writes compact JSON text straight into a byte buffer: the fast path behind
/// ``ClientMessage/encodeFrame(into:)`` and ``HostMessage/encodeFrame(into:)``, which write a
/// message's envelope member by member instead of building a ``JSON`` tree first.
enum JSONByteWriter {
  /// Appends `{"type":"<type>"`; `type` is one of the protocol's ASCII message names.
  static func beginObject(type: String, into out: inout [UInt8]) {
    Self.append(#"{"type":""#, into: &out)
    out.append(contentsOf: type.utf8)
    out.append(UInt8(ascii: "\""))
  }

  /// Appends `,"key":` for an ASCII key without escapes.
  static func key(_ key: StaticString, into out: inout [UInt8]) {
    out.append(UInt8(ascii: ","))
    out.append(UInt8(ascii: "\""))
    key.withUTF8Buffer { out.append(contentsOf: $0) }
    out.append(UInt8(ascii: "\""))
    out.append(UInt8(ascii: ":"))
  }

  static func member(_ key: StaticString, _ value: Int64, into out: inout [UInt8]) {
    Self.key(key, into: &out)
    Self.integer(value, into: &out)
  }

  static func member(_ key: StaticString, _ value: String, into out: inout [UInt8]) {
    Self.key(key, into: &out)
    Self.string(value, into: &out)
  }

  static func member(_ key: StaticString, _ value: Bool, into out: inout [UInt8]) {
    Self.key(key, into: &out)
    Self.append(value ? "true" : "false", into: &out)
  }

  static func member(_ key: StaticString, _ value: JSON, into out: inout [UInt8]) {
    Self.key(key, into: &out)
    Self.value(value, into: &out)
  }

  static func append(_ text: StaticString, into out: inout [UInt8]) {
    text.withUTF8Buffer { out.append(contentsOf: $0) }
  }

  /// Appends the decimal digits of `value`.
  static func integer(_ value: Int64, into out: inout [UInt8]) {
    if value >= 0 && value < 10 {
      out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
      return
    }
    // Digits are produced backwards into a 20-byte scratch tuple (Int64.min has 19 digits).
    var magnitude = value.magnitude
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
      var index = 20
      repeat {
        index -= 1
        scratch[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
        magnitude /= 10
      } while magnitude != 0
      if value < 0 { out.append(UInt8(ascii: "-")) }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[index..<20]))
    }
  }

  /// Appends `string` as a JSON string literal, escaping `"`, `\` and control characters.
  static func string(_ string: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { bytes in
      var start = 0
      for index in bytes.indices {
        let byte = bytes[index]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
          continue
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        start = index + 1
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        default:
          let hex: StaticString = "0123456789abcdef"
          Self.append("u00", into: &out)
          out.append(hex.utf8Start[Int(byte >> 4)])
          out.append(hex.utf8Start[Int(byte & 0xF)])
        }
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
    }
    out.append(UInt8(ascii: "\""))
  }

  /// Appends any JSON value, compactly.
  ///
  /// MERGE: once the JSON engineer's serializer is in this module, replace the body with
  /// `value.serialize(into: &out)` so that numbers are written exactly one way everywhere.
  /// It is here only because `JSON.serialize(into:)` is not on this branch yet.
  static func value(_ value: JSON, into out: inout [UInt8]) {
    switch value {
    case .null: Self.append("null", into: &out)
    case .bool(let bool): Self.append(bool ? "true" : "false", into: &out)
    case .int(let integer): Self.integer(integer, into: &out)
    case .double(let double):
      if double.isFinite {
        out.append(contentsOf: double.description.utf8)
      } else {
        Self.append("null", into: &out)  // JSON has no NaN or infinity
      }
    case .string(let string): Self.string(string, into: &out)
    case .array(let array):
      out.append(UInt8(ascii: "["))
      for (index, element) in array.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        Self.value(element, into: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let object):
      out.append(UInt8(ascii: "{"))
      var first = true
      for (key, member) in object {
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        Self.string(key, into: &out)
        out.append(UInt8(ascii: ":"))
        Self.value(member, into: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }
}
