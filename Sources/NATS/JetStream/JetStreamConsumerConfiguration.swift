import Wire

/// The configuration of a JetStream consumer (`$JS.API.CONSUMER.CREATE`). As for streams,
/// settings left `nil` are not sent, and those sent must come back in the server's echo.
public struct JetStreamConsumerConfiguration: Sendable, Equatable {
  /// Where delivery starts.
  public enum DeliverPolicy: Sendable, Equatable {
    /// From the first message held.
    case all
    /// From the last message.
    case last
    /// Only messages stored after the consumer is created.
    case new
    /// From this stream sequence.
    case startSequence(UInt64)
    /// The last message of each subject.
    case lastPerSubject
  }

  /// How deliveries are acknowledged.
  public enum AckPolicy: String, Sendable {
    /// Never (an ordered consumer).
    case none
    /// Each message.
    case explicit
    /// A message and all before it.
    case all
  }

  /// A name (a durable consumer's, or an ephemeral's chosen by the client), or `nil`.
  public var name: String?
  /// A durable name (kept when nobody listens), or `nil` for an ephemeral consumer.
  public var durableName: String?
  /// A description.
  public var description: String?
  /// Where delivery starts.
  public var deliverPolicy: DeliverPolicy = .all
  /// How deliveries are acknowledged.
  public var ackPolicy: AckPolicy = .none
  /// How long an unacknowledged delivery waits before redelivery.
  public var ackWait: Duration?
  /// The most deliveries of one message.
  public var maxDeliver: Int?
  /// Only messages on this subject (wildcards allowed). Not `filter_subjects`: nats-server 2.9
  /// ignores that 2.10 setting.
  public var filterSubject: String?
  /// `instant`, or `original` (at the pace they were stored).
  public var replayOriginal = false
  /// The most unacknowledged deliveries at once.
  public var maxAckPending: Int?
  /// A push consumer's subject: messages are sent there.
  public var deliverSubject: String?
  /// How often an idle push consumer sends a heartbeat (`NATS/1.0 100 Idle Heartbeat`).
  public var idleHeartbeat: Duration?
  /// Whether a push consumer asks for flow control (`NATS/1.0 100 FlowControl Request`, to be
  /// answered by publishing to its reply subject).
  public var flowControl: Bool?
  /// Deliver headers only, no payload.
  public var headersOnly: Bool?
  /// How long an ephemeral consumer without interest survives.
  public var inactiveThreshold: Duration?
  /// Replicas of the consumer's state (each replicated consumer is a Raft group; 1 is none).
  public var replicas: Int?
  /// Keep the consumer's state in memory.
  public var memoryStorage: Bool?
  /// Settings this type does not name, sent as they are and checked in the echo like the
  /// others (`filter_subjects` of nats-server 2.10, which 2.9 ignores).
  public var additionalSettings = JSONObject()

  /// A configuration: deliver all, acknowledge none, instantly.
  public init() {}

  /// The JSON the API takes.
  public var json: JSONObject {
    var object = self.additionalSettings
    if let name { object["name"] = .string(name) }
    if let durableName { object["durable_name"] = .string(durableName) }
    if let description { object["description"] = .string(description) }
    switch self.deliverPolicy {
    case .all: object["deliver_policy"] = .string("all")
    case .last: object["deliver_policy"] = .string("last")
    case .new: object["deliver_policy"] = .string("new")
    case .lastPerSubject: object["deliver_policy"] = .string("last_per_subject")
    case .startSequence(let sequence):
      object["deliver_policy"] = .string("by_start_sequence")
      object["opt_start_seq"] = .int(Int64(clamping: sequence))
    }
    object["ack_policy"] = .string(self.ackPolicy.rawValue)
    if let ackWait { object["ack_wait"] = .int(ackWait.jetStreamNanoseconds) }
    if let maxDeliver { object["max_deliver"] = .int(Int64(maxDeliver)) }
    if let filterSubject { object["filter_subject"] = .string(filterSubject) }
    object["replay_policy"] = .string(self.replayOriginal ? "original" : "instant")
    if let maxAckPending { object["max_ack_pending"] = .int(Int64(maxAckPending)) }
    if let deliverSubject { object["deliver_subject"] = .string(deliverSubject) }
    if let idleHeartbeat { object["idle_heartbeat"] = .int(idleHeartbeat.jetStreamNanoseconds) }
    if let flowControl { object["flow_control"] = .bool(flowControl) }
    if let headersOnly { object["headers_only"] = .bool(headersOnly) }
    if let inactiveThreshold { object["inactive_threshold"] = .int(inactiveThreshold.jetStreamNanoseconds) }
    if let replicas { object["num_replicas"] = .int(Int64(replicas)) }
    if let memoryStorage { object["mem_storage"] = .bool(memoryStorage) }
    return object
  }
}

/// A consumer as the server describes it.
public struct JetStreamConsumerInfo: Sendable, Equatable {
  /// Its name (chosen by the server for an ephemeral consumer).
  public var name: String
  /// Its stream.
  public var stream: String
  /// Messages of the stream it has yet to deliver.
  public var pending: UInt64
  /// The server that runs it (its leader, for a replicated consumer), in a cluster.
  public var server: String?

  init(_ fields: JSONFields) throws(NATSError) {
    guard let name = try fields.string("name"), let stream = try fields.string("stream_name") else {
      throw NATSError(.invalidResponse, "the \(fields.context) lacks its name or stream")
    }
    self.name = name
    self.stream = stream
    self.pending = try fields.uint64("num_pending") ?? 0
    self.server = try fields.object("cluster")?.string("leader")
  }
}

extension JetStream {
  /// Creates a consumer, and checks that the server applied every setting sent.
  ///
  /// - Parameters:
  ///   - stream: The stream.
  ///   - configuration: The consumer's configuration.
  ///   - completion: Its info, or the error (``NATSError/Code/configurationNotApplied``,
  ///     ``NATSError/Code/notFound`` for a missing stream, 10008 during an election).
  public func createConsumer(
    stream: String, _ configuration: JetStreamConsumerConfiguration,
    completion: @escaping (Result<JetStreamConsumerInfo, NATSError>) -> Void
  ) {
    if let problem = JetStreamStreamConfiguration.nameProblem(stream) {
      return completion(.failure(NATSError(.invalidSubject, "cannot create a consumer: \(problem)")))
    }
    let sent = configuration.json
    let endpoint: String
    if let durable = configuration.durableName {
      endpoint = "CONSUMER.DURABLE.CREATE.\(stream).\(durable)"
    } else {
      endpoint = "CONSUMER.CREATE.\(stream)"
    }
    let request: JSON = .object(["stream_name": .string(stream), "config": .object(sent)])
    self.call(endpoint, request: request) { result in
      completion(
        result.flatMap { object in
          Result { () throws(NATSError) in
            let fields = JSONFields(object, context: "consumer info on \(stream)")
            let info = try JetStreamConsumerInfo(fields)
            let echoed = try fields.object("config")?.object ?? JSONObject()
            let unapplied = JetStreamStreamConfiguration.unappliedSettings(sent: sent, echoed: echoed)
            guard unapplied.isEmpty else {
              throw NATSError(
                .configurationNotApplied,
                "the NATS server did not apply these settings of a consumer on \(stream): \(unapplied.joined(separator: "; "))"
              )
            }
            return info
          }
        })
    }
  }

  /// A consumer's state.
  ///
  /// - Parameters:
  ///   - stream: Its stream.
  ///   - name: The consumer's name.
  ///   - completion: Its info, or ``NATSError/Code/notFound``.
  public func consumerInfo(
    stream: String, name: String, completion: @escaping (Result<JetStreamConsumerInfo, NATSError>) -> Void
  ) {
    if let problem = JetStreamStreamConfiguration.nameProblem(stream) ?? JetStreamStreamConfiguration.nameProblem(name) {
      return completion(.failure(NATSError(.invalidSubject, "no consumer info: \(problem)")))
    }
    self.call("CONSUMER.INFO.\(stream).\(name)", request: nil) { result in
      completion(
        result.flatMap { object in
          Result { () throws(NATSError) in
            try JetStreamConsumerInfo(JSONFields(object, context: "consumer info of \(name)"))
          }
        })
    }
  }

  /// Deletes a consumer.
  ///
  /// - Parameters:
  ///   - stream: Its stream.
  ///   - name: The consumer's name.
  ///   - completion: Success, or ``NATSError/Code/notFound``.
  public func deleteConsumer(
    stream: String, name: String, completion: @escaping (Result<Void, NATSError>) -> Void
  ) {
    if let problem = JetStreamStreamConfiguration.nameProblem(stream) ?? JetStreamStreamConfiguration.nameProblem(name) {
      return completion(.failure(NATSError(.invalidSubject, "cannot delete a consumer: \(problem)")))
    }
    self.call("CONSUMER.DELETE.\(stream).\(name)", request: nil) { result in
      completion(result.map { _ in () })
    }
  }
}
