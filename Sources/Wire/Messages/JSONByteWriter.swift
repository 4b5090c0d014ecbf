/// Writes compact JSON text straight into a byte buffer: the fast path behind
/// ``ClientMessage/encodeFrame(into:)`` and ``HostMessage/encodeFrame(into:)``, which write a
/// message's envelope member by member instead of building a ``JSON`` tree first.
///
/// Member keys are passed with their punctuation, `#","id":"#`, so that each costs one append.
enum JSONByteWriter {
  /// Appends `key` (e.g. `#","id":"#) and the integer, with a single append to `out`.
  static func member(_ key: StaticString, _ value: Int64, into out: inout [UInt8]) {
    let keyLength = key.utf8CodeUnitCount
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: keyLength + 20) { scratch in
      let base = scratch.baseAddress!
      base.initialize(from: key.utf8Start, count: keyLength)
      let digits = Self.formatInteger(
        value, into: UnsafeMutableBufferPointer(rebasing: scratch[keyLength...]))
      out.append(contentsOf: UnsafeBufferPointer(start: base, count: keyLength + digits))
    }
  }

  static func member(_ key: StaticString, _ value: String, into out: inout [UInt8]) {
    Self.append(key, into: &out)
    Self.string(value, into: &out)
  }

  static func member(_ key: StaticString, _ value: Bool, into out: inout [UInt8]) {
    Self.append(key, into: &out)
    Self.append(value ? "true" : "false", into: &out)
  }

  static func member(_ key: StaticString, _ value: JSON, into out: inout [UInt8]) {
    Self.append(key, into: &out)
    Self.value(value, into: &out)
  }

  static func append(_ text: StaticString, into out: inout [UInt8]) {
    text.withUTF8Buffer { out.append(contentsOf: $0) }
  }

  /// Appends the decimal digits of `value`.
  static func integer(_ value: Int64, into out: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
      let count = Self.formatInteger(value, into: scratch)
      out.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<count]))
    }
  }

  /// Writes the decimal form of `value` at the start of `scratch` (20 bytes at least: a sign
  /// and the 19 digits of `Int64.min`); returns the number of bytes written.
  static func formatInteger(_ value: Int64, into scratch: UnsafeMutableBufferPointer<UInt8>) -> Int
  {
    var magnitude = value.magnitude
    var digits = 0
    repeat {
      digits += 1
      magnitude /= 10
    } while magnitude != 0
    let count = digits + (value < 0 ? 1 : 0)
    if value < 0 { scratch[0] = UInt8(ascii: "-") }
    magnitude = value.magnitude
    var index = count
    repeat {
      index -= 1
      scratch[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
      magnitude /= 10
    } while magnitude != 0
    return count
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

  /// Appends any JSON value, compactly, with the module's one serializer (so numbers and
  /// strings are written exactly one way everywhere).
  static func value(_ value: JSON, into out: inout [UInt8]) {
    value.serialize(into: &out)
  }
}

/// Composes a small frame of fixed shape (an `ack`, `ok` or `pong`) on the stack and appends it
/// to the output with a single append — the hottest replies of a busy host.
struct SmallFrameWriter: ~Copyable {
  private let scratch: UnsafeMutableBufferPointer<UInt8>
  private var count = 4  // after the length prefix

  /// The most any caller writes: fragments of at most 32 bytes and two integers.
  static let capacity = 128

  /// Runs `body` with a writer, then appends the frame it composed to `out`.
  static func appendFrame(to out: inout [UInt8], _ body: (inout SmallFrameWriter) -> Void) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.capacity) { scratch in
      var writer = SmallFrameWriter(scratch: scratch)
      body(&writer)
      let length = UInt32(writer.count - 4).bigEndian
      withUnsafeBytes(of: length) { prefix in
        for index in 0..<4 { scratch[index] = prefix[index] }
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<writer.count]))
    }
  }

  private init(scratch: UnsafeMutableBufferPointer<UInt8>) { self.scratch = scratch }

  mutating func put(_ text: StaticString) {
    let length = text.utf8CodeUnitCount
    precondition(self.count + length <= Self.capacity)
    (self.scratch.baseAddress! + self.count).initialize(from: text.utf8Start, count: length)
    self.count += length
  }

  mutating func put(_ value: Int64) {
    precondition(self.count + 20 <= Self.capacity)
    self.count += JSONByteWriter.formatInteger(
      value, into: UnsafeMutableBufferPointer(rebasing: self.scratch[self.count...]))
  }
}
