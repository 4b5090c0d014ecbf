import Wire

/// The users a client accepts as its host's: its own, root, and those it names.
///
/// A client connecting to a Unix socket checks who serves it, from the socket's
/// kernel-reported peer credentials, before it sends anything: a socket that another user put
/// where the client looks — to receive the actions it sends and feed it forged state — is
/// refused with ``RemoteError/untrustedHost(path:uid:user:)``, which names that user.
///
/// ```swift
/// // a team's host, run by the user `teamhost`
/// let users = try HostUsers(named: ["teamhost"])
/// let client = try await HostClient.connect(
///   via: UnixSocketTransport(path: "/srv/team/host.sock", hostUsers: users))
/// ```
public struct HostUsers: Sendable, Hashable {
  /// The uids accepted besides this process's own and root's.
  public var userIDs: Set<UInt32>

  /// Accepts hosts run by this process's user, root, and `userIDs`.
  ///
  /// - Parameter userIDs: Further users' ids.
  public init(userIDs: Set<UInt32> = []) {
    self.userIDs = userIDs
  }

  /// Accepts hosts run by this process's user, root, and the users `names` names (user
  /// names, or numeric uids).
  ///
  /// - Parameter names: User names or uids.
  /// - Throws: ``HostUsersError`` naming a user this machine does not know.
  public init(named names: [String]) throws(HostUsersError) {
    var ids: Set<UInt32> = []
    for name in names {
      if !name.isEmpty, name.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let id = UInt32(name),
        id != .max
      {
        ids.insert(id)
      } else if let id = Platform.userID(named: name) {
        ids.insert(id)
      } else {
        throw HostUsersError(name: name)
      }
    }
    self.userIDs = ids
  }

  /// Only this process's user and root.
  public static let standard = HostUsers()

  /// Whether a host run by `uid` is accepted.
  ///
  /// - Parameter uid: The host process's user id.
  /// - Returns: `true` for this process's user, root, and ``userIDs``.
  public func accepts(_ uid: UInt32) -> Bool {
    uid == Platform.userID || uid == 0 || self.userIDs.contains(uid)
  }

  /// Checks the credentials of the process serving `path`.
  ///
  /// - Parameters:
  ///   - peer: The peer's credentials (`nil` where the platform reports none: refused, as
  ///     the host cannot be vouched for).
  ///   - path: The socket path, for the error.
  /// - Throws: ``RemoteError/untrustedHost(path:uid:user:)``.
  public func check(_ peer: PeerCredentials?, path: String) throws(RemoteError) {
    guard let peer else {
      throw .untrustedHost(path: path, uid: nil, user: nil)
    }
    guard self.accepts(peer.uid) else {
      throw .untrustedHost(path: path, uid: peer.uid, user: Platform.userName(of: peer.uid))
    }
  }
}

/// A `--host-user` (or ``HostUsers/init(named:)``) that names no user of this machine.
public struct HostUsersError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The name given.
  public var name: String

  /// The error for `name`.
  ///
  /// - Parameter name: The name given.
  public init(name: String) { self.name = name }

  /// `this machine has no user named 'bob'`.
  public var description: String { "this machine has no user named '\(self.name)'" }
}
