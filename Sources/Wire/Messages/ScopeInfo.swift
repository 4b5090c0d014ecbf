/// One scope a host exposes, as listed in a `scopes` reply (PROTOCOL.md §2–3).
public struct ScopeInfo: Sendable, Hashable {
  /// The `/`-separated pattern, where a segment `{id}` matches one element of a collection,
  /// e.g. `todos/{id}`.
  public var pattern: String
  /// Whether the scope accepts `send`.
  public var writable: Bool
  /// A human-readable description, if the host declared one.
  public var description: String?

  /// Creates a scope description.
  ///
  /// - Parameters:
  ///   - pattern: The scope pattern, e.g. `todos/{id}`.
  ///   - writable: Whether the scope accepts `send`.
  ///   - description: A human-readable description.
  public init(pattern: String, writable: Bool, description: String? = nil) {
    self.pattern = pattern
    self.writable = writable
    self.description = description
  }

  /// The scope as a JSON object: `{"pattern":…,"writable":…,"description":…}`.
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
  }
}
