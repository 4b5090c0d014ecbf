/// Writes JSON text through raw pointers: one capacity check per token instead of one per byte,
/// and short strings copied a word at a time.
///
/// Text is written into a buffer that starts on the stack. When it fills, its bytes go to the
/// output array if that has room for them (a reused buffer: the writer then copies the text
/// once and allocates nothing); otherwise the buffer grows with `realloc`, and the output grows
/// once, to the exact size, at the end. Growing by `realloc` rather than by allocating, copying
/// and freeing matters for large texts: at megabytes, `malloc` hands out fresh pages each time,
/// whose page faults used to cost more than the writing itself, while `realloc` remaps the
/// pages it already has.
struct JSONWriter: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var count = 0
  private var capacity: Int
  /// ``SmallString/isAvailable``, read once per writer.
  private let smallStrings = SmallString.isAvailable
  /// Whether `base` came from `malloc` (and not from the caller's temporary memory).
  private var ownsBase = false
  /// Where the text goes; complete only after ``finish()``.
  private var output: [UInt8] = []

  /// A writer that starts in `capacity` bytes of caller-owned memory at `initialBuffer`, which
  /// must outlive it.
  private init(initialBuffer: UnsafeMutablePointer<UInt8>, capacity: Int) {
    self.base = initialBuffer
    self.capacity = capacity
  }

  deinit { if self.ownsBase { Posix.deallocate(self.base) } }

  /// Runs `body` with a writer that appends to `output` and whose first kilobyte lives on the
  /// stack.
  static func withWriter<R>(appendingTo output: inout [UInt8], _ body: (inout JSONWriter) -> R)
    -> R
  {
    // Up to 1024 bytes, `withUnsafeTemporaryAllocation` uses the stack without asking the
    // system for the stack's bounds.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { buffer in
      var writer = JSONWriter(initialBuffer: buffer.baseAddress.unsafelyUnwrapped, capacity: 1024)
      // Moved in and out rather than copied, so that appending never copies the caller's bytes.
      swap(&writer.output, &output)
      let result = body(&writer)
      writer.finish()
      swap(&writer.output, &output)
      return result
    }
  }

  /// Moves everything written to `output`.
  private mutating func finish() {
    self.output.append(contentsOf: UnsafeBufferPointer(start: self.base, count: self.count))
    self.count = 0
  }

  // MARK: - Raw output

  /// Makes room for `extra` more bytes in the buffer.
  @inline(__always)
  private mutating func reserve(_ extra: Int) {
    if self.count &+ extra > self.capacity { self.makeRoom(extra) }
  }

  /// Empties the buffer into `output`, or else grows it, so that `extra` more bytes fit.
  @inline(never)
  private mutating func makeRoom(_ extra: Int) {
    if self.ownsBase && self.output.capacity - self.output.count >= self.count {
      self.output.append(contentsOf: UnsafeBufferPointer(start: self.base, count: self.count))
      self.count = 0
      if extra <= self.capacity { return }
    }
    let newCapacity = Swift.max(self.capacity * 2, self.count + extra, 32 * 1024)
    if self.ownsBase {
      guard let grown = Posix.reallocate(self.base, byteCount: newCapacity) else {
        fatalError("out of memory")
      }
      self.base = grown.bindMemory(to: UInt8.self, capacity: newCapacity)
    } else {
      // The stack buffer is full: the text is long, so continue on the heap.
      guard let allocated = Posix.allocate(byteCount: newCapacity) else {
        fatalError("out of memory")
      }
      let newBase = allocated.bindMemory(to: UInt8.self, capacity: newCapacity)
      newBase.initialize(from: self.base, count: self.count)
      self.base = newBase
      self.ownsBase = true
    }
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
  mutating func write(_ value: borrowing JSON) {
    switch value {
    case .null: self.literal("null")
    case .bool(let bool): self.literal(bool ? "true" : "false")
    case .int(let int): self.integer(int)
    case .double(let double): self.double(double)
    case .string(let string): self.string(string)
    case .array(let elements):
      self.byte(UInt8(ascii: "["))
      for index in elements.indices {
        if index > 0 { self.byte(UInt8(ascii: ",")) }
        self.write(elements[index])
      }
      self.byte(UInt8(ascii: "]"))
    case .object(let object):
      self.byte(UInt8(ascii: "{"))
      let members = object.storage
      for index in members.indices {
        if index > 0 { self.byte(UInt8(ascii: ",")) }
        self.string(members[index].key)
        self.byte(UInt8(ascii: ":"))
        self.write(members[index].value)
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

  /// Writes `value` in `width` digits, with leading zeros; `value` must fit.
  private mutating func digits(_ value: UInt64, width: Int) {
    var value = value
    self.reserve(width)
    var position = self.count &+ width
    while position > self.count {
      position &-= 1
      self.base[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
      value /= 10
    }
    self.count &+= width
  }

  /// Writes the shortest text that parses back to `value`, keeping it recognisably a double;
  /// non-finite values (which JSON cannot express) become `null`.
  mutating func double(_ value: Double) {
    guard value.isFinite else {
      self.literal("null")
      return
    }
    let magnitude = value.magnitude
    // Integral values below 1e15 print as "<digits>.0", as `description` does.
    if magnitude < 1e15 && magnitude == magnitude.rounded(.towardZero) {
      if value.sign == .minus { self.byte(UInt8(ascii: "-")) }
      self.digits(UInt64(magnitude))
      self.literal(".0")
      return
    }
    // Most other doubles in documents have few digits ("485.26"); see ShortDecimal for why
    // this is the same text as `description`.
    if let (significand, fractionDigits) = ShortDecimal.parts(magnitude) {
      if value.sign == .minus { self.byte(UInt8(ascii: "-")) }
      let scale = Self.powersOfTen[fractionDigits]
      self.digits(significand / scale)
      self.byte(UInt8(ascii: "."))
      self.digits(significand % scale, width: fractionDigits)
      return
    }
    self.shortestDouble(value)
  }

  /// 10^0 through 10^15.
  private static let powersOfTen: [UInt64] = (0...15).map { power in
    (0..<power).reduce(1) { result, _ in result * 10 }
  }

  /// Writes the standard library's shortest round-tripping text of a finite `value`, which is
  /// always JSON-compatible ("0.1", "1e+300", "5e-324") once the exponent's leading zeros are
  /// dropped ("1.5e-07" becomes "1.5e-7").
  private mutating func shortestDouble(_ value: Double) {
    // `write(to:)` produces the same text as `description` without building a String: it
    // hands its stack buffer to `_writeASCII`.
    var text = ShortText()
    value.write(to: &text)
    guard !text.overflowed else {
      // Never longer than 24 bytes in practice; this only keeps the fallback correct.
      var description = value.description
      description.withUTF8 { utf8 in
        self.exponentTrimmed(utf8.baseAddress.unsafelyUnwrapped, utf8.count)
      }
      return
    }
    withUnsafeBytes(of: &text.bytes) { raw in
      self.exponentTrimmed(raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self), text.count)
    }
  }

  /// Writes the number text `utf8[0..<count]` without leading zeros in its exponent.
  private mutating func exponentTrimmed(_ utf8: UnsafePointer<UInt8>, _ count: Int) {
    var e = 0
    while e < count && utf8[e] != UInt8(ascii: "e") { e += 1 }
    guard e < count else {
      self.bytes(utf8, count)
      return
    }
    var digitsStart = e + 1
    if utf8[digitsStart] == UInt8(ascii: "-") || utf8[digitsStart] == UInt8(ascii: "+") {
      digitsStart += 1
    }
    var firstSignificant = digitsStart
    while firstSignificant < count - 1 && utf8[firstSignificant] == UInt8(ascii: "0") {
      firstSignificant += 1
    }
    self.bytes(utf8, digitsStart)
    self.bytes(utf8 + firstSignificant, count - firstSignificant)
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
