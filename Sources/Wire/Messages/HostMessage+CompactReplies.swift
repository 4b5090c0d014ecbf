// A client's fast paths for what a busy host sends most: its small fixed-shape replies, and the
// revisions at the head of a patch.

extension HostMessage {
  /// Reads an `ack`, `ok` or `pong` written in the compact shape ``encodeFrame(into:)`` writes
  /// (`{"type":"ack","id":2,"rev":42}`), without building a ``JSON`` value.
  ///
  /// ```swift
  /// let message = try HostMessage(compactReply: payload)
  ///   ?? HostMessage(json: JSON(parsing: payload))
  /// ```
  ///
  /// Members in that order, integers in JSON's plainest form (at most 18 digits), whitespace
  /// between tokens allowed. Anything else gives `nil`, and the payload should go through
  /// ``JSON`` and ``init(json:)``, which read every payload this accepts as the same message.
  ///
  /// - Parameter payload: One frame's payload.
  /// - Returns: The reply, or `nil` when the payload is not a compact `ack`, `ok` or `pong`.
  public init?(compactReply payload: UnsafeRawBufferPointer) {
    var reader = CompactReader(bytes: payload)
    guard let message = reader.readReply() else { return nil }
    self = message
  }

  /// The `sub`, `base` and `rev` of a `patch` in the compact shape ``encodeFrame(into:)``
  /// writes (`{"type":"patch","sub":1,"base":41,"rev":42,"ops":[…]}`), read without parsing
  /// its operations — for a client that stamps each patch as it arrives and applies it later.
  ///
  /// Only the head is read: the operations are not checked, so decode the payload before
  /// applying them. Anything else gives `nil`.
  ///
  /// - Parameter payload: One frame's payload.
  /// - Returns: The subscription and the revisions the patch goes from and to.
  public static func compactPatchRevisions(
    _ payload: UnsafeRawBufferPointer
  ) -> (sub: Int64, base: Int64, rev: Int64)? {
    var reader = CompactReader(bytes: payload)
    return reader.readPatchRevisions()
  }
}

extension CompactReader {
  fileprivate mutating func readReply() -> HostMessage? {
    let message: HostMessage
    if self.take(#"{"type":"ack","id":"#) {
      guard let id = self.integer(), self.take(#","rev":"#), let rev = self.integer() else {
        return nil
      }
      message = .ack(id: id, rev: rev)
    } else if self.take(#"{"type":"pong","id":"#) {
      guard let id = self.integer() else { return nil }
      message = .pong(id: id)
    } else if self.take(#"{"type":"ok","id":"#) {
      guard let id = self.integer() else { return nil }
      message = .ok(id: id)
    } else {
      return nil
    }
    guard self.take("}") else { return nil }
    self.skipWhitespace()
    return self.position == self.bytes.count ? message : nil
  }

  fileprivate mutating func readPatchRevisions() -> (sub: Int64, base: Int64, rev: Int64)? {
    guard self.take(#"{"type":"patch","sub":"#), let sub = self.integer(),
      self.take(#","base":"#), let base = self.integer(),
      self.take(#","rev":"#), let rev = self.integer(),
      self.take(#","ops":["#)
    else { return nil }
    return (sub, base, rev)
  }
}
