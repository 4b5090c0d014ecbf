/// One operation a NATS server sent, as ``NATSProtocolParser`` reads it.
public enum NATSServerOperation: Sendable, Equatable {
  /// `INFO {json}`: the server's description (the JSON text, not yet decoded).
  case info([UInt8])
  /// `MSG` or `HMSG`: a message for one of the client's subscriptions.
  case message(NATSRawMessage)
  /// `PING`: the server checks that the client is alive (answer `PONG`).
  case ping
  /// `PONG`: the answer to the client's `PING`.
  case pong
  /// `+OK`: an acknowledgement in verbose mode.
  case ok
  /// `-ERR 'text'`: an error; most close the connection (the text without its quotes).
  case error(String)
}

/// A message as it came off the wire: framing checked, headers not yet interpreted.
public struct NATSRawMessage: Sendable, Equatable {
  /// The subject it was published to.
  public var subject: String
  /// The subscription it is for (the client's `sid`).
  public var subscriptionID: UInt64
  /// The subject to reply to, if the publisher gave one.
  public var replyTo: String?
  /// The header block (`NATS/1.0…` through its empty line) of an `HMSG`; `nil` for `MSG`.
  public var headerBytes: [UInt8]?
  /// The payload.
  public var payload: [UInt8]

  /// Creates a message.
  public init(
    subject: String, subscriptionID: UInt64, replyTo: String?, headerBytes: [UInt8]?,
    payload: [UInt8]
  ) {
    self.subject = subject
    self.subscriptionID = subscriptionID
    self.replyTo = replyTo
    self.headerBytes = headerBytes
    self.payload = payload
  }
}

/// How much the parser keeps at most: a server cannot make it hold more.
public struct NATSProtocolLimits: Sendable, Equatable {
  /// The longest control line other than `INFO` (nats-server's own limit is 4,096 bytes).
  public var maxControlLineBytes: Int
  /// The longest `INFO` line (its JSON lists the cluster's URLs, so it may be long).
  public var maxInfoBytes: Int
  /// The largest message, headers and payload together.
  public var maxMessageBytes: Int

  /// Creates limits.
  public init(
    maxControlLineBytes: Int = 4096, maxInfoBytes: Int = 256 * 1024,
    maxMessageBytes: Int = 8 * 1024 * 1024
  ) {
    self.maxControlLineBytes = maxControlLineBytes
    self.maxInfoBytes = maxInfoBytes
    self.maxMessageBytes = maxMessageBytes
  }
}
