/// A message from a client to a host (PROTOCOL.md §2, "Client → host").
///
/// ```swift
/// let message = try ClientMessage(json: payload)   // after JSON(parsing:)
/// switch message {
/// case .send(let id, let scope, let action): …
/// default: …
/// }
/// ```
///
/// Decoding ignores unknown members; a missing or mistyped member throws a ``MessageError``
/// with code ``ErrorCode/badMessage`` that names the member and carries the request's `id`.
public enum ClientMessage: Sendable, Hashable {
  /// The handshake, which must be the first frame. `protocol` is `nil` when missing or not an
  /// integer — the host answers `unsupported_protocol` then; `client` is the client's name.
  case hello(protocol: Int64?, client: String?)
  /// Lists the scopes the host exposes; answered by ``HostMessage/scopes(id:scopes:)``.
  case scopes(id: Int64)
  /// Reads a scope's state once — now, or at the past revision `at` (§8) — answered by
  /// ``HostMessage/state(id:scope:rev:state:)``.
  case get(id: Int64, scope: String, at: Int64? = nil)
  /// Subscribes to a scope; answered by ``HostMessage/subscribed(id:sub:scope:rev:state:)``.
  case subscribe(id: Int64, scope: String)
  /// Ends a subscription; answered by ``HostMessage/ok(id:)``.
  case unsubscribe(id: Int64, sub: Int64)
  /// Sends an action to a writable scope; answered by ``HostMessage/ack(id:rev:)`` when `id`
  /// is given, and by ``HostMessage/error(id:code:message:)`` on failure either way.
  case send(id: Int64?, scope: String, action: JSON)
  /// Liveness check; answered by ``HostMessage/pong(id:)``.
  case ping(id: Int64)
  /// Reads reduced actions (§8): those after `since`, or the last `limit` (default 100, at most
  /// ``historyLimitMaximum``), only those sent to `scope` (a name or a pattern) when given;
  /// answered by ``HostMessage/history(id:oldest:rev:entries:)``.
  case history(id: Int64, since: Int64?, limit: Int64?, scope: String?)
  /// Follows reduced actions as they happen (§8), from after `since` when given; answered by
  /// ``HostMessage/tailing(id:sub:rev:)``, then ``HostMessage/entry(sub:entry:)`` pushes.
  case tail(id: Int64, since: Int64?, scope: String?)

  /// The protocol version this module speaks.
  public static let protocolVersion: Int64 = 1

  /// The most entries one `history` request returns (§8); a larger `limit` is read as this.
  public static let historyLimitMaximum: Int64 = 10_000

  /// Decodes a message from its JSON form.
  ///
  /// - Parameter json: The parsed payload of one frame.
  /// - Throws: ``MessageError`` — ``ErrorCode/badJSON`` if the top level is not an object,
  ///   ``ErrorCode/badMessage`` for an unknown `type` or a missing or mistyped member.
  public init(json: JSON) throws(MessageError) {
    let reader = try MessageReader(json)
    switch (reader.typeLength, reader.type) {
    case (5, "hello"):
      // Lenient on purpose: a handshake ends in `welcome` or `unsupported_protocol`, never in
      // `bad_message`, so a strange `protocol` or `client` is read as absent.
      let version = reader.member("protocol").flatMap(MessageReader.integer)
      let client: String? =
        if case .string(let name) = reader.member("client") { name } else { nil }
      self = .hello(protocol: version, client: client)
    case (6, "scopes"):
      self = .scopes(id: try reader.int("id"))
    case (3, "get"):
      self = .get(
        id: try reader.int("id"), scope: try reader.string("scope"),
        at: try reader.optionalInt("at"))
    case (9, "subscribe"):
      self = .subscribe(id: try reader.int("id"), scope: try reader.string("scope"))
    case (11, "unsubscribe"):
      self = .unsubscribe(id: try reader.int("id"), sub: try reader.int("sub"))
    case (4, "send"):
      self = .send(
        id: try reader.optionalInt("id"), scope: try reader.string("scope"),
        action: try reader.value("action"))
    case (4, "ping"):
      self = .ping(id: try reader.int("id"))
    case (7, "history"):
      let id = try reader.int("id")
      let limit = try reader.optionalInt("limit")
      if let limit, limit < 1 {
        throw MessageError(
          code: .badMessage, id: id,
          message: "history: 'limit' must be at least 1 (at most \(Self.historyLimitMaximum))")
      }
      self = .history(
        id: id, since: try reader.optionalInt("since"), limit: limit,
        scope: try reader.optionalString("scope"))
    case (4, "tail"):
      self = .tail(
        id: try reader.int("id"), since: try reader.optionalInt("since"),
        scope: try reader.optionalString("scope"))
    default:
      throw reader.unknownType()
    }
  }

  /// The message `type`, e.g. `"subscribe"`.
  public var type: String { self.typeName }

  /// The request's `id`, if it has one.
  public var id: Int64? {
    switch self {
    case .hello: nil
    case .scopes(let id), .get(let id, _, _), .subscribe(let id, _), .unsubscribe(let id, _),
      .ping(let id), .history(let id, _, _, _), .tail(let id, _, _):
      id
    case .send(let id, _, _): id
    }
  }

  /// The message as a JSON object, `type` first, optional members omitted when `nil`.
  public var json: JSON { self.jsonObject }

  /// Appends the message as one frame — length prefix and compact JSON — to `buffer`, writing
  /// the JSON in place without building an intermediate ``JSON`` value.
  ///
  /// - Parameter buffer: The output buffer, e.g. a connection's outbound buffer.
  public func encodeFrame(into buffer: inout [UInt8]) {
    FrameEncoder.appendFrame(to: &buffer) { (out: inout [UInt8]) in self.writeJSON(into: &out) }
  }
}

extension ClientMessage: ProtocolMessage {
  var opening: StaticString {
    switch self {
    case .hello: #"{"type":"hello""#
    case .scopes: #"{"type":"scopes""#
    case .get: #"{"type":"get""#
    case .subscribe: #"{"type":"subscribe""#
    case .unsubscribe: #"{"type":"unsubscribe""#
    case .send: #"{"type":"send""#
    case .ping: #"{"type":"ping""#
    case .history: #"{"type":"history""#
    case .tail: #"{"type":"tail""#
    }
  }

  func members<Sink: MessageSink>(into sink: inout Sink) {
    switch self {
    case .hello(let version, let client):
      if let version { sink.member(#","protocol":"#, version) }
      if let client { sink.member(#","client":"#, client) }
    case .scopes(let id), .ping(let id):
      sink.member(#","id":"#, id)
    case .get(let id, let scope, let at):
      sink.member(#","id":"#, id)
      sink.member(#","scope":"#, scope)
      if let at { sink.member(#","at":"#, at) }
    case .subscribe(let id, let scope):
      sink.member(#","id":"#, id)
      sink.member(#","scope":"#, scope)
    case .unsubscribe(let id, let sub):
      sink.member(#","id":"#, id)
      sink.member(#","sub":"#, sub)
    case .send(let id, let scope, let action):
      if let id { sink.member(#","id":"#, id) }
      sink.member(#","scope":"#, scope)
      sink.member(#","action":"#, action)
    case .history(let id, let since, let limit, let scope):
      sink.member(#","id":"#, id)
      if let since { sink.member(#","since":"#, since) }
      if let limit { sink.member(#","limit":"#, limit) }
      if let scope { sink.member(#","scope":"#, scope) }
    case .tail(let id, let since, let scope):
      sink.member(#","id":"#, id)
      if let since { sink.member(#","since":"#, since) }
      if let scope { sink.member(#","scope":"#, scope) }
    }
  }
}

// MARK: - The compact send fast path

extension ClientMessage {
  /// Reads a `send` payload written in the usual compact shape without building its envelope:
  /// only the action is parsed into a ``JSON`` value.
  ///
  /// ```swift
  /// let message = try ClientMessage(compactSend: payload)
  ///   ?? ClientMessage(json: JSON(parsing: payload))
  /// ```
  ///
  /// The shape is the one ``encodeFrame(into:)`` writes: `type` first, then `id` (an integer or
  /// `null`) if present, `scope`, `action`, in that order, with nothing after `action`;
  /// whitespace between tokens is allowed. The scope must be printable ASCII without escapes.
  /// Anything else — another type or order, an unknown member, a scope with escapes, invalid
  /// JSON — gives `nil`, and the payload should go through ``JSON`` and ``init(json:)``, which
  /// produce the same message for every payload this accepts and the errors for the rest.
  ///
  /// - Parameter payload: One frame's payload.
  /// - Returns: The `send` message, or `nil` when the payload is not in the compact shape.
  public init?(compactSend payload: UnsafeRawBufferPointer) {
    guard let message = CompactSendReader.read(payload) else { return nil }
    self = message
  }

  /// Reads a `send` payload in the compact shape; see ``init(compactSend:)-(UnsafeRawBufferPointer)``.
  ///
  /// - Parameter payload: One frame's payload, e.g. a slice returned by
  ///   ``FrameDecoder/nextFrame()``.
  /// - Returns: The `send` message, or `nil` when the payload is not in the compact shape.
  public init?(compactSend payload: ArraySlice<UInt8>) {
    guard let message = payload.withUnsafeBytes({ CompactSendReader.read($0) }) else {
      return nil
    }
    self = message
  }
}

/// The reader behind ``ClientMessage/init(compactSend:)-(UnsafeRawBufferPointer)``: a cursor
/// over the envelope's bytes that gives up (`nil`) at the first thing it does not expect.
private struct CompactSendReader {
  let bytes: UnsafeRawBufferPointer
  var position = 0

  static func read(_ payload: UnsafeRawBufferPointer) -> ClientMessage? {
    var reader = CompactSendReader(bytes: payload)
    return reader.readSend()
  }

  private mutating func readSend() -> ClientMessage? {
    // Most senders write no whitespace between tokens, so each run of punctuation and names
    // is first compared whole; token by token (whitespace allowed) only where that fails.
    guard
      self.take(#"{"type":"send","#)
        || (self.take("{") && self.take(#""type""#) && self.take(":") && self.take(#""send""#)
          && self.take(","))
    else { return nil }
    var hasID = self.take(#""id":"#)
    if !hasID, self.take(#""id""#) {
      guard self.take(":") else { return nil }
      hasID = true
    }
    var id: Int64?
    if hasID {
      if self.take("null") {
        id = nil
      } else {
        guard let integer = self.integer() else { return nil }
        id = integer
      }
      guard self.take(",") else { return nil }
    }
    guard self.take(#""scope":"#) || (self.take(#""scope""#) && self.take(":")),
      let scope = self.plainString(),
      self.take(#","action":"#)
        || (self.take(",") && self.take(#""action""#) && self.take(":"))
    else { return nil }
    // The action runs to the envelope's closing brace, the last byte but whitespace. If that
    // span is not exactly one JSON value, the envelope was not in the compact shape (or not
    // JSON at all). The envelope is one level of nesting, so the action gets one level less.
    self.skipWhitespace()
    var end = self.bytes.count
    while end > self.position, Self.isWhitespace(self.bytes[end - 1]) { end -= 1 }
    guard end > self.position, self.bytes[end - 1] == UInt8(ascii: "}") else { return nil }
    let span = UnsafeRawBufferPointer(rebasing: self.bytes[self.position..<end - 1])
    guard !span.isEmpty,
      let action = try? JSON(parsing: span, maxDepth: JSON.defaultMaxDepth - 1)
    else { return nil }
    return .send(id: id, scope: scope, action: action)
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  private mutating func skipWhitespace() {
    while self.position < self.bytes.count, Self.isWhitespace(self.bytes[self.position]) {
      self.position += 1
    }
  }

  /// Skips whitespace, then `token` if it comes next.
  @inline(__always)
  private mutating func take(_ token: StaticString) -> Bool {
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
  private static func equal(_ a: UnsafeRawPointer, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    let other = UnsafeRawPointer(b)
    if count >= 8 {
      var offset = 0
      while offset < count - 8 {
        guard a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
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
  private mutating func integer() -> Int64? {
    var index = self.position
    let negative = index < self.bytes.count && self.bytes[index] == UInt8(ascii: "-")
    if negative { index += 1 }
    let first = index
    var value: Int64 = 0
    while index < self.bytes.count, case let digit = self.bytes[index] &- UInt8(ascii: "0"),
      digit < 10
    {
      value = value * 10 + Int64(digit)
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
  private mutating func plainString() -> String? {
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
