import Wire

/// The JetStream API over a ``NATSConnection``: streams, publishes acknowledged by the stream,
/// message gets and consumers — loop-confined like the connection, with completions called on
/// the loop thread.
///
/// ```swift
/// let jetStream = JetStream(connection: nats)
/// jetStream.createStream(journal) { result in … }
/// var options = JetStreamPublishOptions()
/// options.messageID = "host-7:42"
/// options.expectedLastSequence = 41       // fencing: refused (10071) if anyone appended since
/// try jetStream.publish(record, to: "counter.journal.records", options: options) { result in
///   // .success(ack): ack.sequence == 42, held by a majority of the stream's replicas
/// }
/// ```
///
/// Every API call is a request on `$JS.API.…` (the ``apiPrefix``) answered with JSON; an
/// error answer becomes ``NATSError/Code/jetStream(status:errorCode:)`` with the server's
/// description, and no answer at all ``NATSError/Code/noResponders`` (JetStream not enabled,
/// or no stream for a publish's subject) or ``NATSError/Code/timedOut``.
public final class JetStream {
  /// The connection the API goes through.
  public let connection: NATSConnection
  /// The API's subject prefix (`$JS.API`, or `$JS.<domain>.API` for another domain).
  public let apiPrefix: String
  /// How long an API call or a publish waits for its answer unless told otherwise.
  public var timeout: Duration

  /// JetStream through `connection`.
  ///
  /// - Parameters:
  ///   - connection: The connection.
  ///   - apiPrefix: `$JS.API`, or `$JS.<domain>.API`.
  ///   - timeout: How long calls wait for their answer.
  public init(connection: NATSConnection, apiPrefix: String = "$JS.API", timeout: Duration = .seconds(5)) {
    self.connection = connection
    self.apiPrefix = apiPrefix
    self.timeout = timeout
  }

  // MARK: - The API

  /// Calls an API endpoint: `request` (a JSON value, or nothing) to `\(apiPrefix).\(endpoint)`,
  /// its JSON answer to `completion`.
  ///
  /// - Parameters:
  ///   - endpoint: The endpoint after the prefix, e.g. `STREAM.INFO.ORDERS`.
  ///   - request: The request's JSON, or `nil` for an empty payload.
  ///   - timeout: How long to wait (``timeout`` unless given).
  ///   - completion: The answer's members, or the API's error.
  public func call(
    _ endpoint: String, request: JSON?, timeout: Duration? = nil,
    completion: @escaping (Result<JSONObject, NATSError>) -> Void
  ) {
    let subject = self.apiPrefix + "." + endpoint
    let payload = request?.serialized() ?? []
    do {
      try self.connection.request(
        to: subject, payload: payload, timeout: timeout ?? self.timeout
      ) { result in
        completion(result.flatMap { message in Self.decodeAPIResponse(message, endpoint: endpoint) })
      }
    } catch {
      completion(.failure(error))
    }
  }

  /// The members of an API answer, or its error.
  static func decodeAPIResponse(_ message: NATSMessage, endpoint: String) -> Result<JSONObject, NATSError> {
    if let status = message.status, message.payload.isEmpty {
      return .failure(
        NATSError(
          .jetStream(status: status, errorCode: 0),
          "JetStream answered \(endpoint) with status \(status) \(message.headers?.statusDescription ?? "")"))
    }
    let fields: JSONFields
    do {
      fields = try JSONFields(try JSON(parsing: message.payload), context: "answer to \(endpoint)")
    } catch let error as NATSError {
      return .failure(error)
    } catch {
      return .failure(NATSError(.invalidResponse, "the answer to \(endpoint) is not JSON: \(error)"))
    }
    do {
      if let apiError = try fields.object("error") {
        return .failure(try Self.apiError(apiError, what: endpoint))
      }
    } catch {
      return .failure(error)
    }
    return .success(fields.object)
  }

  /// The error an API error object describes.
  static func apiError(_ fields: JSONFields, what: String) throws(NATSError) -> NATSError {
    let status = Int(try fields.int("code") ?? 0)
    let errorCode = Int(try fields.int("err_code") ?? 0)
    let description = try fields.string("description") ?? "no description"
    let code: NATSError.Code =
      errorCode == JetStreamErrorCode.streamNotFound || errorCode == JetStreamErrorCode.noMessageFound
        || errorCode == JetStreamErrorCode.consumerNotFound
      ? .notFound : .jetStream(status: status, errorCode: errorCode)
    return NATSError(code, "JetStream refused \(what): \(description) (status \(status), err_code \(errorCode))")
  }

  // MARK: - Streams

  /// Creates a stream, and checks that the server applied every setting sent.
  ///
  /// Creating a stream that exists with the same configuration succeeds; with another one, it
  /// fails with err_code 10058.
  ///
  /// - Parameters:
  ///   - configuration: The stream's configuration.
  ///   - completion: The stream's info, or ``NATSError/Code/configurationNotApplied`` naming
  ///     each setting the server did not apply (the stream then exists as the server made it).
  public func createStream(
    _ configuration: JetStreamStreamConfiguration,
    completion: @escaping (Result<JetStreamStreamInfo, NATSError>) -> Void
  ) {
    self.putStream(configuration, verb: "CREATE", completion: completion)
  }

  /// Changes a stream's configuration, and checks that the server applied every setting sent.
  ///
  /// - Parameters:
  ///   - configuration: The whole new configuration.
  ///   - completion: The stream's info, or the error.
  public func updateStream(
    _ configuration: JetStreamStreamConfiguration,
    completion: @escaping (Result<JetStreamStreamInfo, NATSError>) -> Void
  ) {
    self.putStream(configuration, verb: "UPDATE", completion: completion)
  }

  private func putStream(
    _ configuration: JetStreamStreamConfiguration, verb: String,
    completion: @escaping (Result<JetStreamStreamInfo, NATSError>) -> Void
  ) {
    if let problem = JetStreamStreamConfiguration.nameProblem(configuration.name) {
      return completion(.failure(NATSError(.invalidSubject, "cannot \(verb.lowercased()) the stream: \(problem)")))
    }
    let sent = configuration.json
    self.call("STREAM.\(verb).\(configuration.name)", request: .object(sent)) { result in
      completion(
        result.flatMap { object in
          Result { () throws(NATSError) in
            let fields = JSONFields(object, context: "stream info of \(configuration.name)")
            let info = try JetStreamStreamInfo(fields)
            let echoed = try fields.object("config")?.object ?? JSONObject()
            let unapplied = JetStreamStreamConfiguration.unappliedSettings(sent: sent, echoed: echoed)
            guard unapplied.isEmpty else {
              throw NATSError(
                .configurationNotApplied,
                "the NATS server did not apply these settings of stream \(configuration.name): \(unapplied.joined(separator: "; "))"
              )
            }
            return info
          }
        })
    }
  }

  /// A stream's configuration and state.
  ///
  /// - Parameters:
  ///   - name: The stream.
  ///   - completion: Its info, or ``NATSError/Code/notFound``.
  public func streamInfo(
    _ name: String, completion: @escaping (Result<JetStreamStreamInfo, NATSError>) -> Void
  ) {
    if let problem = JetStreamStreamConfiguration.nameProblem(name) {
      return completion(.failure(NATSError(.invalidSubject, "no stream info: \(problem)")))
    }
    self.call("STREAM.INFO.\(name)", request: nil) { result in
      completion(
        result.flatMap { object in
          Result { () throws(NATSError) in
            try JetStreamStreamInfo(JSONFields(object, context: "stream info of \(name)"))
          }
        })
    }
  }

  /// Removes messages from a stream: all of them, those on `subject`, those below `sequence`,
  /// or all but the last `keep` — the way a journal drops the records a snapshot covers. The
  /// stream's last sequence does not change (expected-sequence fencing is unaffected).
  ///
  /// - Parameters:
  ///   - name: The stream.
  ///   - subject: Only messages on this subject (wildcards allowed).
  ///   - sequence: Only messages with a lower sequence ("up to, not including").
  ///   - keep: Keep this many of the most recent (matching) messages.
  ///   - completion: How many messages were removed.
  public func purgeStream(
    _ name: String, subject: String? = nil, below sequence: UInt64? = nil, keep: UInt64? = nil,
    completion: @escaping (Result<UInt64, NATSError>) -> Void
  ) {
    if let problem = JetStreamStreamConfiguration.nameProblem(name) {
      return completion(.failure(NATSError(.invalidSubject, "cannot purge the stream: \(problem)")))
    }
    var request = JSONObject()
    if let subject { request["filter"] = .string(subject) }
    if let sequence { request["seq"] = .int(Int64(clamping: sequence)) }
    if let keep { request["keep"] = .int(Int64(clamping: keep)) }
    self.call("STREAM.PURGE.\(name)", request: request.isEmpty ? nil : .object(request)) { result in
      completion(
        result.flatMap { object in
          Result { () throws(NATSError) in
            let fields = JSONFields(object, context: "purge of \(name)")
            guard try fields.bool("success") == true else {
              throw NATSError(.invalidResponse, "the purge of stream \(name) did not report success")
            }
            return try fields.uint64("purged") ?? 0
          }
        })
    }
  }

  /// Deletes a stream and its messages.
  ///
  /// - Parameters:
  ///   - name: The stream.
  ///   - completion: Success, or ``NATSError/Code/notFound``.
  public func deleteStream(_ name: String, completion: @escaping (Result<Void, NATSError>) -> Void) {
    if let problem = JetStreamStreamConfiguration.nameProblem(name) {
      return completion(.failure(NATSError(.invalidSubject, "cannot delete the stream: \(problem)")))
    }
    self.call("STREAM.DELETE.\(name)", request: nil) { result in
      completion(result.map { _ in () })
    }
  }
}

@available(*, unavailable, message: "JetStream is confined to its connection's event loop thread")
extension JetStream: Sendable {}
