/// A cursor over one message's bytes for the compact fast paths (a `send` read by the host, the
/// host's small replies read by a client): each step takes what it expects next or reports
/// that it is not there, and the fast path gives up (`nil`) at the first surprise, leaving the
/// payload to ``JSON`` and `init(json:)`.
struct CompactReader {
  let bytes: UnsafeRawBufferPointer
  var position = 0

  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  mutating func skipWhitespace() {
    while self.position < self.bytes.count, Self.isWhitespace(self.bytes[self.position]) {
      self.position += 1
    }
  }

  /// Skips whitespace, then `token` if it comes next.
  @inline(__always)
  mutating func take(_ token: StaticString) -> Bool {
    // Compact senders put no whitespace between tokens: test one byte before calling out.
    if self.position < self.bytes.count, self.bytes[self.position] <= 0x20 { self.skipWhitespace() }
    let count = token.utf8CodeUnitCount
    guard self.bytes.count - self.position >= count,
      Self.equal(self.bytes.baseAddress.unsafelyUnwrapped + self.position, token.utf8Start, count)
    else { return false }
    self.position += count
    return true
  }

  /// Whether the `count` bytes at `a` and `b` are equal: for 4 bytes or more, compared a word
  /// at a time, the last word overlapping the one before it when `count` is not a multiple of
  /// the word size, instead of a loop over the bytes.
  @inline(__always)
  private static func equal(_ a: UnsafeRawPointer, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool
  {
    let other = UnsafeRawPointer(b)
    if count >= 8 {
      var offset = 0
      while offset < count - 8 {
        guard
          a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            == other.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        else { return false }
        offset += 8
      }
      return a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        == other.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }
    if count >= 4 {
      return a.loadUnaligned(as: UInt32.self) == other.loadUnaligned(as: UInt32.self)
        && a.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
          == other.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
    }
    var offset = 0
    while offset < count {
      guard a.load(fromByteOffset: offset, as: UInt8.self) == b[offset] else { return false }
      offset += 1
    }
    return true
  }

  /// An integer in JSON's grammar that surely fits `Int64` (at most 18 digits).
  mutating func integer() -> Int64? {
    var index = self.position
    let negative = index < self.bytes.count && self.bytes[index] == UInt8(ascii: "-")
    if negative { index += 1 }
    let first = index
    var value: Int64 = 0
    while index < self.bytes.count, case let digit = self.bytes[index] &- UInt8(ascii: "0"),
      digit < 10
    {
      // Wrapping: a run of more than 18 digits overflows here, and is refused below.
      value = value &* 10 &+ Int64(digit)
      index += 1
    }
    let digits = index - first
    // No digits, a leading zero, or too many digits to be sure: not for the fast path.
    guard digits > 0, digits <= 18, digits == 1 || self.bytes[first] != UInt8(ascii: "0")
    else { return nil }
    // A fraction or exponent makes it a double.
    if index < self.bytes.count,
      self.bytes[index] == UInt8(ascii: ".") || self.bytes[index] | 0x20 == UInt8(ascii: "e")
    {
      return nil
    }
    self.position = index
    return negative ? -value : value
  }

  /// The high bit of each byte of `word` (little-endian) that is a quote, a backslash, a
  /// control character or not printable ASCII. Bytes above the lowest flagged one may be
  /// flagged wrongly (a borrow or carry from it), but the lowest flagged byte is always a true
  /// one, and no byte below it is.
  @inline(__always)
  private static func nonPlainBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highBits: UInt64 = 0x8080_8080_8080_8080
    /// Bytes of `value` that are zero (exact up to the lowest one).
    func zeroBytes(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highBits }
    let quote = zeroBytes(word ^ (ones &* UInt64(UInt8(ascii: "\""))))
    let backslash = zeroBytes(word ^ (ones &* UInt64(UInt8(ascii: "\\"))))
    let control = (word &- ones &* 0x20) & ~word & highBits  // below 0x20
    let high = (word | (word &+ ones)) & highBits  // 0x7F and above
    return quote | backslash | control | high
  }

  /// A string of printable ASCII without escapes.
  mutating func plainString() -> String? {
    guard self.take(#"""#) else { return nil }
    let start = self.position
    // Eight bytes at a time while eight remain (the action always follows, so they usually
    // do): stop at the first byte that is not plain, then let the loop below judge it.
    while self.bytes.count - self.position >= 8 {
      let word = UInt64(
        littleEndian: self.bytes.loadUnaligned(fromByteOffset: self.position, as: UInt64.self))
      let special = Self.nonPlainBytes(word)
      if special == 0 {
        self.position += 8
      } else {
        self.position += special.trailingZeroBitCount / 8
        break
      }
    }
    while self.position < self.bytes.count {
      let byte = self.bytes[self.position]
      if byte == UInt8(ascii: "\"") {
        let count = self.position - start
        // Checked printable ASCII above, so a short scope needs no second validation pass.
        let string =
          count <= 15 && SmallString.isAvailable
          ? SmallString.make(
            self.bytes.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self) + start,
            count)
          : String(
            decoding: UnsafeRawBufferPointer(rebasing: self.bytes[start..<self.position]),
            as: UTF8.self)
        self.position += 1
        return string
      }
      guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
      self.position += 1
    }
    return nil
  }
}
