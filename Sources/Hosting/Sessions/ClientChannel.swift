import Wire

/// What the host needs from a client's connection: a coalescing write path, backpressure and
/// close. ``UnixConnection`` provides it in production.
@usableFromInline
protocol ClientChannel: AnyObject {
  /// Bytes accepted by ``write(_:)`` but not yet taken by the kernel.
  var outboundBytes: Int { get }
  /// Whether the kernel refused queued bytes because the client is not reading — or a send to
  /// it failed (it has left): pushes and tail entries are then not computed for it.
  var isBackedUp: Bool { get }
  /// Queues bytes; they leave with everything else queued in this loop iteration.
  func write(_ bytes: [UInt8])
  /// Sends what is queued now, as far as the socket takes it without blocking.
  func flush()
  /// Stops (or resumes) reading requests, so a client that does not read its replies cannot
  /// make the host buffer without bound.
  func setReadingPaused(_ paused: Bool)
  /// Flushes what it can of the queued bytes, then closes.
  func close()
}

extension UnixConnection: ClientChannel {
  @usableFromInline
  func setReadingPaused(_ paused: Bool) {
    isReadingEnabled = !paused
  }
}
