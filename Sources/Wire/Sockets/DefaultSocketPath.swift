/// Where a host listens, and clients connect, when no `--socket` is given.
public enum DefaultSocketPath {
  /// `$STOREHOST_SOCKET`, else `$XDG_RUNTIME_DIR/storehost.sock`, else
  /// `/tmp/storehost-<uid>.sock` — the same rule for `storehost` and `storeclient`.
  ///
  /// - Parameter environment: The process environment (e.g. `ProcessInfo.processInfo.environment`).
  /// - Returns: The socket path.
  public static func resolve(environment: [String: String]) -> String {
    if let path = environment["STOREHOST_SOCKET"], !path.isEmpty { return path }
    if let directory = environment["XDG_RUNTIME_DIR"], !directory.isEmpty {
      return directory.hasSuffix("/") ? directory + "storehost.sock" : directory + "/storehost.sock"
    }
    return "/tmp/storehost-\(Posix.currentUserID()).sock"
  }
}
