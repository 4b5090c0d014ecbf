import Wire

/// The scopes a host serves, with lookup of concrete scope names such as `todos/0B9E…`.
@usableFromInline
struct ScopeRegistry<State, Action> {
  /// The name of the built-in read-only scope with the host's live figures.
  static var hostScopeName: String { "_host" }

  let scopes: [HostedScope<State, Action>]

  @usableFromInline
  init(_ scopes: [HostedScope<State, Action>]) {
    var seen = Set<String>()
    for scope in scopes {
      precondition(seen.insert(scope.pattern).inserted, "Scope '\(scope.pattern)' is declared twice")
      precondition(
        scope.pattern != Self.hostScopeName, "'\(Self.hostScopeName)' is reserved for the host")
    }
    self.scopes = scopes
  }

  /// The `scopes` listing, the built-in `_host` last.
  @usableFromInline var listing: [ScopeInfo] {
    scopes.map {
      ScopeInfo(
        pattern: $0.pattern, writable: $0.isWritable, description: $0.description,
        actions: $0.actionShape)
    }
      + [ScopeInfo(pattern: Self.hostScopeName, writable: false, description: HostFigures.summary)]
  }

  /// What a scope name refers to.
  @usableFromInline
  enum Lookup {
    /// The built-in `_host` scope.
    case host
    /// A declared scope with its ids bound.
    case scope(HostedScope<State, Action>, BoundScope<State, Action>)
    /// A declared pattern matches, but an `{id}` segment cannot be an id of its collection.
    case unavailable(HostedScope<State, Action>)
    /// No pattern matches.
    case unknown
  }

  @usableFromInline
  func lookup(_ name: String) -> Lookup {
    if name == Self.hostScopeName { return .host }
    let parts = name.split(separator: "/", omittingEmptySubsequences: false)
    for scope in scopes where scope.segments.count == parts.count {
      var ids: [String] = []
      var matches = true
      for (segment, part) in zip(scope.segments, parts) {
        switch segment {
        case .literal(let literal):
          if literal != part { matches = false }
        case .id:
          if part.isEmpty { matches = false } else { ids.append(String(part)) }
        }
        if !matches { break }
      }
      guard matches else { continue }
      guard let bound = scope.bind(ids) else { return .unavailable(scope) }
      return .scope(scope, bound)
    }
    return .unknown
  }
}
