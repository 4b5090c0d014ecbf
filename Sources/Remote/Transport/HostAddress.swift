/// Where a host is: a Unix socket on this machine, or one on another machine reached with
/// `ssh` — what `storeclient --host` and `STOREHOST_HOST` name, in Docker's `DOCKER_HOST`
/// form.
///
/// ```swift
/// try HostAddress(parsing: "ssh://deploy@build.example.com")        // the default socket there
/// try HostAddress(parsing: "ssh://build.example.com:2222/run/app/host.sock")
/// try HostAddress(parsing: "unix:///run/user/1000/storehost/storehost.sock")
/// ```
public enum HostAddress: Sendable, Hashable, CustomStringConvertible {
  /// A socket file on this machine.
  case unixSocket(path: String)
  /// A host on another machine, through `ssh`.
  case ssh(SSHDestination)

  /// Reads `ssh://[user@]machine[:port][/path]` or `unix:///path`.
  ///
  /// - Parameter text: The address.
  /// - Throws: ``HostAddressError`` saying what is wrong.
  public init(parsing text: String) throws(HostAddressError) {
    if text.hasPrefix("ssh://") {
      self = .ssh(try SSHDestination(parsing: text))
    } else if text.hasPrefix("unix://") {
      let path = String(text.dropFirst("unix://".count))
      guard path.hasPrefix("/") else {
        throw HostAddressError("a unix:// address names an absolute path: unix:///path/to/socket")
      }
      self = .unixSocket(path: path)
    } else {
      throw HostAddressError(
        "expected ssh://[user@]machine[:port][/path/to/socket] or unix:///path/to/socket")
    }
  }

  /// `unix:///path` or the `ssh://` URL.
  public var description: String {
    switch self {
    case .unixSocket(let path): "unix://\(path)"
    case .ssh(let destination): destination.description
    }
  }
}
