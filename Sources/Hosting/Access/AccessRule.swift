/// One grant of a host's access policy: a user, a group or everyone, and the role they get
/// (`storehost --allow WHO[:ro|:rw]`).
///
/// ```swift
/// configuration.access.rules = [
///   AccessRule(.group(staffID), .readOnly),     // --allow @staff:ro
///   AccessRule(.user(1001), .readWrite),        // --allow 1001:rw
/// ]
/// ```
public struct AccessRule: Sendable, Hashable, CustomStringConvertible {
  /// Whom a rule grants its role.
  public enum Subject: Sendable, Hashable {
    /// The user with this uid.
    case user(UInt32)
    /// Processes having this group, as their effective or a supplementary group.
    case group(UInt32)
    /// Every user of the machine.
    case everyone
  }

  /// Whom the rule grants its role.
  public var subject: Subject
  /// The role granted.
  public var role: AccessRole

  /// A rule granting `role` to `subject`.
  ///
  /// - Parameters:
  ///   - subject: A user, a group, or everyone.
  ///   - role: The role granted.
  public init(_ subject: Subject, _ role: AccessRole) {
    self.subject = subject
    self.role = role
  }

  /// Whether the rule applies to `client`.
  ///
  /// - Parameter client: The connecting client.
  /// - Returns: `true` when the client is the rule's user, has its group, or the rule is for
  ///   everyone.
  public func applies(to client: ConnectingClient) -> Bool {
    switch self.subject {
    case .user(let uid): client.userID == uid
    case .group(let gid): client.isMember(ofGroup: gid)
    case .everyone: true
    }
  }

  /// The rule as `--allow` writes it, with names where the machine knows them:
  /// `alice:rw`, `@staff:ro`, `1001:ro`, `*:rw` (everyone).
  public var description: String {
    let who: String
    switch self.subject {
    case .user(let uid): who = Platform.userName(of: uid) ?? String(uid)
    case .group(let gid): who = "@" + (Platform.groupName(of: gid) ?? String(gid))
    case .everyone: who = "*"
    }
    return "\(who):\(self.role)"
  }
}
