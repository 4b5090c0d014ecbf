/// Reads what a NATS server sends — `INFO`, `MSG`, `HMSG`, `PING`, `PONG`, `+OK`, `-ERR` — from
/// a byte stream split anywhere.
///
/// ```swift
/// var parser = NATSProtocolParser()
/// var operations: [NATSServerOperation] = []
/// connection.onRead = { bytes in
///   do {
///     try parser.parse(bytes, into: &operations)
///   } catch {
///     // the operations before the bad bytes are in `operations`; then close and reconnect
///   }
///   for operation in operations { handle(operation) }
///   operations.removeAll(keepingCapacity: true)
/// }
/// ```
///
/// **Strict.** Every line ends with CRLF and holds no other control byte; operation names are
/// matched without regard to case, as the server does; arguments have exactly the protocol's
/// shape (`MSG <subject> <sid> [reply-to] <#bytes>`, `HMSG <subject> <sid> [reply-to]
/// <#header bytes> <#total bytes>`); subjects are UTF-8; a payload is followed by CRLF. The
/// contents of a header block are not judged here: publishers put them there and the server
/// passes them on unchecked, so a bad block is a problem of one message (see ``NATSHeaders``),
/// not of the connection.
///
/// **Streaming.** Bytes may arrive split at any point; the result is the same as for one
/// chunk. A message that arrives whole is copied once, straight from the chunk.
///
/// **Bounded.** It holds at most one control line (``NATSProtocolLimits``) and one message;
/// a longer line or a larger message is an error before anything is allocated for it. After an
/// error the parser stays failed: the stream cannot be resynchronised.
public struct NATSProtocolParser: Sendable {
  /// The limits checked; ``NATSProtocolLimits/maxMessageBytes`` may change between calls (a
  /// connection sets it from the server's `max_payload`).
  public var limits: NATSProtocolLimits

  /// A message whose payload is being read.
  private struct PendingMessage: Sendable {
    var subject: String
    var subscriptionID: UInt64
    var replyTo: String?
    /// The size of the header block, `nil` for `MSG`.
    var headerSize: Int?
    var totalSize: Int
  }

  /// The start of a control line that has not ended yet (without its LF).
  private var line: [UInt8] = []
  private var pending: PendingMessage?
  /// The part of the pending message (payload and CRLF) read so far.
  private var body: [UInt8] = []
  private var failure: NATSProtocolError?

  /// Capacity of the message buffer kept after a message; a larger one is released.
  private static let retainedBodyCapacity = 64 * 1024

  /// Creates a parser.
  ///
  /// - Parameter limits: The largest line and message it accepts.
  public init(limits: NATSProtocolLimits = NATSProtocolLimits()) {
    self.limits = limits
  }

  /// Whether the parser is between operations (nothing partial is buffered).
  public var isAtOperationBoundary: Bool {
    self.line.isEmpty && self.pending == nil && self.failure == nil
  }

  /// Reads `bytes`, appending each complete operation to `operations`.
  ///
  /// - Parameters:
  ///   - bytes: The next bytes of the stream.
  ///   - operations: Receives the operations completed by these bytes, in order.
  /// - Throws: ``NATSProtocolError`` at the first violation; `operations` then holds those
  ///   before it, and every later call throws the same error.
  public mutating func parse(
    _ bytes: UnsafeRawBufferPointer, into operations: inout [NATSServerOperation]
  ) throws(NATSProtocolError) {
    if let failure = self.failure { throw failure }
    do {
      try self.parseChunk(bytes, into: &operations)
    } catch {
      self.failure = error
      self.line = []
      self.body = []
      self.pending = nil
      throw error
    }
  }

  private mutating func parseChunk(
    _ bytes: UnsafeRawBufferPointer, into operations: inout [NATSServerOperation]
  ) throws(NATSProtocolError) {
    var index = 0
    let count = bytes.count
    while index < count {
      if let message = self.pending {
        let needed = message.totalSize + 2 - self.body.count
        let available = count - index
        if self.body.isEmpty && available >= needed {
          // The whole message is in this chunk: no intermediate copy.
          let whole = UnsafeRawBufferPointer(rebasing: bytes[index..<(index + needed)])
          operations.append(try Self.finish(message, whole))
          index += needed
          self.pending = nil
        } else {
          let take = min(needed, available)
          if self.body.isEmpty { self.body.reserveCapacity(message.totalSize + 2) }
          self.body.append(contentsOf: bytes[index..<(index + take)])
          index += take
          if take == needed {
            // `withUnsafeBytes` rethrows untyped errors: the typed one travels in a `Result`.
            let finished = self.body.withUnsafeBytes { whole in
              Result { () throws(NATSProtocolError) in try Self.finish(message, whole) }
            }
            operations.append(try finished.get())
            self.pending = nil
            if self.body.capacity > Self.retainedBodyCapacity {
              self.body = []
            } else {
              self.body.removeAll(keepingCapacity: true)
            }
          }
        }
        continue
      }
      let rest = UnsafeRawBufferPointer(rebasing: bytes[index...])
      guard let newline = rest.firstIndex(of: 0x0A) else {
        self.line.append(contentsOf: rest)
        try self.checkLineLength(self.line)
        return
      }
      let segment = UnsafeRawBufferPointer(rebasing: rest[..<newline])
      if self.line.isEmpty {
        try self.handleLine(segment, into: &operations)
      } else {
        self.line.append(contentsOf: segment)
        let complete = self.line
        self.line.removeAll(keepingCapacity: true)
        var handled: Result<Void, NATSProtocolError> = .success(())
        complete.withUnsafeBytes { line in
          handled = Result { () throws(NATSProtocolError) in
            try self.handleLine(line, into: &operations)
          }
        }
        try handled.get()
      }
      index += newline + 1
    }
  }

  /// Fails when `line` (so far) is longer than its operation allows.
  private func checkLineLength(_ line: some Collection<UInt8>) throws(NATSProtocolError) {
    guard line.count > self.limits.maxControlLineBytes else { return }
    let isInfo = Self.hasPrefix(line, caseInsensitive: "INFO")
    let limit = isInfo ? self.limits.maxInfoBytes : self.limits.maxControlLineBytes
    if line.count > limit {
      throw NATSProtocolError(.controlLineTooLong(limit: limit), excerpt: line.prefix(32))
    }
  }

  /// Interprets one control line, given without its LF.
  private mutating func handleLine(
    _ raw: UnsafeRawBufferPointer, into operations: inout [NATSServerOperation]
  ) throws(NATSProtocolError) {
    try self.checkLineLength(raw)
    guard let last = raw.last, last == 0x0D else {
      throw NATSProtocolError(.badLineEnding, excerpt: raw)
    }
    let line = UnsafeRawBufferPointer(rebasing: raw[..<(raw.count - 1)])
    for byte in line where (byte < 0x20 && byte != 0x09) || byte == 0x7F {
      throw NATSProtocolError(.badLineEnding, excerpt: line)
    }
    let nameEnd = line.firstIndex { $0 == 0x20 || $0 == 0x09 } ?? line.count
    let name = UnsafeRawBufferPointer(rebasing: line[..<nameEnd])
    let arguments = UnsafeRawBufferPointer(rebasing: line[nameEnd...])
    if Self.equals(name, caseInsensitive: "MSG") || Self.equals(name, caseInsensitive: "HMSG") {
      self.pending = try self.parseMessageArguments(
        arguments, hasHeaders: name.count == 4, line: line)
      return
    }
    if Self.equals(name, caseInsensitive: "PING") {
      try Self.expectNoArguments(arguments, line: line)
      operations.append(.ping)
    } else if Self.equals(name, caseInsensitive: "PONG") {
      try Self.expectNoArguments(arguments, line: line)
      operations.append(.pong)
    } else if Self.equals(name, caseInsensitive: "+OK") {
      try Self.expectNoArguments(arguments, line: line)
      operations.append(.ok)
    } else if Self.equals(name, caseInsensitive: "-ERR") {
      var text = Self.trimmed(arguments)
      if text.count >= 2, text.first == 0x27, text.last == 0x27 {
        text = UnsafeRawBufferPointer(rebasing: text[(text.startIndex + 1)..<(text.endIndex - 1)])
      }
      operations.append(.error(String(decoding: text, as: UTF8.self)))
    } else if Self.equals(name, caseInsensitive: "INFO") {
      let json = Self.trimmed(arguments)
      guard !json.isEmpty, arguments.first == 0x20 || arguments.first == 0x09 else {
        throw NATSProtocolError(.malformedArguments, excerpt: line)
      }
      operations.append(.info(Array(json)))
    } else {
      throw NATSProtocolError(.unknownOperation, excerpt: line)
    }
  }

  private func parseMessageArguments(
    _ arguments: UnsafeRawBufferPointer, hasHeaders: Bool, line: UnsafeRawBufferPointer
  ) throws(NATSProtocolError) -> PendingMessage {
    let fields = arguments.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
    let sizeCount = hasHeaders ? 2 : 1
    guard fields.count == 2 + sizeCount || fields.count == 3 + sizeCount else {
      throw NATSProtocolError(.malformedArguments, excerpt: line)
    }
    let subject = try Self.subject(fields[0], line: line)
    guard let subscriptionID = Self.decimal(fields[1]) else {
      throw NATSProtocolError(.malformedArguments, excerpt: line)
    }
    let replyTo = fields.count == 3 + sizeCount ? try Self.subject(fields[2], line: line) : nil
    guard let totalSize = Self.decimal(fields[fields.count - 1]), totalSize <= Int.max - 2 else {
      throw NATSProtocolError(.malformedArguments, excerpt: line)
    }
    var headerSize: Int?
    if hasHeaders {
      guard let size = Self.decimal(fields[fields.count - 2]), size <= totalSize else {
        throw NATSProtocolError(.malformedArguments, excerpt: line)
      }
      headerSize = Int(size)
    }
    guard totalSize <= UInt64(self.limits.maxMessageBytes) else {
      throw NATSProtocolError(
        .messageTooLarge(size: Int(clamping: totalSize), limit: self.limits.maxMessageBytes),
        excerpt: line)
    }
    return PendingMessage(
      subject: subject, subscriptionID: subscriptionID, replyTo: replyTo, headerSize: headerSize,
      totalSize: Int(totalSize))
  }

  /// The operation for a message whose payload and CRLF are `whole`.
  private static func finish(
    _ message: PendingMessage, _ whole: UnsafeRawBufferPointer
  ) throws(NATSProtocolError) -> NATSServerOperation {
    let total = message.totalSize
    guard whole[total] == 0x0D, whole[total + 1] == 0x0A else {
      throw NATSProtocolError(.missingPayloadTerminator, excerpt: whole[total...])
    }
    let headerSize = message.headerSize ?? 0
    let headerBytes = message.headerSize.map { Array(whole[..<$0]) }
    return .message(
      NATSRawMessage(
        subject: message.subject, subscriptionID: message.subscriptionID,
        replyTo: message.replyTo, headerBytes: headerBytes,
        payload: Array(whole[headerSize..<total])))
  }

  // MARK: - Lexical helpers

  private static func subject(
    _ bytes: Slice<UnsafeRawBufferPointer>, line: UnsafeRawBufferPointer
  ) throws(NATSProtocolError) -> String {
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw NATSProtocolError(.invalidSubject, excerpt: line)
    }
    return text
  }

  /// A non-negative decimal of at most 19 digits, no sign, no leading `+`.
  static func decimal(_ bytes: Slice<UnsafeRawBufferPointer>) -> UInt64? {
    guard !bytes.isEmpty, bytes.count <= 19 else { return nil }
    var value: UInt64 = 0
    for byte in bytes {
      guard byte >= 0x30, byte <= 0x39 else { return nil }
      value = value * 10 + UInt64(byte - 0x30)
    }
    return value
  }

  private static func expectNoArguments(
    _ arguments: UnsafeRawBufferPointer, line: UnsafeRawBufferPointer
  ) throws(NATSProtocolError) {
    guard Self.trimmed(arguments).isEmpty else {
      throw NATSProtocolError(.malformedArguments, excerpt: line)
    }
  }

  private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }) else {
      return UnsafeRawBufferPointer(rebasing: bytes[0..<0])
    }
    let last = bytes.lastIndex(where: { !isSpace($0) })!
    return UnsafeRawBufferPointer(rebasing: bytes[first...last])
  }

  private static func equals(_ bytes: UnsafeRawBufferPointer, caseInsensitive word: StaticString)
    -> Bool
  {
    bytes.count == word.utf8CodeUnitCount && Self.hasPrefix(bytes, caseInsensitive: word)
  }

  private static func hasPrefix(_ bytes: some Collection<UInt8>, caseInsensitive word: StaticString)
    -> Bool
  {
    guard bytes.count >= word.utf8CodeUnitCount else { return false }
    return word.withUTF8Buffer { expected in
      zip(bytes, expected).allSatisfy { byte, letter in
        // ASCII letters compare without case; other bytes exactly.
        let folded = (byte >= 0x61 && byte <= 0x7A) ? byte - 0x20 : byte
        return folded == letter
      }
    }
  }
}
