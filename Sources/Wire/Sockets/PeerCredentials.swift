/// The identity of the process at the other end of a Unix-domain connection, as the kernel
/// reports it (`SO_PEERCRED` on Linux, `getpeereid` on Darwin) — it cannot be forged by the peer.
///
/// A host uses it to refuse connections from other users (PROTOCOL.md §6):
///
/// ```swift
/// guard connection.peerCredentials?.uid == PeerCredentials.currentUserID else {
///   connection.close()
///   return
/// }
/// ```
public struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
  /// The peer's process id, when the platform reports it.
  public var pid: Int32?
  /// The peer's effective user id.
  public var uid: UInt32
  /// The peer's effective group id.
  public var gid: UInt32
  /// The peer's supplementary groups, as the kernel holds them for its process
  /// (`SO_PEERGROUPS` on Linux 4.13 and later, `LOCAL_PEERCRED` on Darwin); empty where the
  /// platform does not report them. Like a file's group permission, membership is the
  /// process's: a user added to a group has it in processes started after they log in again.
  public var groups: [UInt32]

  /// Creates credentials.
  ///
  /// - Parameters:
  ///   - pid: The process id, if known.
  ///   - uid: The user id.
  ///   - gid: The group id.
  ///   - groups: The supplementary group ids, if known.
  public init(pid: Int32?, uid: UInt32, gid: UInt32, groups: [UInt32] = []) {
    self.pid = pid
    self.uid = uid
    self.gid = gid
    self.groups = groups
  }

  /// Whether the peer's process belongs to group `gid`, as its effective group or one of its
  /// supplementary groups.
  ///
  /// - Parameter gid: The group id.
  /// - Returns: `true` when the process has the group.
  public func isMember(ofGroup gid: UInt32) -> Bool {
    self.gid == gid || self.groups.contains(gid)
  }

  /// The credentials of the process at the other end of a connected `AF_UNIX` socket, as
  /// the kernel reports them; `nil` if it reports none (not a Unix socket, say).
  ///
  /// - Parameter fileDescriptor: The socket.
  public init?(ofSocket fileDescriptor: Int32) {
    guard let credentials = Posix.peerCredentials(fileDescriptor) else { return nil }
    self = credentials
  }

  /// The real user id of this process (`getuid()`).
  public static var currentUserID: UInt32 { Posix.currentUserID() }

  /// `pid 123, uid 1000, gid 1000`.
  public var description: String {
    "pid \(self.pid.map(String.init) ?? "?"), uid \(self.uid), gid \(self.gid)"
  }
}
