/// Writes JSON text into a growable byte buffer through raw pointers: one capacity check per
/// token instead of one per byte, and short strings copied a word at a time.
struct JSONWriter: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var count = 0
  private var capacity: Int
  /// ``SmallString/isAvailable``, read once per writer.
  private let smallStrings = SmallString.isAvailable

  /// Whether `base` came from `allocate` (and not from the caller's temporary memory).
  private var ownsBase = false

  /// A writer that starts in `capacity` bytes of caller-owned memory at `initialBuffer`,
  /// which must outlive it, and moves to the heap if it needs more.
  init(initialBuffer: UnsafeMutablePointer<UInt8>, capacity: Int) {
    self.base = initialBuffer
    self.capacity = capacity
  }

  deinit { if self.ownsBase { self.base.deallocate() } }

  /// Runs `body` with a writer whose first kilobyte lives on the stack.
  static func withWriter<R>(_ body: (inout JSONWriter) -> R) -> R {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { buffer in
      var writer = JSONWriter(initialBuffer: buffer.baseAddress.unsafelyUnwrapped, capacity: 1024)
      return body(&writer)
    }
  }

  /// Appends what was written to `buffer`.
  func append(to buffer: inout [UInt8]) {
    buffer.append(contentsOf: UnsafeBufferPointer(start: self.base, count: self.count))
  }

  /// What was written, as a new array.
  func bytes() -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(self.count)
    self.append(to: &bytes)
    return bytes
  }

  /// What was written, as a string (always valid UTF-8).
  func string() -> String {
    String(decoding: UnsafeBufferPointer(start: self.base, count: self.count), as: UTF8.self)
  }

  // MARK: - Raw output

  /// Makes room for `extra` more bytes.
  @inline(__always)
  private mutating func reserve(_ extra: Int) {
    if self.count &+ extra > self.capacity { self.grow(extra) }
  }

  private mutating func grow(_ extra: Int) {
    let newCapacity = Swift.max(self.capacity * 2, self.count + extra)
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.initialize(from: self.base, count: self.count)
    if self.ownsBase { self.base.deallocate() }
    self.ownsBase = true
    self.base = newBase
    self.capacity = newCapacity
  }

  @inline(__always)
  private mutating func byte(_ byte: UInt8) {
    self.reserve(1)
    self.base[self.count] = byte
    self.count &+= 1
  }

  @inline(__always)
  private mutating func bytes(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
    self.reserve(count)
    (self.base + self.count).initialize(from: bytes, count: count)
    self.count &+= count
  }

  @inline(__always)
  private mutating func literal(_ literal: StaticString) {
    self.bytes(literal.utf8Start, literal.utf8CodeUnitCount)
  }

  // MARK: - Values

  /// Writes `value` compactly.
  mutating func write(_ value: JSON) {
    switch value {
    case .null: self.literal("null")
    case .bool(let bool): self.literal(bool ? "true" : "false")
    case .int(let int): self.integer(int)
    case .double(let double): self.double(double)
    case .string(let string): self.string(string)
    case .array(let elements):
      self.byte(UInt8(ascii: "["))
      var first = true
      for element in elements {
        if !first { self.byte(UInt8(ascii: ",")) }
        first = false
        self.write(element)
      }
      self.byte(UInt8(ascii: "]"))
    case .object(let object):
      self.byte(UInt8(ascii: "{"))
      var first = true
      for member in object.storage {
        if !first { self.byte(UInt8(ascii: ",")) }
        first = false
        self.string(member.key)
        self.byte(UInt8(ascii: ":"))
        self.write(member.value)
      }
      self.byte(UInt8(ascii: "}"))
    }
  }

  /// Writes `value` with one member or element per line, indented two spaces per level.
  mutating func writePretty(_ value: JSON, indent: Int) {
    switch value {
    case .array(let elements) where !elements.isEmpty:
      self.byte(UInt8(ascii: "["))
      for (offset, element) in elements.enumerated() {
        if offset > 0 { self.byte(UInt8(ascii: ",")) }
        self.newline(indent: indent + 1)
        self.writePretty(element, indent: indent + 1)
      }
      self.newline(indent: indent)
      self.byte(UInt8(ascii: "]"))
    case .object(let object) where !object.isEmpty:
      self.byte(UInt8(ascii: "{"))
      for (offset, member) in object.storage.enumerated() {
        if offset > 0 { self.byte(UInt8(ascii: ",")) }
        self.newline(indent: indent + 1)
        self.string(member.key)
        self.literal(": ")
        self.writePretty(member.value, indent: indent + 1)
      }
      self.newline(indent: indent)
      self.byte(UInt8(ascii: "}"))
    default:
      self.write(value)
    }
  }

  private mutating func newline(indent: Int) {
    self.reserve(1 + 2 * indent)
    self.base[self.count] = 0x0A
    (self.base + self.count + 1).initialize(repeating: UInt8(ascii: " "), count: 2 * indent)
    self.count += 1 + 2 * indent
  }

  // MARK: - Numbers

  /// "00" through "99", for writing two digits per division.
  private static let digitPairs: [UInt8] = (0..<100).flatMap { pair in
    [UInt8(ascii: "0") + UInt8(pair / 10), UInt8(ascii: "0") + UInt8(pair % 10)]
  }

  /// Writes the decimal digits of `value`.
  mutating func integer(_ value: Int64) {
    if value >= 0 && value < 10 {
      self.byte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
      return
    }
    if value < 0 { self.byte(UInt8(ascii: "-")) }
    self.digits(value.magnitude)
  }

  private mutating func digits(_ value: UInt64) {
    var value = value
    var length = 1
    var probe = value
    while probe >= 10 {
      probe /= 10
      length &+= 1
    }
    self.reserve(length)
    // Fill from the right, two digits per division.
    var position = self.count &+ length
    Self.digitPairs.withUnsafeBufferPointer { pairs in
      while value >= 100 {
        let pair = Int(truncatingIfNeeded: value % 100) &* 2
        value /= 100
        position &-= 2
        self.base[position] = pairs[pair]
        self.base[position &+ 1] = pairs[pair &+ 1]
      }
      if value >= 10 {
        let pair = Int(truncatingIfNeeded: value) &* 2
        self.base[position &- 2] = pairs[pair]
        self.base[position &- 1] = pairs[pair &+ 1]
      } else {
        self.base[position &- 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
      }
    }
    self.count &+= length
  }

  /// Writes the shortest text that parses back to `value`, keeping it recognisably a double;
  /// non-finite values (which JSON cannot express) become `null`.
  mutating func double(_ value: Double) {
    guard value.isFinite else {
      self.literal("null")
      return
    }
    // Integral values below 1e15 print as "<digits>.0", as `description` does, without
    // building a String.
    if value.magnitude < 1e15 && value == value.rounded(.towardZero) {
      if value.sign == .minus { self.byte(UInt8(ascii: "-")) }
      self.digits(UInt64(value.magnitude))
      self.literal(".0")
      return
    }
    // `description` is the shortest round-tripping form and always JSON-compatible once
    // finite ("0.1", "1e+300", "5e-324"); only drop the exponent's leading zeros ("1.5e-07").
    var text = value.description
    text.withUTF8 { utf8 in
      let base = utf8.baseAddress.unsafelyUnwrapped
      guard let e = utf8.firstIndex(of: UInt8(ascii: "e")) else {
        self.bytes(base, utf8.count)
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
      self.bytes(base, digitsStart)
      self.bytes(base + firstSignificant, utf8.count - firstSignificant)
    }
  }

  // MARK: - Strings

  /// Writes `string` quoted, escaping only what JSON requires: `"`, `\` and U+0000–U+001F.
  mutating func string(_ string: String) {
    if self.smallStrings {
      // Small strings keep their UTF-8 inline in the two words of the String itself.
      let (low, high) = unsafeBitCast(string, to: (UInt64, UInt64).self)
      let discriminator = UInt64(littleEndian: high) >> 60
      if discriminator & 0b1010 == 0b1010 {  // immortal and small, ASCII or not
        let count = Int(truncatingIfNeeded: (UInt64(littleEndian: high) >> 56) & 0xF)
        let words = (UInt64(littleEndian: low), UInt64(littleEndian: high) & 0x00FF_FFFF_FFFF_FFFF)
        let padded = Self.maskPadding(words, count)
        if Self.bytesNeedingEscape(padded.0) == 0 && Self.bytesNeedingEscape(padded.1) == 0 {
          self.quotedWords(words, count)
          return
        }
      }
    }
    var string = string
    string.withUTF8 { utf8 in self.quoted(utf8) }
  }

  /// Replaces the zero padding past `count` with spaces so the escape scan ignores it.
  @inline(__always)
  private static func maskPadding(_ words: (UInt64, UInt64), _ count: Int) -> (UInt64, UInt64) {
    let spaces: UInt64 = 0x2020_2020_2020_2020
    if count >= 8 {
      let kept = count == 8 ? 0 : (1 &<< UInt64((count &- 8) &* 8)) &- 1
      return (words.0, (words.1 & kept) | (spaces & ~kept))
    }
    let kept = (1 &<< UInt64(count &* 8)) &- 1
    return ((words.0 & kept) | (spaces & ~kept), spaces)
  }

  /// Writes a small string's words between quotes (no escapes needed).
  @inline(__always)
  private mutating func quotedWords(_ words: (UInt64, UInt64), _ count: Int) {
    self.reserve(18)
    let out = self.base + self.count
    out[0] = UInt8(ascii: "\"")
    let raw = UnsafeMutableRawPointer(out + 1)
    raw.storeBytes(of: words.0.littleEndian, as: UInt64.self)
    raw.storeBytes(of: words.1.littleEndian, toByteOffset: 8, as: UInt64.self)
    out[1 &+ count] = UInt8(ascii: "\"")
    self.count &+= count &+ 2
  }

  private mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
    self.byte(UInt8(ascii: "\""))
    guard let base = utf8.baseAddress else {
      self.byte(UInt8(ascii: "\""))
      return
    }
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
      self.bytes(base + runStart, offset - runStart)
      self.escape(base[offset])
      offset &+= 1
      runStart = offset
    }
    self.bytes(base + runStart, count - runStart)
    self.byte(UInt8(ascii: "\""))
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

  private mutating func escape(_ byte: UInt8) {
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
      let hex: StaticString = "0123456789abcdef"
      self.literal("\\u00")
      self.byte(hex.utf8Start[Int(byte >> 4)])
      self.byte(hex.utf8Start[Int(byte & 0xF)])
      return
    }
    self.byte(UInt8(ascii: "\\"))
    self.byte(short)
  }
}
