/// A strict RFC 8259 parser over a byte buffer.
///
/// The parser is iterative: open containers live on explicit stacks, so nesting costs heap, not
/// call stack, and is bounded by `maxDepth`. Elements are moved (not copied) from the stacks into
/// the finished arrays and objects.
///
/// Decisions where RFC 8259 leaves room:
/// - Strings must be valid UTF-8; `\u` escapes must form valid scalars, so a lone surrogate
///   escape (`"\uD800"`) is rejected — a Swift `String` cannot hold one, and silently replacing
///   it would change the data.
/// - Duplicate object keys are accepted; the member keeps its first position and its last value.
/// - Numbers whose magnitude overflows `Double` (`1e400`) are rejected; underflow gives `0`.
/// - `-0` is the integer `0`; a byte-order mark is not JSON text and is rejected.
struct JSONParser: ~Copyable {
  private let base: UnsafePointer<UInt8>
  private let end: Int
  private let maxDepth: Int
  /// ``SmallString/isAvailable``, read once per parse.
  private let smallStrings = SmallString.isAvailable
  private var position = 0
  private var values: MoveStack<JSON>
  private var members: MoveStack<PendingMember>
  private var frames: MoveStack<Frame>
  /// Decoded bytes of the string being unescaped. A `MoveStack` rather than an `[UInt8]`,
  /// whose empty buffer cost a `swift_release` at the end of every parse.
  private var scratch = MoveStack<UInt8>()
  /// For each member count in `Self.shapeCounts`, the fingerprints of the last object of that
  /// size found free of repeats (slot `count - lowerBound`, `upperBound` words each). Records in
  /// an array usually share their keys, so most objects are settled by one comparison with
  /// their predecessor's shape instead of `hasRepeats`.
  private let shapes: UnsafeMutablePointer<UInt64>
  /// Bit `i` set: slot `i` of `shapes` holds a shape.
  private var shapeSlotsFilled: UInt32 = 0
  /// Member counts for which ``shapes`` pays: below, `hasRepeats` costs at most 28 compares.
  private static var shapeCounts: ClosedRange<Int> { 8...15 }
  /// The size of the `shapes` memory that ``init(base:count:maxDepth:workspace:shapes:)`` wants,
  /// in `UInt64`s: 960 bytes, within what `withUnsafeTemporaryAllocation` puts on the stack.
  static var shapeWordCount: Int { Self.shapeCounts.count * Self.shapeCounts.upperBound }

  /// A member of an object still open, with its key's ``fingerprint(_:_:)``. Kept together so
  /// that a member costs one push (a separate fingerprint stack cost a second).
  private struct PendingMember {
    var member: JSONObject.Member
    var fingerprint: UInt64
  }

  /// An open array or object.
  private struct Frame {
    var isObject: Bool
    /// Where the container's elements start on `values` or `members`.
    var start: Int
    /// The key under which the container goes into its parent object, and its fingerprint.
    var key: String
    var keyFingerprint: UInt64
  }

  /// How many bytes of temporary `workspace` memory
  /// ``init(base:count:maxDepth:workspace:shapes:)`` wants: enough for the stacks of a typical
  /// message, so that parsing one allocates only its results. At most 1024, the most
  /// `withUnsafeTemporaryAllocation` puts on the stack without asking the runtime (which, on
  /// Linux, answers by falling back to `malloc`).
  static let workspaceByteCount = 1024

  /// A parser over `base[0..<count]`, with stacks starting in `workspace`
  /// (``workspaceByteCount`` bytes, 16-byte aligned) and ``shapeWordCount`` words of
  /// uninitialized `shapes` memory; all must stay valid while parsing.
  init(
    base: UnsafePointer<UInt8>, count: Int, maxDepth: Int, workspace: UnsafeMutableRawPointer,
    shapes: UnsafeMutablePointer<UInt64>
  ) {
    self.base = base
    self.shapes = shapes
    self.end = count
    self.maxDepth = maxDepth
    var offset = 0
    func carve<T>(_: T.Type, _ capacity: Int) -> UnsafeMutableRawPointer {
      let alignment = MemoryLayout<T>.alignment
      offset = (offset + alignment - 1) / alignment * alignment
      defer { offset += MemoryLayout<T>.stride * capacity }
      return workspace + offset
    }
    self.members = MoveStack(initialBuffer: carve(PendingMember.self, 12), initialCapacity: 12)
    self.values = MoveStack(initialBuffer: carve(JSON.self, 12), initialCapacity: 12)
    self.frames = MoveStack(initialBuffer: carve(Frame.self, 4), initialCapacity: 4)
    precondition(offset <= Self.workspaceByteCount, "workspace too small")
  }

  // MARK: - Bytes

  private static let quote = UInt8(ascii: "\"")
  private static let backslash = UInt8(ascii: "\\")

  @inline(__always)
  private func byte(_ offset: Int) -> UInt8 { self.base[offset] }

  @inline(__always)
  private mutating func skipWhitespace() {
    while self.position < self.end {
      let byte = self.byte(self.position)
      // Fast exit for the common case: anything above space is not whitespace.
      if byte > 0x20 { return }
      guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
      self.position += 1
    }
  }

  private func unexpected(expecting: String) -> JSONParseError {
    if self.position >= self.end {
      return .endOfInput(at: self.end, expecting: expecting)
    }
    return .unexpected(self.byte(self.position), at: self.position, expecting: expecting)
  }

  // MARK: - Document

  /// Parses exactly one JSON value surrounded by optional whitespace.
  mutating func parseDocument() throws(JSONParseError) -> JSON {
    self.skipWhitespace()
    // The key of the value being parsed, and its fingerprint: always "" inside an array.
    var key = ""
    var keyFingerprint: UInt64 = 0
    // Whether the innermost open container is an object (`frames.top.isObject`, kept in a
    // local because every value reads it).
    var inObject = false
    while true {
      // Parse one value, or open a container and loop for its first element.
      guard self.position < self.end else {
        throw .endOfInput(at: self.end, expecting: "a value")
      }
      var value: JSON
      switch self.byte(self.position) {
      case UInt8(ascii: "{"):
        try self.checkDepth()
        self.position += 1
        self.skipWhitespace()
        if self.position < self.end && self.byte(self.position) == UInt8(ascii: "}") {
          self.position += 1
          value = .object(JSONObject())
        } else {
          self.frames.push(
            Frame(
              isObject: true, start: self.members.count, key: consume key,
              keyFingerprint: keyFingerprint))
          inObject = true
          (key, keyFingerprint) = try self.parseKeyAndColon()
          continue
        }
      case UInt8(ascii: "["):
        try self.checkDepth()
        self.position += 1
        self.skipWhitespace()
        if self.position < self.end && self.byte(self.position) == UInt8(ascii: "]") {
          self.position += 1
          value = .array([])
        } else {
          self.frames.push(
            Frame(
              isObject: false, start: self.values.count, key: consume key,
              keyFingerprint: keyFingerprint))
          inObject = false
          key = ""
          continue
        }
      case Self.quote:
        var plain = 0
        if let short = self.parseShortString(plain: &plain) {
          value = .string(short.string)
        } else {
          value = .string(try self.parseValueString(skipping: plain))
        }
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        value = try self.parseNumber()
      // Literals: one 4-byte compare in the common case; `parseLiteral` finds and reports
      // the mismatch otherwise.
      case UInt8(ascii: "t"):
        if Self.hasWord(Self.trueWord, self.base, at: self.position, end: self.end) {
          self.position &+= 4
        } else {
          try self.parseLiteral("true")
        }
        value = .bool(true)
      case UInt8(ascii: "f"):
        if Self.hasWord(Self.falsWord, self.base, at: self.position, end: self.end &- 1),
          self.byte(self.position &+ 4) == UInt8(ascii: "e")
        {
          self.position &+= 5
        } else {
          try self.parseLiteral("false")
        }
        value = .bool(false)
      case UInt8(ascii: "n"):
        if Self.hasWord(Self.nullWord, self.base, at: self.position, end: self.end) {
          self.position &+= 4
        } else {
          try self.parseLiteral("null")
        }
        value = .null
      default:
        throw self.unexpected(expecting: "a value")
      }

      // Attach the value to its container, closing containers as long as they end here.
      while true {
        guard self.frames.count > 0 else {
          self.skipWhitespace()
          guard self.position == self.end else { throw self.unexpected(expecting: "end of input") }
          return value
        }
        // `consume`: the key and value move onto the stack without a retain/release pair.
        let frame: Frame
        if inObject {
          // Every way on reinitializes `key` (the next key, or the closed object's own key)
          // without first setting it to "", which would cost a release of that "".
          self.members.push(
            PendingMember(
              member: JSONObject.Member(key: consume key, value: consume value),
              fingerprint: keyFingerprint))
          self.skipWhitespace()
          guard self.position < self.end else {
            throw .endOfInput(at: self.end, expecting: "',' or '}'")
          }
          let byte = self.byte(self.position)
          if byte == UInt8(ascii: ",") {
            self.position += 1
            self.skipWhitespace()
            (key, keyFingerprint) = try self.parseKeyAndColon()
            break
          }
          guard byte == UInt8(ascii: "}") else { throw self.unexpected(expecting: "',' or '}'") }
          self.position += 1
          frame = self.frames.pop()
          value = .object(self.closeObject(from: frame.start))
        } else {
          // `key` is "" in an array and stays so.
          self.values.push(consume value)
          self.skipWhitespace()
          guard self.position < self.end else {
            throw .endOfInput(at: self.end, expecting: "',' or ']'")
          }
          let byte = self.byte(self.position)
          if byte == UInt8(ascii: ",") {
            self.position += 1
            self.skipWhitespace()
            break
          }
          guard byte == UInt8(ascii: "]") else { throw self.unexpected(expecting: "',' or ']'") }
          self.position += 1
          frame = self.frames.pop()
          value = .array(self.values.popArray(from: frame.start))
        }
        key = frame.key
        keyFingerprint = frame.keyFingerprint
        if self.frames.count > 0 { inObject = self.frames.top.isObject }
      }
    }
  }

  /// `mutating`, though it changes nothing: a non-mutating call here made the compiler copy the
  /// whole (non-copyable) parser to the stack with `memcpy` at every `{` and `[`.
  @inline(__always)
  private mutating func checkDepth() throws(JSONParseError) {
    if self.frames.count >= self.maxDepth {
      throw Self.tooDeep(at: self.position, maxDepth: self.maxDepth)
    }
  }

  /// Out of line so that the check above stays a compare and a branch.
  @inline(never)
  private static func tooDeep(at offset: Int, maxDepth: Int) -> JSONParseError {
    JSONParseError(
      offset: offset, reason: "nesting deeper than the maximum depth of \(maxDepth)")
  }

  /// Parses `"key"`, whitespace, `:` and whitespace; the position must be at the opening quote.
  /// Returns the key and its fingerprint.
  @inline(__always)
  private mutating func parseKeyAndColon() throws(JSONParseError) -> (String, UInt64) {
    guard self.position < self.end, self.byte(self.position) == Self.quote else {
      throw self.unexpected(expecting: "a string key")
    }
    let key: String
    let fingerprint: UInt64
    var plain = 0
    if let short = self.parseShortString(plain: &plain) {
      (key, fingerprint) = short
    } else {
      (key, fingerprint) = try self.parseKeyString(skipping: plain)
    }
    self.skipWhitespace()
    guard self.position < self.end, self.byte(self.position) == UInt8(ascii: ":") else {
      throw self.unexpected(expecting: "':'")
    }
    self.position += 1
    self.skipWhitespace()
    return (key, fingerprint)
  }

  /// Moves the members from `start` into an object, resolving duplicate keys.
  private mutating func closeObject(from start: Int) -> JSONObject {
    let pending = self.members.elements(from: start)
    let mayHaveDuplicates =
      Self.shapeCounts.contains(pending.count)
      ? !self.isKnownUniqueShape(pending) : Self.hasRepeats(pending)
    // The fingerprints are trivial and simply left behind.
    let storage = self.members.popArray(
      from: start, field: MemoryLayout<PendingMember>.offset(of: \.member).unsafelyUnwrapped,
      as: JSONObject.Member.self)
    guard mayHaveDuplicates else { return JSONObject(uniqueMembers: storage) }
    // Rare: equal fingerprints. Keep the first position and the last value of each key.
    var positions: [String: Int] = [:]
    var unique: [JSONObject.Member] = []
    for member in storage {
      if let position = positions[member.key] {
        unique[position].value = member.value
      } else {
        positions[member.key] = unique.count
        unique.append(member)
      }
    }
    return JSONObject(uniqueMembers: unique)
  }

  /// Whether `fingerprints` (with a count in `shapeCounts`) has no repeats: the same sequence
  /// as the remembered one of its size (which had none), or checked by `hasRepeats` and then
  /// remembered. Exact, since equal sequences repeat equally.
  private mutating func isKnownUniqueShape(_ pending: UnsafeBufferPointer<PendingMember>) -> Bool {
    let index = pending.count - Self.shapeCounts.lowerBound
    let slot = self.shapes + index * Self.shapeCounts.upperBound
    let bit: UInt32 = 1 << UInt32(truncatingIfNeeded: index)
    if self.shapeSlotsFilled & bit != 0 {
      var same = true
      for offset in 0..<pending.count where slot[offset] != pending[offset].fingerprint {
        same = false
        break
      }
      if same { return true }
    }
    if Self.hasRepeats(pending) { return false }
    // Plain stores: `UInt64` is trivial, so the slot may be uninitialized or hold an old shape.
    for offset in 0..<pending.count { slot[offset] = pending[offset].fingerprint }
    self.shapeSlotsFilled |= bit
    return true
  }

  /// Whether any fingerprint occurs twice; the small counts of typical objects inline.
  @inline(__always)
  private static func hasRepeats(_ pending: UnsafeBufferPointer<PendingMember>) -> Bool {
    switch pending.count {
    case 0, 1: return false
    case 2: return pending[0].fingerprint == pending[1].fingerprint
    case 3:
      let (first, second, third) = (
        pending[0].fingerprint, pending[1].fingerprint, pending[2].fingerprint
      )
      return first == second || first == third || second == third
    default: return Self.hasRepeatsSlowly(pending)
    }
  }

  /// ``hasRepeats(_:)`` for any count.
  private static func hasRepeatsSlowly(_ pending: UnsafeBufferPointer<PendingMember>) -> Bool {
    let count = pending.count
    if count < 2 { return false }
    if count <= 32 {
      for i in 1..<count {
        let fingerprint = pending[i].fingerprint
        for j in 0..<i where pending[j].fingerprint == fingerprint { return true }
      }
      return false
    }
    var seen = Set<UInt64>(minimumCapacity: count)
    for entry in pending where !seen.insert(entry.fingerprint).inserted { return true }
    return false
  }

  /// A cheap digest of a key's UTF-8: equal keys always have equal fingerprints.
  @inline(__always)
  private static func fingerprint(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
    if count <= 15 {
      let words = SmallString.words(bytes, count)
      return Self.fingerprint(words.low, words.high, count)
    }
    let raw = UnsafeRawPointer(bytes)
    return Self.fingerprint(
      UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)),
      UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)), count)
  }

  /// Mixes the two words that stand for a key: all of it up to 15 bytes (zero-filled), else
  /// its first and last 8 bytes.
  @inline(__always)
  private static func fingerprint(_ first: UInt64, _ second: UInt64, _ count: Int) -> UInt64 {
    var hash = (first &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(truncatingIfNeeded: count)
    hash = (hash << 29 | hash >> 35) ^ second
    return hash &* 0xFF51_AFD7_ED55_8CCD
  }

  // MARK: - Literals

  /// `"true"`, `"fals"` and `"null"` as little-endian words.
  private static var trueWord: UInt32 { 0x6575_7274 }
  private static var falsWord: UInt32 { 0x736C_6166 }
  private static var nullWord: UInt32 { 0x6C6C_756E }

  /// Whether the 4 bytes at `base[offset]` (which must lie before `end`) are `word`, little
  /// endian. Static: as a method it would get a copy of the whole parser.
  @inline(__always)
  private static func hasWord(
    _ word: UInt32, _ base: UnsafePointer<UInt8>, at offset: Int, end: Int
  ) -> Bool {
    offset &+ 4 <= end
      && UInt32(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt32.self))
        == word
  }

  private mutating func parseLiteral(_ literal: StaticString) throws(JSONParseError) {
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

  // MARK: - Strings

  /// The common case of ``parseString(isKey:skipping:)`` without its loops: an ASCII string of
  /// at most 15 bytes without escapes, whose closing quote lies within the 16 bytes after the
  /// opening one.
  /// Returns `nil`, without moving, for anything else, with `plain` set to how many bytes after
  /// the opening quote it found free of quotes, backslashes, control and non-ASCII bytes, which
  /// ``parseString(isKey:skipping:)`` then need not scan again.
  @inline(__always)
  private mutating func parseShortString(plain: inout Int) -> (
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
    return (SmallString.make(low: low, high: high, count: count), Self.fingerprint(low, high, count))
  }

  /// ``parseString(isKey:skipping:)`` for a value, which needs no fingerprint.
  private mutating func parseValueString(skipping plain: Int) throws(JSONParseError) -> String {
    try self.parseString(isKey: false, skipping: plain).string
  }

  /// ``parseString(isKey:skipping:)`` for a key.
  private mutating func parseKeyString(skipping plain: Int) throws(JSONParseError) -> (
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

  // MARK: - Numbers

  private static let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// Parses `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
  private mutating func parseNumber() throws(JSONParseError) -> JSON {
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
