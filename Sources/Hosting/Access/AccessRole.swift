/// What a connection may do: read, or read and write.
///
/// A read-only connection may `scopes`, `get`, `subscribe`, `tail` and `history`; its `send`
/// is answered `error{code:"forbidden"}` naming its role. A read-write connection may also
/// `send`. The host's own user is always read-write.
public enum AccessRole: String, Codable, Sendable, Hashable, Comparable, CaseIterable,
  CustomStringConvertible
{
  /// May read, subscribe and follow the history (`ro`).
  case readOnly = "ro"
  /// May also send actions (`rw`).
  case readWrite = "rw"

  /// Whether the role may send actions.
  public var maySend: Bool { self == .readWrite }

  /// `ro` or `rw`, as `--allow` and the protocol write it.
  public var description: String { self.rawValue }

  /// Read-only ranks below read-write: of two roles granted to one client, the greater wins.
  public static func < (lhs: AccessRole, rhs: AccessRole) -> Bool {
    lhs == .readOnly && rhs == .readWrite
  }
}
