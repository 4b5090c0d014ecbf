import Wire

/// Which stored message to get.
public enum JetStreamMessageQuery: Sendable, Equatable {
  /// The message with this stream sequence.
  case sequence(UInt64)
  /// The last message stored on this subject (wildcards allowed).
  case lastBySubject(String)
  /// The first message on this subject at or after a sequence.
  case nextBySubject(String, from: UInt64)

  var json: JSON {
    switch self {
    case .sequence(let sequence): .object(["seq": .int(Int64(clamping: sequence))])
    case .lastBySubject(let subject): .object(["last_by_subj": .string(subject)])
    case .nextBySubject(let subject, let sequence):
      .object(["next_by_subj": .string(subject), "seq": .int(Int64(clamping: sequence))])
    }
  }
}

/// A message stored in a stream, as a get returns it.
public struct JetStreamStoredMessage: Sendable, Equatable {
  /// The subject it was published to.
  public var subject: String
  /// Its stream sequence.
  public var sequence: UInt64
  /// The headers it was published with (a direct get adds `Nats-Stream`, `Nats-Subject`,
  /// `Nats-Sequence` and `Nats-Time-Stamp`).
  public var headers: NATSHeaders?
  /// The payload.
  public var payload: [UInt8]
  /// When it was stored, as the server wrote it (RFC 3339).
  public var time: String?
}

extension JetStream {
  /// Gets one stored message.
  ///
  /// - Parameters:
  ///   - stream: The stream.
  ///   - query: Which message.
  ///   - direct: Ask any replica (`$JS.API.DIRECT.GET`; the stream needs
  ///     ``JetStreamStreamConfiguration/allowDirect``; without it, nats-server 2.9 does not
  ///     answer and the get times out): faster, but a follower may not have the latest
  ///     messages yet. Otherwise the leader answers (`$JS.API.STREAM.MSG.GET`).
  ///   - completion: The message, or ``NATSError/Code/notFound``.
  public func getMessage(
    stream: String, _ query: JetStreamMessageQuery, direct: Bool = false,
    completion: @escaping (Result<JetStreamStoredMessage, NATSError>) -> Void
  ) {
    if let problem = JetStreamStreamConfiguration.nameProblem(stream) {
      return completion(.failure(NATSError(.invalidSubject, "cannot get a message: \(problem)")))
    }
    guard direct else {
      self.call("STREAM.MSG.GET.\(stream)", request: query.json) { result in
        completion(result.flatMap { Self.decodeStoredMessage($0, stream: stream) })
      }
      return
    }
    let subject: String
    let payload: [UInt8]
    if case .lastBySubject(let filter) = query, NATSSubject.publishProblem(filter) == nil {
      // The subject in the request's subject, no payload (nats-server 2.9 and later).
      subject = "\(self.apiPrefix).DIRECT.GET.\(stream).\(filter)"
      payload = []
    } else {
      subject = "\(self.apiPrefix).DIRECT.GET.\(stream)"
      payload = query.json.serialized()
    }
    do {
      try self.connection.request(to: subject, payload: payload, timeout: self.timeout) { result in
        completion(
          result.flatMap { Self.decodeDirectMessage($0, stream: stream) }.mapError { error in
            error.code == .noResponders || error.code == .timedOut
              ? NATSError(
                error.code,
                "no answer to a direct get from stream \(stream): it does not exist, or does not allow direct gets (allow_direct)")
              : error
          })
      }
    } catch {
      completion(.failure(error))
    }
  }

  private static func decodeDirectMessage(
    _ message: NATSMessage, stream: String
  ) -> Result<JetStreamStoredMessage, NATSError> {
    let headers = message.headers
    if let status = headers?.status {
      let description = headers?.statusDescription ?? ""
      return .failure(
        status == 404
          ? NATSError(.notFound, "no such message in stream \(stream) (\(description))")
          : NATSError(
            .jetStream(status: status, errorCode: 0),
            "the direct get from stream \(stream) was refused: \(status) \(description)"))
    }
    guard let headers, let subject = headers["Nats-Subject"],
      let sequence = headers["Nats-Sequence"].flatMap(UInt64.init)
    else {
      return .failure(
        NATSError(.invalidResponse, "the direct get from stream \(stream) lacks Nats-Subject or Nats-Sequence"))
    }
    return .success(
      JetStreamStoredMessage(
        subject: subject, sequence: sequence, headers: headers, payload: message.payload,
        time: headers["Nats-Time-Stamp"]))
  }

  private static func decodeStoredMessage(
    _ object: JSONObject, stream: String
  ) -> Result<JetStreamStoredMessage, NATSError> {
    Result { () throws(NATSError) in
      let fields = JSONFields(object, context: "message of stream \(stream)")
      guard let message = try fields.object("message"), let subject = try message.string("subject"),
        let sequence = try message.uint64("seq")
      else {
        throw NATSError(.invalidResponse, "the answer of stream \(stream) holds no message")
      }
      let payload = try Base64.decode(try message.string("data") ?? "", what: "the message's data")
      var headers: NATSHeaders?
      if let encoded = try message.string("hdrs"), !encoded.isEmpty {
        let block = try Base64.decode(encoded, what: "the message's headers")
        headers = try? NATSHeaders(parsing: block)
      }
      return JetStreamStoredMessage(
        subject: subject, sequence: sequence, headers: headers, payload: payload,
        time: try message.string("time"))
    }
  }
}

/// Standard Base64 (RFC 4648, with padding), as Go's `encoding/json` writes `[]byte`.
enum Base64 {
  static func decode(_ text: String, what: String) throws(NATSError) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count / 4 * 3)
    var accumulator: UInt32 = 0
    var bits = 0
    var padding = 0
    for byte in text.utf8 {
      let value: UInt32
      switch byte {
      case 0x41...0x5A: value = UInt32(byte - 0x41)
      case 0x61...0x7A: value = UInt32(byte - 0x61 + 26)
      case 0x30...0x39: value = UInt32(byte - 0x30 + 52)
      case 0x2B: value = 62
      case 0x2F: value = 63
      case 0x3D:
        padding += 1
        continue
      default:
        throw NATSError(.invalidResponse, "\(what) is not Base64")
      }
      guard padding == 0 else { throw NATSError(.invalidResponse, "\(what) is not Base64") }
      accumulator = accumulator << 6 | value
      bits += 6
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
      }
    }
    guard padding <= 2, (text.utf8.count % 4 == 0 || padding == 0) else {
      throw NATSError(.invalidResponse, "\(what) is not Base64")
    }
    return output
  }
}
