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
///
/// This file holds the state and the document loop; the concerns it calls on are extensions:
/// `JSONParser+Strings.swift`, `JSONParser+Scalars.swift` (numbers and literals) and
/// `JSONParser+Objects.swift` (closing objects, duplicate keys). Members those files share are
/// internal rather than private; the type itself is internal to the module.
struct JSONParser: ~Copyable {
  let base: UnsafePointer<UInt8>
  let end: Int
  private let maxDepth: Int
  /// ``SmallString/isAvailable``, read once per parse.
  let smallStrings = SmallString.isAvailable
  var position = 0
  private var values: MoveStack<JSON>
  var members: MoveStack<PendingMember>
  private var frames: MoveStack<Frame>
  /// Decoded bytes of the string being unescaped. A `MoveStack` rather than an `[UInt8]`,
  /// whose empty buffer cost a `swift_release` at the end of every parse.
  var scratch = MoveStack<UInt8>()
  /// For each member count in `Self.shapeCounts`, the fingerprints of the last object of that
  /// size found free of repeats (slot `count - lowerBound`, `upperBound` words each). Records in
  /// an array usually share their keys, so most objects are settled by one comparison with
  /// their predecessor's shape instead of `hasRepeats`.
  let shapes: UnsafeMutablePointer<UInt64>
  /// Bit `i` set: slot `i` of `shapes` holds a shape.
  var shapeSlotsFilled: UInt32 = 0
  /// Member counts for which ``shapes`` pays: below, `hasRepeats` costs at most 28 compares.
  static var shapeCounts: ClosedRange<Int> { 8...15 }
  /// The size of the `shapes` memory that ``init(base:count:maxDepth:workspace:shapes:)`` wants,
  /// in `UInt64`s: 960 bytes, within what `withUnsafeTemporaryAllocation` puts on the stack.
  static var shapeWordCount: Int { Self.shapeCounts.count * Self.shapeCounts.upperBound }

  /// A member of an object still open, with its key's ``fingerprint(_:_:)``. Kept together so
  /// that a member costs one push (a separate fingerprint stack cost a second).
  struct PendingMember {
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

  static let quote = UInt8(ascii: "\"")
  static let backslash = UInt8(ascii: "\\")

  @inline(__always)
  func byte(_ offset: Int) -> UInt8 { self.base[offset] }

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

  func unexpected(expecting: String) -> JSONParseError {
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
}
