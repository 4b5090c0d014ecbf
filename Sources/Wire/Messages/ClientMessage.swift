/// A message from a client to a host (PROTOCOL.md §2, "Client → host").
///
/// ```swift
/// let message = try ClientMessage(json: payload)   // after JSON(parsing:)
/// switch message {
/// case .send(let id, let scope, let action): …
/// default: …
/// }
/// ```
///
/// Decoding ignores unknown members; a missing or mistyped member throws a ``MessageError``
/// with code ``ErrorCode/badMessage`` that names the member and carries the request's `id`.
public enum ClientMessage: Sendable, Hashable {
  /// The handshake, which must be the first frame. `protocol` is `nil` when missing or not an
  /// integer — the host answers `unsupported_protocol` then; `client` is the client's name.
  case hello(protocol: Int64?, client: String?)
  /// Lists the scopes the host exposes; answered by ``HostMessage/scopes(id:scopes:)``.
  case scopes(id: Int64)
  /// Reads a scope's state once — now, or at the past revision `at` (§8) — answered by
  /// ``HostMessage/state(id:scope:rev:state:)``.
  case get(id: Int64, scope: String, at: Int64? = nil)
  /// Subscribes to a scope; answered by ``HostMessage/subscribed(id:sub:scope:rev:state:)``.
  case subscribe(id: Int64, scope: String)
  /// Ends a subscription; answered by ``HostMessage/ok(id:)``.
  case unsubscribe(id: Int64, sub: Int64)
  /// Sends an action to a writable scope; answered by ``HostMessage/ack(id:rev:)`` when `id`
  /// is given, and by ``HostMessage/error(id:code:message:)`` on failure either way.
  case send(id: Int64?, scope: String, action: JSON)
  /// Liveness check; answered by ``HostMessage/pong(id:)``.
  case ping(id: Int64)
  /// Reads reduced actions (§8): those after `since`, or the last `limit` (default 100, at most
  /// ``historyLimitMaximum``), only those sent to `scope` (a name or a pattern) when given;
  /// answered by ``HostMessage/history(id:oldest:rev:entries:)``.
  case history(id: Int64, since: Int64?, limit: Int64?, scope: String?)
  /// Follows reduced actions as they happen (§8), from after `since` when given; answered by
  /// ``HostMessage/tailing(id:sub:rev:)``, then ``HostMessage/entry(sub:entry:)`` pushes.
  case tail(id: Int64, since: Int64?, scope: String?)

  /// The protocol version this module speaks.
  public static let protocolVersion: Int64 = 1

  /// The most entries one `history` request returns (§8); a larger `limit` is read as this.
  public static let historyLimitMaximum: Int64 = 10_000

  /// Decodes a message from its JSON form.
  ///
  /// - Parameter json: The parsed payload of one frame.
  /// - Throws: ``MessageError`` — ``ErrorCode/badJSON`` if the top level is not an object,
  ///   ``ErrorCode/badMessage`` for an unknown `type` or a missing or mistyped member.
  public init(json: JSON) throws(MessageError) {
    let reader = try MessageReader(json)
    switch (reader.typeLength, reader.type) {
    case (5, "hello"):
      // Lenient on purpose: a handshake ends in `welcome` or `unsupported_protocol`, never in
      // `bad_message`, so a strange `protocol` or `client` is read as absent.
      let version = reader.member("protocol").flatMap(MessageReader.integer)
      let client: String? =
        if case .string(let name) = reader.member("client") { name } else { nil }
      self = .hello(protocol: version, client: client)
    case (6, "scopes"):
      self = .scopes(id: try reader.int("id"))
    case (3, "get"):
      self = .get(
        id: try reader.int("id"), scope: try reader.string("scope"),
        at: try reader.optionalInt("at"))
    case (9, "subscribe"):
      self = .subscribe(id: try reader.int("id"), scope: try reader.string("scope"))
    case (11, "unsubscribe"):
      self = .unsubscribe(id: try reader.int("id"), sub: try reader.int("sub"))
    case (4, "send"):
      self = .send(
        id: try reader.optionalInt("id"), scope: try reader.string("scope"),
        action: try reader.value("action"))
    case (4, "ping"):
      self = .ping(id: try reader.int("id"))
    case (7, "history"):
      let id = try reader.int("id")
      let limit = try reader.optionalInt("limit")
      if let limit, limit < 1 {
        throw MessageError(
          code: .badMessage, id: id,
          message: "history: 'limit' must be at least 1 (at most \(Self.historyLimitMaximum))")
      }
      self = .history(
        id: id, since: try reader.optionalInt("since"), limit: limit,
        scope: try reader.optionalString("scope"))
    case (4, "tail"):
      self = .tail(
        id: try reader.int("id"), since: try reader.optionalInt("since"),
        scope: try reader.optionalString("scope"))
    default:
      throw reader.unknownType()
    }
  }

  /// The message `type`, e.g. `"subscribe"`.
  public var type: String { self.typeName }

  /// The request's `id`, if it has one.
  public var id: Int64? {
    switch self {
    case .hello: nil
    case .scopes(let id), .get(let id, _, _), .subscribe(let id, _), .unsubscribe(let id, _),
      .ping(let id), .history(let id, _, _, _), .tail(let id, _, _):
      id
    case .send(let id, _, _): id
    }
  }

  /// The message as a JSON object, `type` first, optional members omitted when `nil`.
  public var json: JSON { self.jsonObject }

  /// Appends the message as one frame — length prefix and compact JSON — to `buffer`, writing
  /// the JSON in place without building an intermediate ``JSON`` value.
  ///
  /// - Parameter buffer: The output buffer, e.g. a connection's outbound buffer.
  public func encodeFrame(into buffer: inout [UInt8]) {
    FrameEncoder.appendFrame(to: &buffer) { (out: inout [UInt8]) in self.writeJSON(into: &out) }
  }
}

extension ClientMessage: ProtocolMessage {
  var opening: StaticString {
    switch self {
    case .hello: #"{"type":"hello""#
    case .scopes: #"{"type":"scopes""#
    case .get: #"{"type":"get""#
    case .subscribe: #"{"type":"subscribe""#
    case .unsubscribe: #"{"type":"unsubscribe""#
    case .send: #"{"type":"send""#
    case .ping: #"{"type":"ping""#
    case .history: #"{"type":"history""#
    case .tail: #"{"type":"tail""#
    }
  }

  func members<Sink: MessageSink>(into sink: inout Sink) {
    switch self {
    case .hello(let version, let client):
      if let version { sink.member(#","protocol":"#, version) }
      if let client { sink.member(#","client":"#, client) }
    case .scopes(let id), .ping(let id):
      sink.member(#","id":"#, id)
    case .get(let id, let scope, let at):
      sink.member(#","id":"#, id)
      sink.member(#","scope":"#, scope)
      if let at { sink.member(#","at":"#, at) }
    case .subscribe(let id, let scope):
      sink.member(#","id":"#, id)
      sink.member(#","scope":"#, scope)
    case .unsubscribe(let id, let sub):
      sink.member(#","id":"#, id)
      sink.member(#","sub":"#, sub)
    case .send(let id, let scope, let action):
      if let id { sink.member(#","id":"#, id) }
      sink.member(#","scope":"#, scope)
      sink.member(#","action":"#, action)
    case .history(let id, let since, let limit, let scope):
      sink.member(#","id":"#, id)
      if let since { sink.member(#","since":"#, since) }
      if let limit { sink.member(#","limit":"#, limit) }
      if let scope { sink.member(#","scope":"#, scope) }
    case .tail(let id, let since, let scope):
      sink.member(#","id":"#, id)
      if let since { sink.member(#","since":"#, since) }
      if let scope { sink.member(#","scope":"#, scope) }
    }
  }
}
