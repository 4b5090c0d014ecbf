/// Which to-dos ``Todos`` shows. Encodes as its raw value: `"all"`, `"active"`, `"completed"`.
public enum Filter: String, Codable, CaseIterable, Equatable, Hashable, Sendable {
  /// Every to-do.
  case all
  /// The to-dos not yet done.
  case active
  /// The to-dos done.
  case completed
}
