// The host's fast path for the message it reads most: a `send` in the shape senders write.

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
    guard let message = CompactReader.readSend(payload) else { return nil }
    self = message
  }

  /// Reads a `send` payload in the compact shape; see ``init(compactSend:)-(UnsafeRawBufferPointer)``.
  ///
  /// - Parameter payload: One frame's payload, e.g. a slice returned by
  ///   ``FrameDecoder/nextFrame()``.
  /// - Returns: The `send` message, or `nil` when the payload is not in the compact shape.
  public init?(compactSend payload: ArraySlice<UInt8>) {
    guard let message = payload.withUnsafeBytes({ CompactReader.readSend($0) }) else {
      return nil
    }
    self = message
  }
}

// MARK: - The reader

extension CompactReader {
  /// The `send` message in `payload`, or `nil` when it is not in the compact shape.
  static func readSend(_ payload: UnsafeRawBufferPointer) -> ClientMessage? {
    var reader = CompactReader(bytes: payload)
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
}
