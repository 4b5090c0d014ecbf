/// One scope a host exposes, as listed in a `scopes` reply (PROTOCOL.md §2–3).
public struct ScopeInfo: Sendable, Hashable {
  /// The `/`-separated pattern, where a segment `{id}` matches one element of a collection,
  /// e.g. `todos/{id}`.
  public var pattern: String
  /// Whether the scope accepts `send`.
  public var writable: Bool
  /// A human-readable description, if the host declared one.
  public var description: String?
  /// The shape of the actions `send` takes (for a writable scope whose host lists it): its
  /// cases and the JSON each takes (docs/PROTOCOL.md, *Actions a scope takes*).
  public var actions: JSONShape?

  /// Creates a scope description.
  ///
  /// - Parameters:
  ///   - pattern: The scope pattern, e.g. `todos/{id}`.
  ///   - writable: Whether the scope accepts `send`.
  ///   - description: A human-readable description.
  ///   - actions: The shape of the actions it takes.
  public init(
    pattern: String, writable: Bool, description: String? = nil, actions: JSONShape? = nil
  ) {
    self.pattern = pattern
    self.writable = writable
    self.description = description
    self.actions = actions
  }

  /// The scope as a JSON object: `{"pattern":…,"writable":…,"description":…,"actions":…}`.
  public var json: JSON {
    var object = JSONObject()
    self.members(into: &object)
    return .object(object)
  }

  /// Passes the members to `sink`, `pattern` first (there is always one, so the text sink can
  /// turn its comma into the object's opening brace).
  func members<Sink: MessageSink>(into sink: inout Sink) {
    sink.member(#","pattern":"#, self.pattern)
    sink.member(#","writable":"#, self.writable)
    if let description = self.description { sink.member(#","description":"#, description) }
    if let actions = self.actions { sink.member(#","actions":"#, actions.json) }
  }
}
