#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a host listens by default, the same rule for `storehost` and its clients.
public enum SocketPath {
  /// The default path: `$STOREHOST_SOCKET`, else `$XDG_RUNTIME_DIR/storehost.sock`, else
  /// `/tmp/storehost-<uid>.sock` (empty variables count as unset).
  ///
  /// - Parameters:
  ///   - environment: The environment variables to consult.
  ///   - uid: The user id for the last resort.
  /// - Returns: The path.
  public static func `default`(environment: [String: String], uid: UInt32) -> String {
    if let path = environment["STOREHOST_SOCKET"], !path.isEmpty { return path }
    if let directory = environment["XDG_RUNTIME_DIR"], !directory.isEmpty {
      return directory.hasSuffix("/")
        ? directory + "storehost.sock" : directory + "/storehost.sock"
    }
    return "/tmp/storehost-\(uid).sock"
  }

  /// The default path for this process, from its environment and user id.
  public static var `default`: String {
    var environment: [String: String] = [:]
    for name in ["STOREHOST_SOCKET", "XDG_RUNTIME_DIR"] {
      if let value = getenv(name) { environment[name] = String(cString: value) }
    }
    return Self.default(environment: environment, uid: UInt32(getuid()))
  }
}
