#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Wire

/// Where a host listens by default, the same rule for `storehost` and its clients.
public enum SocketPath {
  /// The default path for this process: `$STOREHOST_SOCKET`, else
  /// `$XDG_RUNTIME_DIR/storehost/storehost.sock`, else `/tmp/storehost-<uid>/storehost.sock`
  /// (Wire's `DefaultSocketPath`, applied to this process's environment: the host's own rule).
  public static var `default`: String {
    var environment: [String: String] = [:]
    for name in ["STOREHOST_SOCKET", "XDG_RUNTIME_DIR"] {
      if let value = getenv(name) { environment[name] = String(cString: value) }
    }
    return DefaultSocketPath.resolve(environment: environment)
  }
}
