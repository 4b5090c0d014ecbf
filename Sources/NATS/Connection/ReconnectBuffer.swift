/// Publishes made while no server is connected, in order, bounded in bytes; sent after the
/// handshake of the next connection.
struct ReconnectBuffer {
  struct Entry {
    /// The end of the entry's encoded bytes in ``bytes``.
    var end: Int
    /// The message's size for the server's `max_payload` (headers and payload).
    var messageSize: Int
    /// The request whose message this is, if any.
    var requestToken: UInt64?
  }

  let limit: Int
  private(set) var bytes: [UInt8] = []
  private(set) var entries: [Entry] = []

  init(limit: Int) {
    self.limit = limit
  }

  var isEmpty: Bool { self.entries.isEmpty }

  /// Appends one encoded publish; `false` (and nothing appended) if it would exceed the limit.
  mutating func append(
    messageSize: Int, requestToken: UInt64?, encode: (inout [UInt8]) -> Void
  ) -> Bool {
    let start = self.bytes.count
    encode(&self.bytes)
    guard self.bytes.count <= self.limit else {
      self.bytes.removeSubrange(start...)
      return false
    }
    self.entries.append(Entry(end: self.bytes.count, messageSize: messageSize, requestToken: requestToken))
    return true
  }

  /// Empties the buffer, handing each entry and its bytes to `body` in order.
  mutating func drain(_ body: (Entry, ArraySlice<UInt8>) -> Void) {
    var start = 0
    for entry in self.entries {
      body(entry, self.bytes[start..<entry.end])
      start = entry.end
    }
    self.bytes = []
    self.entries = []
  }
}
