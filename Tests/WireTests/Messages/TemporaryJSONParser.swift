// TEMPORARY — remove after merge: the JSON engineer's `JSON(parsing:)` replaces this test-only
// parser. It exists only so that the message tests on the `transport` branch can read back the
// frames that `encodeFrame(into:)` writes. It is strict enough for that and nothing more.

@testable import Wire

enum TemporaryJSONParser {
  struct Failure: Error, CustomStringConvertible {
    var offset: Int
    var description: String { "invalid JSON at byte \(self.offset)" }
  }

  static func parse(_ bytes: some Collection<UInt8>) throws -> JSON {
    var parser = Parser(bytes: Array(bytes))
    let value = try parser.value()
    parser.skipWhitespace()
    guard parser.index == parser.bytes.count else { throw Failure(offset: parser.index) }
    return value
  }

  static func parse(_ string: String) throws -> JSON { try self.parse(Array(string.utf8)) }

  private struct Parser {
    let bytes: [UInt8]
    var index = 0

    mutating func skipWhitespace() {
      while self.index < self.bytes.count,
        [0x20, 0x09, 0x0A, 0x0D].contains(self.bytes[self.index])
      {
        self.index += 1
      }
    }

    mutating func expect(_ literal: String) throws {
      for byte in literal.utf8 {
        guard self.index < self.bytes.count, self.bytes[self.index] == byte else {
          throw Failure(offset: self.index)
        }
        self.index += 1
      }
    }

    mutating func value() throws -> JSON {
      self.skipWhitespace()
      guard self.index < self.bytes.count else { throw Failure(offset: self.index) }
      switch self.bytes[self.index] {
      case UInt8(ascii: "{"):
        self.index += 1
        var object = JSONObject()
        self.skipWhitespace()
        if self.index < self.bytes.count, self.bytes[self.index] == UInt8(ascii: "}") {
          self.index += 1
          return .object(object)
        }
        while true {
          self.skipWhitespace()
          let key = try self.string()
          self.skipWhitespace()
          try self.expect(":")
          object[key] = try self.value()
          self.skipWhitespace()
          if self.index < self.bytes.count, self.bytes[self.index] == UInt8(ascii: ",") {
            self.index += 1
            continue
          }
          try self.expect("}")
          return .object(object)
        }
      case UInt8(ascii: "["):
        self.index += 1
        var array: [JSON] = []
        self.skipWhitespace()
        if self.index < self.bytes.count, self.bytes[self.index] == UInt8(ascii: "]") {
          self.index += 1
          return .array(array)
        }
        while true {
          array.append(try self.value())
          self.skipWhitespace()
          if self.index < self.bytes.count, self.bytes[self.index] == UInt8(ascii: ",") {
            self.index += 1
            continue
          }
          try self.expect("]")
          return .array(array)
        }
      case UInt8(ascii: "\""):
        return .string(try self.string())
      case UInt8(ascii: "t"):
        try self.expect("true")
        return .bool(true)
      case UInt8(ascii: "f"):
        try self.expect("false")
        return .bool(false)
      case UInt8(ascii: "n"):
        try self.expect("null")
        return .null
      default:
        return try self.number()
      }
    }

    mutating func number() throws -> JSON {
      let start = self.index
      var isInteger = true
      while self.index < self.bytes.count {
        let byte = self.bytes[self.index]
        if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") {
        } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
          || byte == UInt8(ascii: "E")
          || byte == UInt8(ascii: "+")
        {
          isInteger = false
        } else {
          break
        }
        self.index += 1
      }
      let text = String(decoding: self.bytes[start..<self.index], as: UTF8.self)
      if isInteger, let integer = Int64(text) { return .int(integer) }
      guard let double = Double(text) else { throw Failure(offset: start) }
      return .double(double)
    }

    mutating func hex4() throws -> UInt32 {
      guard self.index + 4 <= self.bytes.count,
        let value = UInt32(
          String(decoding: self.bytes[self.index..<self.index + 4], as: UTF8.self),
          radix: 16)
      else { throw Failure(offset: self.index) }
      self.index += 4
      return value
    }

    mutating func string() throws -> String {
      try self.expect("\"")
      var scalars = String.UnicodeScalarView()
      var raw: [UInt8] = []
      func flush() {
        scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
        raw.removeAll()
      }
      while self.index < self.bytes.count {
        let byte = self.bytes[self.index]
        self.index += 1
        switch byte {
        case UInt8(ascii: "\""):
          flush()
          return String(scalars)
        case UInt8(ascii: "\\"):
          flush()
          guard self.index < self.bytes.count else { throw Failure(offset: self.index) }
          let escape = self.bytes[self.index]
          self.index += 1
          switch escape {
          case UInt8(ascii: "n"): scalars.append("\n")
          case UInt8(ascii: "r"): scalars.append("\r")
          case UInt8(ascii: "t"): scalars.append("\t")
          case UInt8(ascii: "b"): scalars.append("\u{08}")
          case UInt8(ascii: "f"): scalars.append("\u{0C}")
          case UInt8(ascii: "/"): scalars.append("/")
          case UInt8(ascii: "\\"): scalars.append("\\")
          case UInt8(ascii: "\""): scalars.append("\"")
          case UInt8(ascii: "u"):
            var code = try self.hex4()
            if (0xD800..<0xDC00).contains(code) {
              try self.expect("\\u")
              let low = try self.hex4()
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { throw Failure(offset: self.index) }
            scalars.append(scalar)
          default: throw Failure(offset: self.index)
          }
        case 0..<0x20:
          throw Failure(offset: self.index - 1)
        default:
          raw.append(byte)
        }
      }
      throw Failure(offset: self.index)
    }
  }
}
