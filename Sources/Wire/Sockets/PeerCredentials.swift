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

  /// Creates credentials.
  ///
  /// - Parameters:
  ///   - pid: The process id, if known.
  ///   - uid: The user id.
  ///   - gid: The group id.
  public init(pid: Int32?, uid: UInt32, gid: UInt32) {
    self.pid = pid
    self.uid = uid
    self.gid = gid
  }

  /// The real user id of this process (`getuid()`).
  public static var currentUserID: UInt32 { Posix.currentUserID() }

  /// `pid 123, uid 1000, gid 1000`.
  public var description: String {
    "pid \(self.pid.map(String.init) ?? "?"), uid \(self.uid), gid \(self.gid)"
  }
}
