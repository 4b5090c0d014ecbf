/// The permissions a host gives its socket file, and the private directory it lives in, so
/// that the clients its access policy may admit can reach it — and no more than that.
///
/// ```
///   only the host's user                 socket 0600           directory 0700
///   rules naming one group, @staff       socket 0660 @staff    directory 0710 @staff
///   users, uids, several groups, *, hook socket 0666           directory 0711
///   --mode M                             socket M               directory what M needs
/// ```
///
/// A mode only decides who can *reach* the socket: the peer-credential check at accept
/// (``AccessPolicy``) decides who is served, whatever the mode.
@usableFromInline
struct SocketPermissions: Equatable {
  /// The socket file's permission bits.
  @usableFromInline var socketMode: UInt32
  /// The group given the socket file and the private directory, when the mode opens them to a
  /// group; `nil` keeps the host's.
  @usableFromInline var group: UInt32?
  /// The private directory's permission bits.
  var directoryMode: UInt32
  /// Why the socket is wider than its owner's alone, for the startup line; `nil` at 0600.
  var reason: String?

  /// The least the configuration needs: its explicit ``HostConfiguration/socketMode`` if it
  /// sets one, else what ``HostConfiguration/access`` requires.
  @usableFromInline
  static func least(for configuration: HostConfiguration) -> SocketPermissions {
    if let mode = configuration.socketMode {
      return SocketPermissions(
        socketMode: mode, group: nil, directoryMode: Self.directoryMode(for: mode),
        reason: mode & 0o077 == 0 ? nil : "as --mode asks")
    }
    let policy = configuration.access
    guard policy.admitsOthers else {
      return SocketPermissions(socketMode: 0o600, group: nil, directoryMode: 0o700, reason: nil)
    }
    var groups: Set<UInt32> = []
    var onlyGroups = policy.decide == nil
    for rule in policy.rules {
      if case .group(let gid) = rule.subject { groups.insert(gid) } else { onlyGroups = false }
    }
    if onlyGroups, groups.count == 1, let gid = groups.first {
      let name = "@" + (Platform.groupName(of: gid) ?? String(gid))
      guard Platform.mayUseGroup(gid) else {
        return Self.everyoneCanReach(
          because: "the host's user is not in \(name), so the socket cannot be given to it")
      }
      return SocketPermissions(
        socketMode: 0o660, group: gid, directoryMode: 0o710,
        reason: "so that \(name) can connect")
    }
    return Self.everyoneCanReach(
      because: policy.decide != nil
        ? "the access hook decides who is served" : "the users --allow names must reach it")
  }

  /// Socket 0666 and directory 0711: any user can reach the socket, and the peer check alone
  /// decides who is served.
  static func everyoneCanReach(because why: String) -> SocketPermissions {
    SocketPermissions(
      socketMode: 0o666, group: nil, directoryMode: 0o711,
      reason: "\(why); the peer check admits only those allowed")
  }

  /// The directory mode that lets the socket's mode take effect: search permission for the
  /// classes the socket lets in (never read or write: nobody else lists or adds files).
  static func directoryMode(for socketMode: UInt32) -> UInt32 {
    if socketMode & 0o007 != 0 { return 0o711 }
    if socketMode & 0o070 != 0 { return 0o710 }
    return 0o700
  }

  /// `mode 660, group staff` — the start of the startup line's parenthesis.
  var summary: String {
    var text = "mode \(String(self.socketMode, radix: 8))"
    if let group { text += ", group \(Platform.groupName(of: group) ?? String(group))" }
    return text
  }
}
