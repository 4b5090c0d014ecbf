extension HostFigures {
  /// How many connections one user holds with one role: a row of `_host`'s
  /// `connectionsByUser`, e.g. `{"uid":1001,"role":"ro","connections":2}`.
  public struct UserConnections: Codable, Equatable, Sendable {
    /// The user's id, from the socket's peer credentials.
    public var uid: UInt32
    /// The role the access policy gave the connections.
    public var role: AccessRole
    /// The number of open connections.
    public var connections: Int

    /// A row.
    ///
    /// - Parameters:
    ///   - uid: The user's id.
    ///   - role: The connections' role.
    ///   - connections: How many there are.
    public init(uid: UInt32, role: AccessRole, connections: Int) {
      self.uid = uid
      self.role = role
      self.connections = connections
    }

    /// What the host counts connections by.
    struct Key: Hashable {
      var userID: UInt32
      var role: AccessRole
    }

    /// The rows for `counts`, ordered by uid, then role.
    static func list(_ counts: [Key: Int]) -> [UserConnections] {
      counts.map { UserConnections(uid: $0.key.userID, role: $0.key.role, connections: $0.value) }
        .sorted { ($0.uid, $0.role) < ($1.uid, $1.role) }
    }
  }
}
