/// A failure of the NATS client, with a message that says what happened and what to do.
///
/// ```swift
/// do {
///   let ack = try await jetStream.publish(record, to: "journal.counter", options: options)
/// } catch let error where error.isWrongLastSequence {
///   // another writer appended since: this host is fenced
/// } catch let error where error.code == .connectionLost {
///   // unknown outcome: retry with the same Nats-Msg-Id
/// }
/// ```
public struct NATSError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Code: Sendable, Hashable {
    /// No server could be reached: every address refused, timed out or failed the handshake.
    case noServersAvailable
    /// The connection to the server was lost (or could not be made) and is being re-established.
    case disconnected
    /// A request had been sent on a connection that was then lost: it may or may not have been
    /// processed. Retry it only if doing so twice is harmless (a JetStream publish with the
    /// same `Nats-Msg-Id` is stored once).
    case connectionLost
    /// No reply within the time allowed.
    case timedOut
    /// Nobody subscribes to the request's subject (the server answered `503`); for a JetStream
    /// publish, no stream captures the subject, or JetStream is not enabled.
    case noResponders
    /// The message is larger than the server accepts (its `max_payload`): nothing was sent.
    case maxPayloadExceeded(size: Int, limit: Int)
    /// Publishing while reconnecting would buffer more than the configured bytes.
    case reconnectBufferFull(limit: Int)
    /// The server is not reading: more than the configured bytes wait to be sent.
    case outputBufferFull(limit: Int)
    /// A subject, reply subject or queue group that the protocol cannot carry.
    case invalidSubject
    /// A header that the protocol cannot carry (a CR or LF in a value, a bad name).
    case invalidHeader
    /// The server sent bytes that break the protocol; the connection was dropped.
    case protocolViolation
    /// The server reported an error (`-ERR`).
    case serverError
    /// The server refused the credentials.
    case authorizationViolation
    /// The server requires TLS, which this client does not implement.
    case tlsRequired
    /// The connection was closed by its owner.
    case closed
    /// A subscriber did not keep up and its bounded buffer overflowed; the subscription ended.
    case slowConsumer(limit: Int)
    /// The JetStream API answered with an error: its HTTP-like status and its `err_code`
    /// (10071: wrong last sequence; 10059: stream not found; 10058: stream name in use…).
    case jetStream(status: Int, errorCode: Int)
    /// The requested message or stream does not exist.
    case notFound
    /// A reply that does not have the shape the API promises.
    case invalidResponse
    /// The server accepted a stream or consumer configuration but echoed back different
    /// settings — an older server ignores the fields it does not know.
    case configurationNotApplied
    /// A setting of the client that cannot work (a malformed server URL).
    case invalidConfiguration
  }

  /// What went wrong.
  public var code: Code
  /// The explanation for a person.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - code: What went wrong.
  ///   - message: The explanation for a person.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// The explanation.
  public var description: String { self.message }

  /// JetStream's `err_code`, when the JetStream API refused the request.
  public var jetStreamErrorCode: Int? {
    if case .jetStream(_, let errorCode) = self.code { return errorCode }
    return nil
  }

  /// Whether a JetStream publish was refused because its `Nats-Expected-Last-Sequence` or
  /// `Nats-Expected-Last-Subject-Sequence` was not the stream's (err_code 10071): another
  /// writer appended first. The publisher is fenced.
  public var isWrongLastSequence: Bool { self.jetStreamErrorCode == JetStreamErrorCode.wrongLastSequence }

  /// Whether a JetStream publish was refused because its `Nats-Expected-Last-Msg-Id` was not
  /// the id of the stream's last message (err_code 10070): another writer appended first.
  public var isWrongLastMessageID: Bool {
    self.jetStreamErrorCode == JetStreamErrorCode.wrongLastMessageID
  }

  /// Whether the outcome of the operation is unknown (it may have been applied): a timeout, or
  /// a connection lost after the request left.
  public var isOutcomeUnknown: Bool { self.code == .timedOut || self.code == .connectionLost }
}

/// JetStream's `err_code` values that callers act upon (nats-server's errors.json).
public enum JetStreamErrorCode {
  /// A publish's expected last sequence (stream or subject) did not match.
  public static let wrongLastSequence = 10071
  /// A publish's expected last message id did not match.
  public static let wrongLastMessageID = 10070
  /// A publish's expected stream name did not match.
  public static let streamNotMatch = 10060
  /// The stream does not exist.
  public static let streamNotFound = 10059
  /// A stream with that name exists with another configuration.
  public static let streamNameInUse = 10058
  /// The consumer does not exist.
  public static let consumerNotFound = 10014
  /// No message matches (a get by sequence or by subject).
  public static let noMessageFound = 10037
  /// JetStream has no leader right now (an election is in progress): retry.
  public static let temporarilyUnavailable = 10008
}
