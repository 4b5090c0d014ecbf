// Strings: the short-string fast path, the word-at-a-time scan, escapes and UTF-8 validation.

extension JSONParser {
  /// The common case of ``parseString(isKey:skipping:)`` without its loops: an ASCII string of
  /// at most 15 bytes without escapes, whose closing quote lies within the 16 bytes after the
  /// opening one.
  /// Returns `nil`, without moving, for anything else, with `plain` set to how many bytes after
  /// the opening quote it found free of quotes, backslashes, control and non-ASCII bytes, which
  /// ``parseString(isKey:skipping:)`` then need not scan again.
  @inline(__always)
  mutating func parseShortString(plain: inout Int) -> (
    string: String, fingerprint: UInt64
  )? {
    let start = self.position &+ 1
    guard self.smallStrings, start &+ 16 <= self.end else { return nil }
    let raw = UnsafeRawPointer(self.base + start)
    var low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
    var high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    let lowFlags = Self.specialBytes(low)
    let count: Int
    if lowFlags != 0 {
      count = lowFlags.trailingZeroBitCount &>> 3
      guard self.byte(start &+ count) == Self.quote else {
        plain = count
        return nil
      }
      low &= (1 &<< UInt64(truncatingIfNeeded: count &* 8)) &- 1
      high = 0
    } else {
      let highFlags = Self.specialBytes(high)
      // A quote at byte 16 would make a 16-byte string, too long to be small.
      guard highFlags != 0 else {
        plain = 16
        return nil
      }
      count = 8 &+ highFlags.trailingZeroBitCount &>> 3
      guard self.byte(start &+ count) == Self.quote else {
        plain = count
        return nil
      }
      high &= (1 &<< UInt64(truncatingIfNeeded: (count &- 8) &* 8)) &- 1
    }
    self.position = start &+ count &+ 1
    return (
      SmallString.make(low: low, high: high, count: count), Self.fingerprint(low, high, count)
    )
  }

  /// ``parseString(isKey:skipping:)`` for a value, which needs no fingerprint.
  mutating func parseValueString(skipping plain: Int) throws(JSONParseError) -> String {
    try self.parseString(isKey: false, skipping: plain).string
  }

  /// ``parseString(isKey:skipping:)`` for a key.
  mutating func parseKeyString(skipping plain: Int) throws(JSONParseError) -> (
    string: String, fingerprint: UInt64
  ) {
    try self.parseString(isKey: true, skipping: plain)
  }

  /// Parses a string starting at its opening quote, whose first `plain` bytes are known to be
  /// plain ASCII; returns it with its key fingerprint (0 unless `isKey`: values need none).
  /// Inlined into the two wrappers above, so that each has the flag as a constant.
  @inline(__always)
  private mutating func parseString(isKey: Bool, skipping plain: Int) throws(JSONParseError) -> (
    string: String, fingerprint: UInt64
  ) {
    self.position += 1
    let start = self.position
    self.position += plain
    var sawNonASCII = false
    // Scan 8 bytes at a time for a quote, a backslash, a control character or a non-ASCII byte.
    while self.position &+ 8 <= self.end {
      let word = UInt64(
        littleEndian: UnsafeRawPointer(self.base + self.position).loadUnaligned(as: UInt64.self))
      let flags = Self.specialBytes(word)
      if flags == 0 {
        self.position &+= 8
        continue
      }
      self.position &+= flags.trailingZeroBitCount >> 3
      let byte = self.byte(self.position)
      if byte >= 0x80 {
        sawNonASCII = true
        self.position &+= 1
        continue
      }
      break
    }
    while self.position < self.end {
      let byte = self.byte(self.position)
      if byte == Self.quote {
        let count = self.position - start
        let bytes = self.base + start
        if sawNonASCII {
          try Self.validateUTF8(self.base, from: start, to: self.position)
        } else if count <= 15 && self.smallStrings {
          var low: UInt64
          var high: UInt64
          if start &+ 16 <= self.end {
            // Load both words straight from the input and clear the bytes past the string.
            let raw = UnsafeRawPointer(bytes)
            low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            if count < 8 {
              low &= (1 &<< UInt64(count &* 8)) &- 1
              high = 0
            } else {
              high &= (1 &<< UInt64((count &- 8) &* 8)) &- 1
            }
          } else {
            (low, high) = SmallString.words(bytes, count)
          }
          self.position += 1
          return (
            SmallString.make(low: low, high: high, count: count),
            isKey ? Self.fingerprint(low, high, count) : 0
          )
        }
        self.position += 1
        let string = String(
          decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        return (string, isKey ? Self.fingerprint(bytes, count) : 0)
      }
      if byte == Self.backslash {
        return try self.parseEscapedString(from: start, sawNonASCII, isKey: isKey)
      }
      if byte < 0x20 { throw self.controlCharacter(byte) }
      if byte >= 0x80 { sawNonASCII = true }
      self.position += 1
    }
    throw .endOfInput(at: self.end, expecting: "'\"' to end the string")
  }

  /// High bit set in each byte of `word` that is `"`, `\`, below 0x20 or above 0x7F. Only the
  /// lowest flagged byte is exact, which is the one the caller uses.
  @inline(__always)
  private static func specialBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quotes = word ^ (ones &* 0x22)
    let backslashes = word ^ (ones &* 0x5C)
    let hasQuote = (quotes &- ones) & ~quotes
    let hasBackslash = (backslashes &- ones) & ~backslashes
    let hasControl = (word &- ones &* 0x20) & ~word
    return (hasQuote | hasBackslash | hasControl | word) & highs
  }

  private func controlCharacter(_ byte: UInt8) -> JSONParseError {
    JSONParseError(
      offset: self.position,
      reason: "unescaped control character U+00\(JSONParseError.hex(byte)) in string")
  }

  /// Continues a string at its first backslash, decoding into `scratch`.
  private mutating func parseEscapedString(
    from start: Int, _ sawNonASCII: Bool, isKey: Bool
  ) throws(JSONParseError) -> (string: String, fingerprint: UInt64) {
    var sawNonASCII = sawNonASCII
    self.scratch.removeAll()
    self.scratch.append(
      contentsOf: UnsafeBufferPointer(start: self.base + start, count: self.position - start))
    while true {
      // Copy the run of plain bytes up to the next quote or backslash.
      let runStart = self.position
      while self.position < self.end {
        let byte = self.byte(self.position)
        if byte == Self.quote || byte == Self.backslash { break }
        if byte < 0x20 { throw self.controlCharacter(byte) }
        if byte >= 0x80 { sawNonASCII = true }
        self.position += 1
      }
      self.scratch.append(
        contentsOf: UnsafeBufferPointer(
          start: self.base + runStart, count: self.position - runStart))
      guard self.position < self.end else {
        throw .endOfInput(at: self.end, expecting: "'\"' to end the string")
      }
      if self.byte(self.position) == Self.quote {
        if sawNonASCII { try Self.validateUTF8(self.base, from: start, to: self.position) }
        self.position += 1
        // Every escape decodes to at least one byte, so the buffer is not empty.
        let buffer = self.scratch.elements(from: 0)
        let string = String(decoding: buffer, as: UTF8.self)
        let fingerprint =
          isKey ? Self.fingerprint(buffer.baseAddress.unsafelyUnwrapped, buffer.count) : 0
        return (string, fingerprint)
      }
      try self.parseEscape()
    }
  }

  /// Decodes one escape sequence at the backslash into `scratch`.
  private mutating func parseEscape() throws(JSONParseError) {
    let escapeStart = self.position
    self.position += 1
    guard self.position < self.end else {
      throw .endOfInput(at: self.end, expecting: "an escape character")
    }
    let decoded: UInt8
    switch self.byte(self.position) {
    case UInt8(ascii: "\""): decoded = 0x22
    case UInt8(ascii: "\\"): decoded = 0x5C
    case UInt8(ascii: "/"): decoded = 0x2F
    case UInt8(ascii: "b"): decoded = 0x08
    case UInt8(ascii: "f"): decoded = 0x0C
    case UInt8(ascii: "n"): decoded = 0x0A
    case UInt8(ascii: "r"): decoded = 0x0D
    case UInt8(ascii: "t"): decoded = 0x09
    case UInt8(ascii: "u"):
      try self.parseUnicodeEscape(escapeStart: escapeStart)
      return
    default:
      throw JSONParseError.unexpected(
        self.byte(self.position), at: self.position, expecting: "an escape character")
    }
    self.position += 1
    self.scratch.push(decoded)
  }

  /// Decodes `\uXXXX` (and a following low surrogate escape) at the `u`.
  private mutating func parseUnicodeEscape(escapeStart: Int) throws(JSONParseError) {
    self.position += 1
    let first = try self.parseHex4()
    var scalarValue = UInt32(first)
    if (0xD800...0xDBFF).contains(first) {
      guard self.position + 1 < self.end, self.byte(self.position) == Self.backslash,
        self.byte(self.position + 1) == UInt8(ascii: "u")
      else { throw self.loneSurrogate(first, at: escapeStart) }
      self.position += 2
      let second = try self.parseHex4()
      guard (0xDC00...0xDFFF).contains(second) else {
        throw self.loneSurrogate(first, at: escapeStart)
      }
      scalarValue = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
    } else if (0xDC00...0xDFFF).contains(first) {
      throw self.loneSurrogate(first, at: escapeStart)
    }
    // Every non-surrogate value up to 0x10FFFF is a scalar, so this cannot fail.
    guard let scalar = Unicode.Scalar(scalarValue) else {
      throw self.loneSurrogate(first, at: escapeStart)
    }
    for byte in UTF8.encode(scalar).unsafelyUnwrapped { self.scratch.push(byte) }
  }

  private func loneSurrogate(_ unit: UInt16, at offset: Int) -> JSONParseError {
    let hex = JSONParseError.hex(UInt8(unit >> 8)) + JSONParseError.hex(UInt8(unit & 0xFF))
    return JSONParseError(offset: offset, reason: "lone surrogate escape \\u\(hex) in string")
  }

  private mutating func parseHex4() throws(JSONParseError) -> UInt16 {
    var result: UInt16 = 0
    for _ in 0..<4 {
      guard self.position < self.end else {
        throw .endOfInput(at: self.end, expecting: "a hex digit")
      }
      let byte = self.byte(self.position)
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw .unexpected(byte, at: self.position, expecting: "a hex digit")
      }
      result = result << 4 | UInt16(digit)
      self.position += 1
    }
    return result
  }

  /// Throws at the first byte of `base[from..<to]` that is not part of well-formed UTF-8
  /// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
  /// Static rather than a method: called on the parser, it got a `memcpy` of the whole parser.
  private static func validateUTF8(
    _ base: UnsafePointer<UInt8>, from start: Int, to stop: Int
  ) throws(JSONParseError) {
    var offset = start
    while offset < stop {
      let lead = base[offset]
      if lead < 0x80 {
        offset += 1
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: throw Self.invalidUTF8(base, at: offset)
      }
      for continuation in 1..<length {
        let at = offset + continuation
        // Report a broken sequence at its first byte, the one a reader would look for.
        guard at < stop else { throw Self.invalidUTF8(base, at: offset) }
        let byte = base[at]
        let (min, max): (UInt8, UInt8) = continuation == 1 ? (low, high) : (0x80, 0xBF)
        guard byte >= min && byte <= max else { throw Self.invalidUTF8(base, at: offset) }
      }
      offset += length
    }
  }

  private static func invalidUTF8(_ base: UnsafePointer<UInt8>, at offset: Int) -> JSONParseError {
    JSONParseError(
      offset: offset,
      reason: "invalid UTF-8 byte 0x\(JSONParseError.hex(base[offset])) in string")
  }
}
