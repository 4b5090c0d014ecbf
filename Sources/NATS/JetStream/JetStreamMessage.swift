/// A message delivered by a JetStream consumer, with its place in the stream (read from the
/// reply subject the server gives each delivery).
public struct JetStreamMessage: Sendable, Equatable {
  /// The subject it was published to.
  public var subject: String
  /// Its headers.
  public var headers: NATSHeaders?
  /// The payload.
  public var payload: [UInt8]
  /// The stream.
  public var stream: String
  /// The consumer that delivered it.
  public var consumer: String
  /// Its sequence in the stream.
  public var streamSequence: UInt64
  /// Its sequence among the consumer's deliveries (1, 2, 3… with no gap unless one was lost).
  public var consumerSequence: UInt64
  /// How many times it has been delivered.
  public var deliveryCount: UInt64
  /// When it was stored, in nanoseconds since 1970.
  public var timestamp: Int64
  /// How many messages the consumer had left to deliver after this one.
  public var pending: UInt64
}

/// The metadata in a consumer delivery's reply subject: `$JS.ACK.<stream>.<consumer>.
/// <delivered>.<stream seq>.<consumer seq>.<timestamp>.<pending>` (nats-server 2.9), or the
/// newer form with a domain and an account hash after `$JS.ACK` and a random token at the end.
struct JetStreamAckMetadata: Equatable {
  var stream: String
  var consumer: String
  var deliveryCount: UInt64
  var streamSequence: UInt64
  var consumerSequence: UInt64
  var timestamp: Int64
  var pending: UInt64

  init?(replySubject: String) {
    let tokens = replySubject.split(separator: ".", omittingEmptySubsequences: false)
    guard tokens.count >= 9, tokens[0] == "$JS", tokens[1] == "ACK" else { return nil }
    let offset: Int
    switch tokens.count {
    case 9: offset = 2
    case 11, 12: offset = 4
    default: return nil
    }
    guard let delivered = UInt64(tokens[offset + 2]), let streamSequence = UInt64(tokens[offset + 3]),
      let consumerSequence = UInt64(tokens[offset + 4]), let timestamp = Int64(tokens[offset + 5]),
      let pending = UInt64(tokens[offset + 6])
    else { return nil }
    self.stream = String(tokens[offset])
    self.consumer = String(tokens[offset + 1])
    self.deliveryCount = delivered
    self.streamSequence = streamSequence
    self.consumerSequence = consumerSequence
    self.timestamp = timestamp
    self.pending = pending
  }
}
