// Scalars: numbers, and the literals `true`, `false` and `null`.

extension JSONParser {
  // MARK: - Literals

  /// `"true"`, `"fals"` and `"null"` as little-endian words.
  static var trueWord: UInt32 { 0x6575_7274 }
  static var falsWord: UInt32 { 0x736C_6166 }
  static var nullWord: UInt32 { 0x6C6C_756E }

  /// Whether the 4 bytes at `base[offset]` (which must lie before `end`) are `word`, little
  /// endian. Static: as a method it would get a copy of the whole parser.
  @inline(__always)
  static func hasWord(
    _ word: UInt32, _ base: UnsafePointer<UInt8>, at offset: Int, end: Int
  ) -> Bool {
    offset &+ 4 <= end
      && UInt32(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt32.self))
        == word
  }

  mutating func parseLiteral(_ literal: StaticString) throws(JSONParseError) {
    let length = literal.utf8CodeUnitCount
    let expected = literal.utf8Start
    for offset in 0..<length {
      let at = self.position + offset
      guard at < self.end else { throw .endOfInput(at: self.end, expecting: "'\(literal)'") }
      guard self.byte(at) == expected[offset] else {
        throw .unexpected(self.byte(at), at: at, expecting: "'\(literal)'")
      }
    }
    self.position += length
  }

  // MARK: - Numbers

  private static let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// Parses `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
  mutating func parseNumber() throws(JSONParseError) -> JSON {
    let start = self.position
    let negative = self.byte(self.position) == UInt8(ascii: "-")
    if negative { self.position += 1 }

    // Significand digits accumulate while they fit; `dropped` counts integer digits beyond that.
    var significand: UInt64 = 0
    var digitCount = 0
    var exact = true
    var decimalExponent = 0

    guard self.position < self.end else { throw .endOfInput(at: self.end, expecting: "a digit") }
    let first = self.byte(self.position)
    if first == UInt8(ascii: "0") {
      self.position += 1
    } else if first >= UInt8(ascii: "1") && first <= UInt8(ascii: "9") {
      while self.position < self.end {
        let digit = self.byte(self.position) &- UInt8(ascii: "0")
        if digit > 9 { break }
        if digitCount < 19 {
          significand = significand &* 10 &+ UInt64(digit)
          digitCount += 1
        } else {
          exact = false
          decimalExponent += 1
        }
        self.position += 1
      }
    } else {
      throw .unexpected(first, at: self.position, expecting: "a digit")
    }

    var isInteger = true
    if self.position < self.end && self.byte(self.position) == UInt8(ascii: ".") {
      isInteger = false
      self.position += 1
      let fractionStart = self.position
      while self.position < self.end {
        let digit = self.byte(self.position) &- UInt8(ascii: "0")
        if digit > 9 { break }
        if digitCount < 19 {
          // Below 10^19, so no overflow. A digit counts once the significand is nonzero (the
          // leading zeros of `0.001` do not), branch-free.
          significand = significand &* 10 &+ UInt64(digit)
          digitCount &+= significand != 0 ? 1 : 0
          // Bounded by the input's length.
          decimalExponent &-= 1
        } else if digit != 0 {
          exact = false
        }
        self.position += 1
      }
      guard self.position > fractionStart else {
        throw self.unexpected(expecting: "a digit after '.'")
      }
    }

    if self.position < self.end
      && (self.byte(self.position) | 0x20) == UInt8(ascii: "e")
    {
      isInteger = false
      self.position += 1
      var exponentNegative = false
      if self.position < self.end {
        let sign = self.byte(self.position)
        if sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
          exponentNegative = sign == UInt8(ascii: "-")
          self.position += 1
        }
      }
      let exponentStart = self.position
      var exponent = 0
      while self.position < self.end {
        let digit = self.byte(self.position) &- UInt8(ascii: "0")
        if digit > 9 { break }
        // Beyond this the value is 0 or infinite anyway; stop growing to avoid overflow.
        if exponent < 100_000_000 { exponent = exponent * 10 + Int(digit) }
        self.position += 1
      }
      guard self.position > exponentStart else {
        throw self.unexpected(expecting: "a digit in the exponent")
      }
      decimalExponent += exponentNegative ? -exponent : exponent
    }

    if isInteger && exact {
      if !negative {
        if significand <= UInt64(Int64.max) { return .int(Int64(significand)) }
      } else if significand <= UInt64(Int64.max) {
        return .int(-Int64(significand))
      } else if significand == UInt64(Int64.max) + 1 {
        return .int(Int64.min)
      }
    }

    // Clinger's fast path: both operands are exact doubles, so one IEEE operation rounds
    // correctly.
    if exact && significand <= (1 << 53) && decimalExponent >= -22 && decimalExponent <= 22 {
      var double = Double(significand)
      if decimalExponent < 0 {
        double /= Self.exactPowersOfTen[-decimalExponent]
      } else {
        double *= Self.exactPowersOfTen[decimalExponent]
      }
      return .double(negative ? -double : double)
    }
    if exact && significand > (1 << 53) && decimalExponent >= -19 && decimalExponent < 0 {
      let double = LongDecimal.quotient(significand, dividedByPowerOfTenTo: -decimalExponent)
      return .double(negative ? -double : double)
    }
    return try self.parseDoubleSlowly(from: start)
  }

  /// Converts already-validated number text with the standard library's correctly rounded
  /// conversion.
  private func parseDoubleSlowly(from start: Int) throws(JSONParseError) -> JSON {
    let text = String(
      decoding: UnsafeBufferPointer(start: self.base + start, count: self.position - start),
      as: UTF8.self)
    guard let double = Double(text), double.isFinite else {
      throw JSONParseError(offset: start, reason: "number out of range")
    }
    return .double(double)
  }
}
