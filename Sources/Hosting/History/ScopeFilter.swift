/// The `scope` member of `history` and `tail` (PROTOCOL.md §8): only entries sent to that scope,
/// or, when it is a pattern, to any scope it matches (`todos/{id}` matches `todos/0B9E…`).
/// Effect and host entries, which no client sent to a scope, never pass a filter.
struct ScopeFilter: Equatable, Sendable {
  private enum Segment: Equatable {
    case literal(Substring)
    case anyID
  }

  /// The filter as the client wrote it.
  let text: String
  private let segments: [Segment]?

  /// A filter for one concrete scope name (`{id}` in it is taken literally).
  init(name: String) {
    self.text = name
    self.segments = nil
  }

  /// A filter for a declared pattern: each `{id}` segment matches any non-empty segment.
  init(pattern: String) {
    self.text = pattern
    self.segments = pattern.split(separator: "/", omittingEmptySubsequences: false).map {
      $0 == "{id}" ? .anyID : .literal($0)
    }
  }

  /// Whether an entry sent to `scope` passes (`nil`: an effect or host entry).
  func matches(_ scope: String?) -> Bool {
    guard let scope else { return false }
    guard let segments else { return scope == self.text }
    var parts = scope.split(separator: "/", omittingEmptySubsequences: false)[...]
    for segment in segments {
      guard let part = parts.popFirst() else { return false }
      switch segment {
      case .literal(let literal): if part != literal { return false }
      case .anyID: if part.isEmpty { return false }
      }
    }
    return parts.isEmpty
  }
}
