import Foundation

/// An identifier that can name one element of a collection in a scope path, as the `{id}`
/// segment of a pattern like `todos/{id}`.
///
/// The host renders ids with ``scopeSegment`` (in `scopes` listings and logs) and parses the
/// segments clients send with ``init(scopeSegment:)``. Conform your own id types to host
/// collections of them.
public protocol ScopeIdentifier: Hashable, Sendable {
  /// Parses a path segment; `nil` when it cannot be an id of this type.
  init?(scopeSegment: String)
  /// The path segment that names this id.
  var scopeSegment: String { get }
}

extension UUID: ScopeIdentifier {
  /// Parses a UUID in either case (`uuidString` is upper case; clients often send lower case).
  public init?(scopeSegment: String) { self.init(uuidString: scopeSegment) }
  /// The canonical upper-case `uuidString`, the same text the JSON state carries.
  public var scopeSegment: String { uuidString }
}

extension Int: ScopeIdentifier {
  /// Parses a decimal integer.
  public init?(scopeSegment: String) { self.init(scopeSegment, radix: 10) }
  /// The decimal rendering.
  public var scopeSegment: String { String(self) }
}

extension Int64: ScopeIdentifier {
  /// Parses a decimal integer.
  public init?(scopeSegment: String) { self.init(scopeSegment, radix: 10) }
  /// The decimal rendering.
  public var scopeSegment: String { String(self) }
}

extension String: ScopeIdentifier {
  /// Any non-empty segment is a string id.
  public init?(scopeSegment: String) {
    guard !scopeSegment.isEmpty else { return nil }
    self = scopeSegment
  }
  /// The id itself.
  public var scopeSegment: String { self }
}
