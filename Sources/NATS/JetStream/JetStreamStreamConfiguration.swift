import Wire

/// The configuration of a JetStream stream (`$JS.API.STREAM.CREATE`/`UPDATE`).
///
/// Settings left `nil` are not sent, and take the server's defaults. Those that are set must
/// come back in the configuration the server echoes, or the call fails with
/// ``NATSError/Code/configurationNotApplied``: an older server silently ignores settings it
/// does not know (nats-server 2.9 drops 2.10's `compression`, `subject_transform`,
/// `metadata`…), and a replicated journal must not run on settings it did not get.
///
/// ```swift
/// var journal = JetStreamStreamConfiguration(name: "COUNTER", subjects: ["counter.journal.>"])
/// journal.replicas = 3
/// journal.duplicateWindow = .seconds(120)
/// journal.allowDirect = true
/// ```
public struct JetStreamStreamConfiguration: Sendable, Equatable {
  /// How messages leave the stream.
  public enum Retention: String, Sendable {
    /// By the limits (count, bytes, age) only.
    case limits
    /// When every consumer has acknowledged them.
    case interest
    /// When one consumer has acknowledged them.
    case workQueue = "workqueue"
  }

  /// What a full stream does with a new message.
  public enum Discard: String, Sendable {
    /// Removes the oldest messages.
    case old
    /// Refuses the new one.
    case new
  }

  /// Where the stream keeps its messages.
  public enum Storage: String, Sendable {
    case file
    case memory
  }

  /// The name: letters, digits, `-` and `_` (no `.`, `*`, `>`, space or path separator).
  public var name: String
  /// The subjects it captures.
  public var subjects: [String]?
  /// A description.
  public var description: String?
  /// How messages leave the stream.
  public var retention: Retention?
  /// The most consumers (-1: unlimited).
  public var maxConsumers: Int?
  /// The most messages kept (-1: unlimited).
  public var maxMessages: Int64?
  /// The most bytes kept (-1: unlimited).
  public var maxBytes: Int64?
  /// The oldest a message may be (zero: forever).
  public var maxAge: Duration?
  /// The most messages kept per subject (-1: unlimited).
  public var maxMessagesPerSubject: Int64?
  /// The largest message accepted (-1: the server's `max_payload`).
  public var maxMessageSize: Int32?
  /// What a full stream does with a new message.
  public var discard: Discard?
  /// Where messages are kept.
  public var storage: Storage?
  /// How many servers hold the stream (1 to 5; an ack means a majority of them have it).
  public var replicas: Int?
  /// How long message ids are remembered for de-duplication (`Nats-Msg-Id`).
  public var duplicateWindow: Duration?
  /// Whether any replica answers direct gets (`$JS.API.DIRECT.GET`), faster but possibly
  /// behind the leader.
  public var allowDirect: Bool?
  /// Whether a message may purge older ones with a `Nats-Rollup` header.
  public var allowRollup: Bool?
  /// Whether deleting messages is refused.
  public var denyDelete: Bool?
  /// Whether purging is refused.
  public var denyPurge: Bool?
  /// Settings this type does not name, sent as they are (and checked in the echo like the
  /// others): JSON members of the configuration object.
  public var additionalSettings: JSONObject

  /// A configuration with the server's defaults but for `name` and `subjects`.
  public init(name: String, subjects: [String]? = nil) {
    self.name = name
    self.subjects = subjects
    self.additionalSettings = JSONObject()
  }

  /// Why `name` cannot name a stream (or a consumer), or `nil` when it can.
  public static func nameProblem(_ name: String) -> String? {
    if name.isEmpty { return "a stream name cannot be empty" }
    if name.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == 0x2E || $0 == 0x2A || $0 == 0x3E || $0 == 0x2F || $0 == 0x5C }) {
      return "the name \"\(name)\" contains a space, a control character, or one of . * > / \\"
    }
    return nil
  }

  /// The JSON the API takes: only the settings that are set.
  public var json: JSONObject {
    var object = self.additionalSettings
    object["name"] = .string(self.name)
    if let subjects { object["subjects"] = .array(subjects.map { .string($0) }) }
    if let description { object["description"] = .string(description) }
    if let retention { object["retention"] = .string(retention.rawValue) }
    if let maxConsumers { object["max_consumers"] = .int(Int64(maxConsumers)) }
    if let maxMessages { object["max_msgs"] = .int(maxMessages) }
    if let maxBytes { object["max_bytes"] = .int(maxBytes) }
    if let maxAge { object["max_age"] = .int(maxAge.jetStreamNanoseconds) }
    if let maxMessagesPerSubject { object["max_msgs_per_subject"] = .int(maxMessagesPerSubject) }
    if let maxMessageSize { object["max_msg_size"] = .int(Int64(maxMessageSize)) }
    if let discard { object["discard"] = .string(discard.rawValue) }
    if let storage { object["storage"] = .string(storage.rawValue) }
    if let replicas { object["num_replicas"] = .int(Int64(replicas)) }
    if let duplicateWindow { object["duplicate_window"] = .int(duplicateWindow.jetStreamNanoseconds) }
    if let allowDirect { object["allow_direct"] = .bool(allowDirect) }
    if let allowRollup { object["allow_rollup_hdrs"] = .bool(allowRollup) }
    if let denyDelete { object["deny_delete"] = .bool(denyDelete) }
    if let denyPurge { object["deny_purge"] = .bool(denyPurge) }
    return object
  }

  /// Reads a configuration the server returned; every named setting is filled in.
  init(_ fields: JSONFields) throws(NATSError) {
    guard let name = try fields.string("name") else {
      throw NATSError(.invalidResponse, "the \(fields.context) has no name")
    }
    self.init(name: name, subjects: try fields.strings("subjects"))
    self.description = try fields.string("description")
    self.retention = try fields.string("retention").flatMap(Retention.init(rawValue:))
    self.maxConsumers = try fields.int("max_consumers").map { Int($0) }
    self.maxMessages = try fields.int("max_msgs")
    self.maxBytes = try fields.int("max_bytes")
    self.maxAge = try fields.duration("max_age")
    self.maxMessagesPerSubject = try fields.int("max_msgs_per_subject")
    self.maxMessageSize = try fields.int("max_msg_size").map { Int32(clamping: $0) }
    self.discard = try fields.string("discard").flatMap(Discard.init(rawValue:))
    self.storage = try fields.string("storage").flatMap(Storage.init(rawValue:))
    self.replicas = try fields.int("num_replicas").map { Int($0) }
    self.duplicateWindow = try fields.duration("duplicate_window")
    self.allowDirect = try fields.bool("allow_direct")
    self.allowRollup = try fields.bool("allow_rollup_hdrs")
    self.denyDelete = try fields.bool("deny_delete")
    self.denyPurge = try fields.bool("deny_purge")
  }

  /// The settings that `sent` asked for and `echoed` (the server's answer) does not have:
  /// absent (an unknown field the server dropped — unless the value sent was its zero, which
  /// Go omits), or different.
  static func unappliedSettings(sent: JSONObject, echoed: JSONObject) -> [String] {
    var problems: [String] = []
    for (key, value) in sent {
      guard let answer = echoed[key] else {
        if !Self.isZero(value) {
          problems.append("\(key) (sent \(value.compactString); the server kept nothing: it does not know this setting — a newer nats-server is needed)")
        }
        continue
      }
      if answer != value {
        problems.append("\(key) (sent \(value.compactString); the server has \(answer.compactString))")
      }
    }
    return problems
  }

  private static func isZero(_ value: JSON) -> Bool {
    switch value {
    case .null, .bool(false), .int(0): return true
    case .double(let number): return number == 0
    case .string(let text): return text.isEmpty
    case .array(let items): return items.isEmpty
    case .object(let members): return members.isEmpty
    default: return false
    }
  }
}

/// A stream's configuration and state (`$JS.API.STREAM.INFO`).
public struct JetStreamStreamInfo: Sendable, Equatable {
  /// The stream's state.
  public struct State: Sendable, Equatable {
    /// Messages held.
    public var messages: UInt64
    /// Bytes held.
    public var bytes: UInt64
    /// The sequence of the first message held (the first that will be, when empty).
    public var firstSequence: UInt64
    /// The sequence of the last message stored (0 before any): what
    /// `Nats-Expected-Last-Sequence` is compared with.
    public var lastSequence: UInt64
    /// Consumers of the stream.
    public var consumerCount: Int
  }

  /// A server holding a replica.
  public struct Replica: Sendable, Equatable {
    /// The server's name.
    public var name: String
    /// Whether it is up to date with the leader.
    public var isCurrent: Bool
    /// Whether it is unreachable.
    public var isOffline: Bool
    /// How many operations it is behind.
    public var lag: UInt64
  }

  /// The replicas' placement.
  public struct Cluster: Sendable, Equatable {
    /// The cluster's name.
    public var name: String?
    /// The server that leads the stream, `nil` during an election.
    public var leader: String?
    /// The other replicas.
    public var replicas: [Replica]
  }

  /// The configuration as the server applies it (defaults filled in).
  public var configuration: JetStreamStreamConfiguration
  /// The state.
  public var state: State
  /// The placement, for a stream in a cluster.
  public var cluster: Cluster?

  init(_ fields: JSONFields) throws(NATSError) {
    guard let config = try fields.object("config"), let state = try fields.object("state") else {
      throw NATSError(.invalidResponse, "the \(fields.context) lacks its config or state")
    }
    self.configuration = try JetStreamStreamConfiguration(config)
    self.state = State(
      messages: try state.uint64("messages") ?? 0, bytes: try state.uint64("bytes") ?? 0,
      firstSequence: try state.uint64("first_seq") ?? 0,
      lastSequence: try state.uint64("last_seq") ?? 0,
      consumerCount: Int(try state.int("consumer_count") ?? 0))
    if let cluster = try fields.object("cluster") {
      var replicas: [Replica] = []
      for peer in try cluster.objects("replicas") ?? [] {
        replicas.append(
          Replica(
            name: try peer.string("name") ?? "", isCurrent: try peer.bool("current") ?? false,
            isOffline: try peer.bool("offline") ?? false, lag: try peer.uint64("lag") ?? 0))
      }
      self.cluster = Cluster(
        name: try cluster.string("name"), leader: try cluster.string("leader"), replicas: replicas)
    }
  }
}
