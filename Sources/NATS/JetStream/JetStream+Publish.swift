import Wire

/// The headers of a JetStream publish that the stream acts on.
public struct JetStreamPublishOptions: Sendable, Equatable {
  /// What a rollup message purges.
  public enum Rollup: String, Sendable {
    /// Every earlier message on the same subject.
    case subject = "sub"
    /// Every earlier message of the stream.
    case all
  }

  /// `Nats-Msg-Id`: a publish with an id the stream stored within its duplicate window is not
  /// stored again; its ack says ``JetStreamPublishAck/isDuplicate`` and gives the first one's
  /// sequence.
  public var messageID: String?
  /// `Nats-Expected-Stream`: refused unless the subject is captured by this stream.
  public var expectedStream: String?
  /// `Nats-Expected-Last-Sequence`: refused (err_code 10071) unless the stream's last sequence
  /// is this one — `0` for an empty stream. A fencing token: no other writer appended since.
  public var expectedLastSequence: UInt64?
  /// `Nats-Expected-Last-Subject-Sequence`: refused (err_code 10071) unless the last message
  /// on this subject has this sequence (`0`: none).
  public var expectedLastSubjectSequence: UInt64?
  /// `Nats-Expected-Last-Msg-Id`: refused (err_code 10070) unless the stream's last message
  /// had this id.
  public var expectedLastMessageID: String?
  /// `Nats-Rollup`: purges earlier messages once this one is stored (the stream must allow
  /// rollups).
  public var rollup: Rollup?
  /// Other headers to send with the message.
  public var headers: NATSHeaders?

  /// No option.
  public init() {}

  /// The header block, or `nil` when there is no header at all.
  func headerBlock() throws(NATSError) -> [UInt8]? {
    var fields: [(String, String)] = []
    if let messageID { fields.append(("Nats-Msg-Id", messageID)) }
    if let expectedStream { fields.append(("Nats-Expected-Stream", expectedStream)) }
    if let expectedLastSequence { fields.append(("Nats-Expected-Last-Sequence", String(expectedLastSequence))) }
    if let expectedLastSubjectSequence {
      fields.append(("Nats-Expected-Last-Subject-Sequence", String(expectedLastSubjectSequence)))
    }
    if let expectedLastMessageID { fields.append(("Nats-Expected-Last-Msg-Id", expectedLastMessageID)) }
    if let rollup { fields.append(("Nats-Rollup", rollup.rawValue)) }
    guard !fields.isEmpty || !(self.headers?.isEmpty ?? true) else { return nil }
    var headers = self.headers ?? NATSHeaders()
    for (name, value) in fields { headers[name] = value }
    return try NATSConnection.encode(headers)
  }
}

/// A stream's acknowledgement of a publish: the message is stored — on nats-server 2.9, held
/// by a majority of the stream's replicas (written to disk later).
public struct JetStreamPublishAck: Sendable, Equatable {
  /// The stream that stored it.
  public var stream: String
  /// Its sequence in the stream (for a duplicate: the first copy's).
  public var sequence: UInt64
  /// Whether a message with the same `Nats-Msg-Id` was stored before (this one was not).
  public var isDuplicate: Bool
  /// The JetStream domain, if any.
  public var domain: String?

  /// Reads a publish's answer.
  static func decode(_ message: NATSMessage, subject: String) -> Result<JetStreamPublishAck, NATSError> {
    if let status = message.status, message.payload.isEmpty {
      // 503 (no responders) is reported by the connection; any other status is unexpected.
      return .failure(
        NATSError(
          .jetStream(status: status, errorCode: 0),
          "JetStream answered the publish to \(subject) with status \(status) \(message.headers?.statusDescription ?? "")"))
    }
    return Result { () throws(NATSError) in
      let fields: JSONFields
      do {
        fields = try JSONFields(try JSON(parsing: message.payload), context: "publish ack")
      } catch let error as NATSError {
        throw error
      } catch {
        throw NATSError(.invalidResponse, "the answer to the publish to \(subject) is not JSON: \(error)")
      }
      if let error = try fields.object("error") {
        throw try JetStream.apiError(error, what: "the publish to \(subject)")
      }
      guard let stream = try fields.string("stream"), let sequence = try fields.uint64("seq") else {
        throw NATSError(.invalidResponse, "the answer to the publish to \(subject) has no stream or seq")
      }
      return JetStreamPublishAck(
        stream: stream, sequence: sequence, isDuplicate: try fields.bool("duplicate") ?? false,
        domain: try fields.string("domain"))
    }
  }
}

extension JetStream {
  /// Publishes a message to a stream and calls `completion` with the stream's acknowledgement.
  ///
  /// Publishes may be pipelined: call this many times without waiting; each ack is matched to
  /// its publish. With ``JetStreamPublishOptions/expectedLastSequence`` a pipelined writer
  /// predicts each publish's expectation (the previous one's plus one): the stream applies
  /// them in order, and the first write by anyone else makes every later one fail with
  /// 10071.
  ///
  /// - Parameters:
  ///   - payload: The message.
  ///   - subject: A subject that a stream captures.
  ///   - options: Message id, expectations, rollup, other headers.
  ///   - timeout: How long to wait for the ack (``timeout`` unless given).
  ///   - completion: The ack; or the stream's refusal (``NATSError/isWrongLastSequence`` for
  ///     10071), ``NATSError/Code/noResponders`` (no stream captures the subject),
  ///     ``NATSError/Code/timedOut`` or ``NATSError/Code/connectionLost`` (unknown outcome:
  ///     retry with the same message id).
  /// - Throws: ``NATSError`` when nothing was sent — the message is over the server's
  ///   `max_payload` (``NATSError/Code/maxPayloadExceeded(size:limit:)``), a header is
  ///   invalid, the buffers are full, the connection is closed. `completion` is then never
  ///   called.
  public func publish(
    _ payload: UnsafeRawBufferPointer, to subject: String,
    options: JetStreamPublishOptions = JetStreamPublishOptions(), timeout: Duration? = nil,
    completion: @escaping (Result<JetStreamPublishAck, NATSError>) -> Void
  ) throws(NATSError) {
    try self.connection.request(
      to: subject, headerBlock: try options.headerBlock(), payload: payload,
      timeout: timeout ?? self.timeout
    ) { result in
      switch result {
      case .success(let message): completion(JetStreamPublishAck.decode(message, subject: subject))
      case .failure(let error) where error.code == .noResponders:
        completion(
          .failure(
            NATSError(
              .noResponders,
              "no JetStream stream captures \(subject) (or JetStream is not enabled, or the stream has no leader)")))
      case .failure(let error): completion(.failure(error))
      }
    }
  }

  /// Publishes a message to a stream (see
  /// ``publish(_:to:options:timeout:completion:)-(UnsafeRawBufferPointer,_,_,_,_)``).
  public func publish(
    _ payload: [UInt8], to subject: String,
    options: JetStreamPublishOptions = JetStreamPublishOptions(), timeout: Duration? = nil,
    completion: @escaping (Result<JetStreamPublishAck, NATSError>) -> Void
  ) throws(NATSError) {
    let sent = payload.withUnsafeBytes { bytes in
      Result { () throws(NATSError) in
        try self.publish(bytes, to: subject, options: options, timeout: timeout, completion: completion)
      }
    }
    try sent.get()
  }
}
