/// A message from a host to a client (PROTOCOL.md §2, "Host → client").
///
/// ```swift
/// var out: [UInt8] = []
/// HostMessage.ack(id: 2, rev: 42).encodeFrame(into: &out)   // {"type":"ack","id":2,"rev":42}
/// ```
///
/// > Note: ``patch(sub:base:rev:ops:)`` carries its RFC 6902 operations as raw JSON objects
/// > until the JSON Patch module is merged; the host converts them with
/// > `JSONPatchOperation(json:)` / `.json`.
public enum HostMessage: Sendable, Hashable {
  /// The reply to a supported `hello`. `features` lists the optional parts of the protocol the
  /// host implements (`"history"` §8, `"durable"` §9); it is omitted from the frame when empty.
  case welcome(protocol: Int64, host: String, app: String, session: String, features: [String] = [])
  /// The reply to `scopes`: every scope the host exposes.
  case scopes(id: Int64, scopes: [ScopeInfo])
  /// The reply to `get`: the scope's state at root revision `rev`.
  case state(id: Int64, scope: String, rev: Int64, state: JSON)
  /// The reply to `subscribe`: the subscription's host-assigned `sub` and a full snapshot.
  case subscribed(id: Int64, sub: Int64, scope: String, rev: Int64, state: JSON)
  /// A push: `ops` (RFC 6902 operation objects, never empty) turn the state at `base` into the
  /// state at `rev`.
  case patch(sub: Int64, base: Int64, rev: Int64, ops: [JSON])
  /// A push: the subscription is over, e.g. `reason` `"scope_gone"`.
  case unsubscribed(sub: Int64, reason: String)
  /// The reply to a `send` with an `id`: the root revision right after the action was reduced.
  case ack(id: Int64, rev: Int64)
  /// The reply to `unsubscribe`.
  case ok(id: Int64)
  /// The reply to `ping`.
  case pong(id: Int64)
  /// A failed request; `id` is the request's integer `id`, or `nil` (sent as `null`).
  case error(id: Int64?, code: ErrorCode, message: String)
  /// The host is closing the connection, e.g. `reason` `"shutdown"`.
  case bye(reason: String)
  /// The reply to `history` (§8): `entries` oldest first; `oldest` is the oldest revision the
  /// host still retains, `rev` the current root revision.
  case history(id: Int64, oldest: Int64, rev: Int64, entries: [HistoryEntry])
  /// The reply to `tail` (§8): the tail's `sub` and the root revision when it started.
  case tailing(id: Int64, sub: Int64, rev: Int64)
  /// A push for a tail (§8): one reduced action.
  case entry(sub: Int64, entry: HistoryEntry)
  /// A push for a tail that fell behind (§8): the entries after `from` up to and including `to`
  /// were skipped.
  case entryGap(sub: Int64, from: Int64, to: Int64)

  /// The error reply for a message that failed to decode, echoing its `id`.
  ///
  /// - Parameter error: The decoding error.
  /// - Returns: `error{id, code, message}`.
  public static func error(_ error: MessageError) -> HostMessage {
    .error(id: error.id, code: error.code, message: error.message)
  }

  /// Decodes a message from its JSON form (the client side of the protocol).
  ///
  /// - Parameter json: The parsed payload of one frame.
  /// - Throws: ``MessageError`` for a top level that is not an object, an unknown `type`, or
  ///   a missing or mistyped member.
  public init(json: JSON) throws(MessageError) {
    let reader = try MessageReader(json)
    switch (reader.typeLength, reader.type) {
    case (7, "welcome"):
      var features: [String] = []
      if let list = reader.member("features"), list != .null {
        for (index, feature) in try reader.array("features").enumerated() {
          guard case .string(let name) = feature else {
            throw reader.mistyped("features[\(index)]", "a string")
          }
          features.append(name)
        }
      }
      self = .welcome(
        protocol: try reader.int("protocol"), host: try reader.string("host"),
        app: try reader.string("app"), session: try reader.string("session"), features: features)
    case (6, "scopes"):
      let id = try reader.int("id")
      var scopes: [ScopeInfo] = []
      for (index, element) in try reader.array("scopes").enumerated() {
        scopes.append(try Self.scopeInfo(element, at: index, reader: reader))
      }
      self = .scopes(id: id, scopes: scopes)
    case (5, "state"):
      self = .state(
        id: try reader.int("id"), scope: try reader.string("scope"), rev: try reader.int("rev"),
        state: try reader.value("state"))
    case (10, "subscribed"):
      self = .subscribed(
        id: try reader.int("id"), sub: try reader.int("sub"), scope: try reader.string("scope"),
        rev: try reader.int("rev"), state: try reader.value("state"))
    case (5, "patch"):
      let (sub, base, rev) = (try reader.int("sub"), try reader.int("base"), try reader.int("rev"))
      let ops = try reader.array("ops")
      for (index, op) in ops.enumerated() {
        guard case .object = op else { throw reader.mistyped("ops[\(index)]", "an object") }
      }
      self = .patch(sub: sub, base: base, rev: rev, ops: ops)
    case (12, "unsubscribed"):
      self = .unsubscribed(sub: try reader.int("sub"), reason: try reader.string("reason"))
    case (3, "ack"):
      self = .ack(id: try reader.int("id"), rev: try reader.int("rev"))
    case (2, "ok"):
      self = .ok(id: try reader.int("id"))
    case (4, "pong"):
      self = .pong(id: try reader.int("id"))
    case (5, "error"):
      let id = try reader.optionalInt("id")
      let name = try reader.string("code")
      guard let code = ErrorCode(rawValue: name) else {
        throw reader.error("unknown error code '\(name)'")
      }
      self = .error(id: id, code: code, message: try reader.string("message"))
    case (3, "bye"):
      self = .bye(reason: try reader.string("reason"))
    case (7, "history"):
      let (id, oldest, rev) = (try reader.int("id"), try reader.int("oldest"), try reader.int("rev"))
      var entries: [HistoryEntry] = []
      for (index, element) in try reader.array("entries").enumerated() {
        entries.append(try HistoryEntry(json: element, path: "entries[\(index)]"))
      }
      self = .history(id: id, oldest: oldest, rev: rev, entries: entries)
    case (7, "tailing"):
      self = .tailing(id: try reader.int("id"), sub: try reader.int("sub"), rev: try reader.int("rev"))
    case (5, "entry"):
      self = .entry(sub: try reader.int("sub"), entry: try HistoryEntry(json: .object(reader.object)))
    case (9, "entry_gap"):
      self = .entryGap(sub: try reader.int("sub"), from: try reader.int("from"), to: try reader.int("to"))
    default:
      throw reader.unknownType()
    }
  }

  private static func scopeInfo(
    _ element: JSON, at index: Int, reader: MessageReader
  ) throws(MessageError) -> ScopeInfo {
    let path = "scopes[\(index)]"
    guard case .object(let object) = element else { throw reader.mistyped(path, "an object") }
    guard case .string(let pattern) = object["pattern"] else {
      throw object["pattern"] == nil
        ? reader.missing("\(path).pattern") : reader.mistyped("\(path).pattern", "a string")
    }
    guard case .bool(let writable) = object["writable"] else {
      throw object["writable"] == nil
        ? reader.missing("\(path).writable") : reader.mistyped("\(path).writable", "a boolean")
    }
    var info = ScopeInfo(pattern: pattern, writable: writable)
    switch object["description"] {
    case nil, .null:
      break
    case .string(let description):
      info.description = description
    default:
      throw reader.mistyped("\(path).description", "a string")
    }
    // A shape this client cannot read (a newer host's) is left out, not an error.
    info.actions = object["actions"].flatMap(JSONShape.init(json:))
    return info
  }

  /// The message `type`, e.g. `"patch"`.
  public var type: String { self.typeName }

  /// The message as a JSON object, `type` first; an `error` without `id` has `"id":null`.
  public var json: JSON { self.jsonObject }

  /// Appends the message as one frame — length prefix and compact JSON — to `buffer`, writing
  /// the JSON in place without building an intermediate ``JSON`` value.
  ///
  /// - Parameter buffer: The output buffer, e.g. a connection's outbound buffer.
  public func encodeFrame(into buffer: inout [UInt8]) {
    switch self {
    case .ack(let id, let rev):
      SmallFrameWriter.appendFrame(to: &buffer) { writer in
        writer.put(#"{"type":"ack","id":"#)
        writer.put(id)
        writer.put(#","rev":"#)
        writer.put(rev)
        writer.put("}")
      }
    case .ok(let id), .pong(let id):
      SmallFrameWriter.appendFrame(to: &buffer) { writer in
        writer.put(self.opening)
        writer.put(#","id":"#)
        writer.put(id)
        writer.put("}")
      }
    default:
      FrameEncoder.appendFrame(to: &buffer) { (out: inout [UInt8]) in self.writeJSON(into: &out) }
    }
  }

  /// Appends the message as one frame unless its payload exceeds `maxFrameSize`, in which case
  /// `buffer` is left unchanged (PROTOCOL.md §6: the host never sends a frame over its limit).
  ///
  /// - Parameters:
  ///   - buffer: The output buffer.
  ///   - maxFrameSize: The largest payload allowed, in bytes.
  /// - Throws: ``FrameError/frameTooLarge(length:limit:)`` when the payload is too large.
  public func encodeFrame(into buffer: inout [UInt8], maxFrameSize: Int) throws(FrameError) {
    try FrameEncoder.appendFrame(to: &buffer, maxFrameSize: maxFrameSize) { out in
      self.writeJSON(into: &out)
    }
  }
}

extension HostMessage: ProtocolMessage {
  var opening: StaticString {
    switch self {
    case .welcome: #"{"type":"welcome""#
    case .scopes: #"{"type":"scopes""#
    case .state: #"{"type":"state""#
    case .subscribed: #"{"type":"subscribed""#
    case .patch: #"{"type":"patch""#
    case .unsubscribed: #"{"type":"unsubscribed""#
    case .ack: #"{"type":"ack""#
    case .ok: #"{"type":"ok""#
    case .pong: #"{"type":"pong""#
    case .error: #"{"type":"error""#
    case .bye: #"{"type":"bye""#
    case .history: #"{"type":"history""#
    case .tailing: #"{"type":"tailing""#
    case .entry: #"{"type":"entry""#
    case .entryGap: #"{"type":"entry_gap""#
    }
  }

  func members<Sink: MessageSink>(into sink: inout Sink) {
    switch self {
    case .welcome(let version, let host, let app, let session, let features):
      sink.member(#","protocol":"#, version)
      sink.member(#","host":"#, host)
      sink.member(#","app":"#, app)
      sink.member(#","session":"#, session)
      if !features.isEmpty { sink.member(#","features":"#, features.map(JSON.string)) }
    case .scopes(let id, let scopes):
      sink.member(#","id":"#, id)
      sink.member(#","scopes":"#, scopes)
    case .state(let id, let scope, let rev, let state):
      sink.member(#","id":"#, id)
      sink.member(#","scope":"#, scope)
      sink.member(#","rev":"#, rev)
      sink.member(#","state":"#, state)
    case .subscribed(let id, let sub, let scope, let rev, let state):
      sink.member(#","id":"#, id)
      sink.member(#","sub":"#, sub)
      sink.member(#","scope":"#, scope)
      sink.member(#","rev":"#, rev)
      sink.member(#","state":"#, state)
    case .patch(let sub, let base, let rev, let ops):
      sink.member(#","sub":"#, sub)
      sink.member(#","base":"#, base)
      sink.member(#","rev":"#, rev)
      sink.member(#","ops":"#, ops)
    case .unsubscribed(let sub, let reason):
      sink.member(#","sub":"#, sub)
      sink.member(#","reason":"#, reason)
    case .ack(let id, let rev):
      sink.member(#","id":"#, id)
      sink.member(#","rev":"#, rev)
    case .ok(let id), .pong(let id):
      sink.member(#","id":"#, id)
    case .error(let id, let code, let message):
      if let id { sink.member(#","id":"#, id) } else { sink.member(#","id":"#, JSON.null) }
      sink.member(#","code":"#, code.rawValue)
      sink.member(#","message":"#, message)
    case .bye(let reason):
      sink.member(#","reason":"#, reason)
    case .history(let id, let oldest, let rev, let entries):
      sink.member(#","id":"#, id)
      sink.member(#","oldest":"#, oldest)
      sink.member(#","rev":"#, rev)
      sink.member(#","entries":"#, entries.map(\.json))
    case .tailing(let id, let sub, let rev):
      sink.member(#","id":"#, id)
      sink.member(#","sub":"#, sub)
      sink.member(#","rev":"#, rev)
    case .entry(let sub, let entry):
      sink.member(#","sub":"#, sub)
      entry.members(into: &sink)
    case .entryGap(let sub, let from, let to):
      sink.member(#","sub":"#, sub)
      sink.member(#","from":"#, from)
      sink.member(#","to":"#, to)
    }
  }
}
