/// Who is connecting to a host, as the kernel reports it for the socket (it cannot be forged
/// by the client): what an ``AccessPolicy`` decides from.
public struct ConnectingClient: Sendable, Hashable {
  /// The client process's id (0 where the platform does not report it).
  public var processID: Int32
  /// The client's effective user id.
  public var userID: UInt32
  /// The client's effective group id.
  public var groupID: UInt32
  /// The client process's supplementary groups (empty where the platform does not report
  /// them).
  public var groups: [UInt32]

  /// Describes a connecting client.
  ///
  /// - Parameters:
  ///   - processID: The process id.
  ///   - userID: The effective user id.
  ///   - groupID: The effective group id.
  ///   - groups: The supplementary group ids.
  public init(processID: Int32, userID: UInt32, groupID: UInt32, groups: [UInt32] = []) {
    self.processID = processID
    self.userID = userID
    self.groupID = groupID
    self.groups = groups
  }

  /// Whether the client's process has group `gid`, as its effective or a supplementary group.
  ///
  /// - Parameter gid: The group id.
  /// - Returns: `true` when it has the group.
  public func isMember(ofGroup gid: UInt32) -> Bool {
    self.groupID == gid || self.groups.contains(gid)
  }
}

/// What an ``AccessPolicy`` hook decides about one connection.
public enum AccessDecision: Sendable, Hashable {
  /// Serve it, with this role.
  case allow(AccessRole)
  /// Refuse it: the client is answered `error{code:"forbidden"}` carrying `reason`, then the
  /// connection is closed.
  case refuse(reason: String)
}
