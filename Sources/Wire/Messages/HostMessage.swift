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
  /// The reply to a supported `hello`.
  case welcome(protocol: Int64, host: String, app: String, session: String)
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
      self = .welcome(
        protocol: try reader.int("protocol"), host: try reader.string("host"),
        app: try reader.string("app"), session: try reader.string("session"))
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
    switch object["description"] {
    case nil, .null:
      return ScopeInfo(pattern: pattern, writable: writable)
    case .string(let description):
      return ScopeInfo(pattern: pattern, writable: writable, description: description)
    default:
      throw reader.mistyped("\(path).description", "a string")
    }
  }

  /// The message `type`, e.g. `"patch"`.
  public var type: String {
    switch self {
    case .welcome: "welcome"
    case .scopes: "scopes"
    case .state: "state"
    case .subscribed: "subscribed"
    case .patch: "patch"
    case .unsubscribed: "unsubscribed"
    case .ack: "ack"
    case .ok: "ok"
    case .pong: "pong"
    case .error: "error"
    case .bye: "bye"
    }
  }

  /// `{"type":"<type>"`, the start of the message's JSON text.
  private var opening: StaticString {
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
    }
  }

  /// The message as a JSON object, `type` first; an `error` without `id` has `"id":null`.
  public var json: JSON {
    var object: JSONObject = ["type": .string(self.type)]
    switch self {
    case .welcome(let version, let host, let app, let session):
      object["protocol"] = .int(version)
      object["host"] = .string(host)
      object["app"] = .string(app)
      object["session"] = .string(session)
    case .scopes(let id, let scopes):
      object["id"] = .int(id)
      object["scopes"] = .array(scopes.map(\.json))
    case .state(let id, let scope, let rev, let state):
      object["id"] = .int(id)
      object["scope"] = .string(scope)
      object["rev"] = .int(rev)
      object["state"] = state
    case .subscribed(let id, let sub, let scope, let rev, let state):
      object["id"] = .int(id)
      object["sub"] = .int(sub)
      object["scope"] = .string(scope)
      object["rev"] = .int(rev)
      object["state"] = state
    case .patch(let sub, let base, let rev, let ops):
      object["sub"] = .int(sub)
      object["base"] = .int(base)
      object["rev"] = .int(rev)
      object["ops"] = .array(ops)
    case .unsubscribed(let sub, let reason):
      object["sub"] = .int(sub)
      object["reason"] = .string(reason)
    case .ack(let id, let rev):
      object["id"] = .int(id)
      object["rev"] = .int(rev)
    case .ok(let id), .pong(let id):
      object["id"] = .int(id)
    case .error(let id, let code, let message):
      object["id"] = id.map(JSON.int) ?? .null
      object["code"] = .string(code.rawValue)
      object["message"] = .string(message)
    case .bye(let reason):
      object["reason"] = .string(reason)
    }
    return .object(object)
  }

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
      FrameEncoder.appendFrame(to: &buffer) { (out: inout [UInt8]) in
        self.writePayload(into: &out)
      }
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
      self.writePayload(into: &out)
    }
  }

  private func writePayload(into out: inout [UInt8]) {
    JSONByteWriter.append(self.opening, into: &out)
    switch self {
    case .welcome(let version, let host, let app, let session):
      JSONByteWriter.member(#","protocol":"#, version, into: &out)
      JSONByteWriter.member(#","host":"#, host, into: &out)
      JSONByteWriter.member(#","app":"#, app, into: &out)
      JSONByteWriter.member(#","session":"#, session, into: &out)
    case .scopes(let id, let scopes):
      JSONByteWriter.member(#","id":"#, id, into: &out)
      JSONByteWriter.append(#","scopes":"#, into: &out)
      out.append(UInt8(ascii: "["))
      for (index, scope) in scopes.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        JSONByteWriter.append(#"{"pattern":"#, into: &out)
        JSONByteWriter.string(scope.pattern, into: &out)
        JSONByteWriter.member(#","writable":"#, scope.writable, into: &out)
        if let description = scope.description {
          JSONByteWriter.member(#","description":"#, description, into: &out)
        }
        out.append(UInt8(ascii: "}"))
      }
      out.append(UInt8(ascii: "]"))
    case .state(let id, let scope, let rev, let state):
      JSONByteWriter.member(#","id":"#, id, into: &out)
      JSONByteWriter.member(#","scope":"#, scope, into: &out)
      JSONByteWriter.member(#","rev":"#, rev, into: &out)
      JSONByteWriter.member(#","state":"#, state, into: &out)
    case .subscribed(let id, let sub, let scope, let rev, let state):
      JSONByteWriter.member(#","id":"#, id, into: &out)
      JSONByteWriter.member(#","sub":"#, sub, into: &out)
      JSONByteWriter.member(#","scope":"#, scope, into: &out)
      JSONByteWriter.member(#","rev":"#, rev, into: &out)
      JSONByteWriter.member(#","state":"#, state, into: &out)
    case .patch(let sub, let base, let rev, let ops):
      JSONByteWriter.member(#","sub":"#, sub, into: &out)
      JSONByteWriter.member(#","base":"#, base, into: &out)
      JSONByteWriter.member(#","rev":"#, rev, into: &out)
      JSONByteWriter.append(#","ops":"#, into: &out)
      out.append(UInt8(ascii: "["))
      for (index, op) in ops.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        JSONByteWriter.value(op, into: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .unsubscribed(let sub, let reason):
      JSONByteWriter.member(#","sub":"#, sub, into: &out)
      JSONByteWriter.member(#","reason":"#, reason, into: &out)
    case .ack(let id, let rev):
      JSONByteWriter.member(#","id":"#, id, into: &out)
      JSONByteWriter.member(#","rev":"#, rev, into: &out)
    case .ok(let id), .pong(let id):
      JSONByteWriter.member(#","id":"#, id, into: &out)
    case .error(let id, let code, let message):
      if let id {
        JSONByteWriter.member(#","id":"#, id, into: &out)
      } else {
        JSONByteWriter.append(#","id":"#, into: &out)
        JSONByteWriter.append("null", into: &out)
      }
      JSONByteWriter.member(#","code":"#, code.rawValue, into: &out)
      JSONByteWriter.member(#","message":"#, message, into: &out)
    case .bye(let reason):
      JSONByteWriter.member(#","reason":"#, reason, into: &out)
    }
    out.append(UInt8(ascii: "}"))
  }
}
