/// Where a host listens, and clients connect, when no `--socket` is given.
///
/// The default socket lives in a directory private to its user, as tmux's does: the host
/// creates it with mode 0700 and refuses to use one that another user owns or may write to,
/// so that nobody else can put a socket where this user's clients will look. (A socket file
/// straight in `/tmp` could be created first by anyone, who would then receive every action
/// the clients send.) Clients check, besides, that the process serving the socket is their own
/// user's, or root's.
///
/// ```
///   $STOREHOST_SOCKET                          when set: the path as given
///   $XDG_RUNTIME_DIR/storehost/storehost.sock  else, when XDG_RUNTIME_DIR is set
///   /tmp/storehost-<uid>/storehost.sock        else
/// ```
public enum DefaultSocketPath {
  /// The socket file's name inside the private directory.
  public static let fileName = "storehost.sock"

  /// The default path: `$STOREHOST_SOCKET`, else ``fileName`` in the
  /// ``privateDirectory(environment:)`` — the same rule for `storehost` and `storeclient`.
  ///
  /// - Parameter environment: The process environment (e.g. `ProcessInfo.processInfo.environment`).
  /// - Returns: The socket path.
  public static func resolve(environment: [String: String]) -> String {
    if let path = environment["STOREHOST_SOCKET"], !path.isEmpty { return path }
    return self.privateDirectory(environment: environment) + "/" + self.fileName
  }

  /// The user's private socket directory: `$XDG_RUNTIME_DIR/storehost`, else
  /// `/tmp/storehost-<uid>` (without a trailing slash).
  ///
  /// - Parameter environment: The process environment.
  /// - Returns: The directory's path.
  public static func privateDirectory(environment: [String: String]) -> String {
    if var directory = environment["XDG_RUNTIME_DIR"], !directory.isEmpty {
      while directory.count > 1 && directory.hasSuffix("/") { directory.removeLast() }
      return (directory == "/" ? "" : directory) + "/storehost"
    }
    return "/tmp/storehost-\(Posix.currentUserID())"
  }

  /// Whether the default path is the one in the private directory — `STOREHOST_SOCKET` is
  /// not set — so that a host should create and check that directory.
  ///
  /// - Parameter environment: The process environment.
  /// - Returns: `true` when ``resolve(environment:)`` lies in ``privateDirectory(environment:)``.
  public static func usesPrivateDirectory(environment: [String: String]) -> Bool {
    (environment["STOREHOST_SOCKET"] ?? "").isEmpty
  }
}
