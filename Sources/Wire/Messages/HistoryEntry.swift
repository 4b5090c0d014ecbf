/// One action a host reduced, as its history shows it (PROTOCOL.md §8): the members of an
/// entry in a `history` reply and of an `entry` push.
///
/// ```swift
/// case .entry(let sub, let entry):
///   print("rev \(entry.rev)  \(entry.time)  \(entry.scope ?? "-")")
/// ```
public struct HistoryEntry: Sendable, Hashable {
  /// Who sent an action.
  public enum Origin: Sendable, Hashable {
    /// A client's `send`: its session (as in `welcome`), the name it gave in `hello` (or
    /// `nil`), its process and user ids, and its role when the host assigns roles
    /// (`"ro"`/`"rw"`; `nil` when the host does not say).
    case client(session: String, client: String?, pid: Int64, uid: Int64, role: String? = nil)
    /// An action fed back by an effect.
    case effect
    /// An action the hosting program sent itself.
    case host
  }

  /// The root revision the action produced.
  public var rev: Int64
  /// When it was reduced: RFC 3339 UTC with milliseconds, e.g. `2026-11-24T14:00:00.123Z`.
  public var time: String
  /// Who sent it.
  public var origin: Origin
  /// The scope a client sent it to; `nil` for effect and host actions.
  public var scope: String?
  /// The action's JSON as sent to ``scope``; for effect and host actions the root action's
  /// JSON, or `nil` when the host cannot encode it.
  public var action: JSON?

  /// Creates an entry.
  public init(rev: Int64, time: String, origin: Origin, scope: String?, action: JSON?) {
    self.rev = rev
    self.time = time
    self.origin = origin
    self.scope = scope
    self.action = action
  }

  /// Reads an entry from the members of `json` (an entry object, or an `entry` push whose other
  /// members are ignored).
  ///
  /// - Parameters:
  ///   - json: The object.
  ///   - path: Where it is in its message, for error messages (e.g. `entries[3]`).
  /// - Throws: ``MessageError`` (`bad_message`) naming a missing or mistyped member.
  public init(json: JSON, path: String = "") throws(MessageError) {
    func name(_ member: String) -> String { path.isEmpty ? member : "\(path).\(member)" }
    func fail(_ member: String, _ expected: String, _ value: JSON?) -> MessageError {
      MessageError(
        code: .badMessage, id: nil,
        message: value == nil
          ? "missing member '\(name(member))'" : "member '\(name(member))' must be \(expected)")
    }
    guard case .object(let object) = json else {
      throw MessageError(code: .badMessage, id: nil, message: "'\(path)' must be an object")
    }
    guard let rev = object["rev"].flatMap(MessageReader.integer) else {
      throw fail("rev", "an integer", object["rev"])
    }
    guard case .string(let time) = object["time"] else {
      throw fail("time", "a string", object["time"])
    }
    self.rev = rev
    self.time = time
    self.origin = try Origin(json: object["origin"], path: name("origin"))
    switch object["scope"] {
    case nil, .null: self.scope = nil
    case .string(let scope): self.scope = scope
    default: throw fail("scope", "a string or null", object["scope"])
    }
    switch object["action"] {
    case nil, .null: self.action = nil
    case let action?: self.action = action
    }
  }

  /// The entry as a JSON object: `rev`, `time`, `origin`, `scope`, `action`.
  public var json: JSON {
    var object: JSONObject = [:]
    self.members(into: &object)
    return .object(object)
  }

  /// Passes the entry's members to `sink` (each key written after a comma, as messages do).
  func members<Sink: MessageSink>(into sink: inout Sink) {
    sink.member(#","rev":"#, self.rev)
    sink.member(#","time":"#, self.time)
    sink.member(#","origin":"#, self.origin.json)
    sink.member(#","scope":"#, self.scope.map(JSON.string) ?? .null)
    sink.member(#","action":"#, self.action ?? .null)
  }
}

extension HistoryEntry.Origin {
  /// `{"kind":"client","session":…,"client":…,"pid":…,"uid":…}`, `{"kind":"effect"}` or
  /// `{"kind":"host"}`.
  public var json: JSON {
    switch self {
    case .client(let session, let client, let pid, let uid, let role):
      var object: JSONObject = [
        "kind": .string("client"), "session": .string(session), "client": client.map(JSON.string) ?? .null,
        "pid": .int(pid), "uid": .int(uid),
      ]
      if let role { object["role"] = .string(role) }
      return .object(object)
    case .effect:
      return .object(["kind": .string("effect")])
    case .host:
      return .object(["kind": .string("host")])
    }
  }

  init(json: JSON?, path: String) throws(MessageError) {
    func bad(_ text: String) -> MessageError {
      MessageError(code: .badMessage, id: nil, message: "member '\(path)' \(text)")
    }
    guard case .object(let object)? = json else {
      throw json == nil
        ? MessageError(code: .badMessage, id: nil, message: "missing member '\(path)'")
        : bad("must be an object")
    }
    switch object["kind"] {
    case .string("effect"): self = .effect
    case .string("host"): self = .host
    case .string("client"):
      guard case .string(let session) = object["session"] else {
        throw bad("needs a string 'session'")
      }
      let client: String? = if case .string(let name) = object["client"] { name } else { nil }
      guard let pid = object["pid"].flatMap(MessageReader.integer),
        let uid = object["uid"].flatMap(MessageReader.integer)
      else { throw bad("needs integer 'pid' and 'uid'") }
      let role: String? = if case .string(let role) = object["role"] { role } else { nil }
      self = .client(session: session, client: client, pid: pid, uid: uid, role: role)
    default:
      throw bad("needs 'kind' \"client\", \"effect\" or \"host\"")
    }
  }
}
