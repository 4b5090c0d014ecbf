import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a client finds its host, read from the environment — the same variables, with the
/// same meaning, for `storeclient`, ``RemoteStore`` and ``SSHTransport``:
///
/// | variable | meaning | default |
/// | --- | --- | --- |
/// | `STOREHOST_HOST` | where the host is: `ssh://[user@]machine[:port][/path/to/socket]`, or `unix:///path/to/socket` | this machine |
/// | `STOREHOST_SOCKET` | the socket's path on this machine | `$XDG_RUNTIME_DIR/storehost/storehost.sock`, else `/tmp/storehost-<uid>/storehost.sock` |
/// | `STOREHOST_SSH_COMMAND` | the `ssh` command and its options, in shell words (`ssh -F ~/.ssh/work`) | `ssh` |
/// | `STOREHOST_REMOTE_STORECLIENT` | `storeclient` on the other machine | `storeclient` in its `PATH` |
///
/// ```swift
/// let environment = try ClientEnvironment.current()
/// let client = try await HostClient.connect(via: environment.transport())
/// ```
///
/// `storeclient`'s options (`--host`, `--socket`, `--remote-storeclient`) override these;
/// `RemoteStoreConfiguration()` and `SSHTransport(destination:)` use them for what they are
/// not given.
public struct ClientEnvironment: Sendable, Equatable {
  /// The variables read, with what each means: for help texts.
  public static let variables: [(name: String, meaning: String)] = [
    (
      "STOREHOST_HOST",
      "where the host is: ssh://[user@]machine[:port][/path/to/socket] or unix:///path/to/socket (default: this machine)"
    ),
    (
      "STOREHOST_SOCKET",
      "the socket's path on this machine (default: storehost.sock in $XDG_RUNTIME_DIR/storehost, else in /tmp/storehost-<uid>)"
    ),
    ("STOREHOST_SSH_COMMAND", "the ssh command and its options, e.g. 'ssh -F ~/.ssh/work' (default: ssh)"),
    ("STOREHOST_REMOTE_STORECLIENT", "storeclient on the other machine (default: storeclient in its PATH)"),
  ]

  /// The names of every variable that affects the result, `XDG_RUNTIME_DIR` included.
  public static let names = variables.map(\.name) + ["XDG_RUNTIME_DIR"]

  /// Where the host is: `STOREHOST_HOST`, else the socket on this machine.
  public var host: HostAddress
  /// Whether ``host`` came from `STOREHOST_HOST` (rather than being this machine's socket).
  public var hostIsExplicit: Bool
  /// The `ssh` command and its options (`STOREHOST_SSH_COMMAND`).
  public var sshCommand: [String]
  /// `storeclient` on the other machine (`STOREHOST_REMOTE_STORECLIENT`).
  public var remoteStoreclient: String

  /// Reads the variables from `environment`.
  ///
  /// - Parameter environment: Variables by name.
  /// - Throws: ``ClientEnvironmentError`` naming a variable whose value cannot be used.
  public init(_ environment: [String: String]) throws(ClientEnvironmentError) {
    func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
    if let text = value("STOREHOST_HOST") {
      do {
        self.host = try HostAddress(parsing: text)
      } catch {
        throw ClientEnvironmentError(variable: "STOREHOST_HOST", value: text, reason: error.message)
      }
      self.hostIsExplicit = true
    } else {
      self.host = .unixSocket(path: DefaultSocketPath.resolve(environment: environment))
      self.hostIsExplicit = false
    }
    self.sshCommand = try Self.sshCommand(in: environment)
    self.remoteStoreclient = Self.remoteStoreclient(in: environment)
  }

  /// `STOREHOST_SSH_COMMAND` split into words, else `["ssh"]`.
  ///
  /// - Throws: ``ClientEnvironmentError`` for an unterminated quote, or no command.
  public static func sshCommand(in environment: [String: String]) throws(ClientEnvironmentError) -> [String] {
    guard let text = environment["STOREHOST_SSH_COMMAND"], !text.isEmpty else { return ["ssh"] }
    return try ShellWords.split(text, name: "STOREHOST_SSH_COMMAND")
  }

  /// `STOREHOST_REMOTE_STORECLIENT`, else `storeclient`.
  public static func remoteStoreclient(in environment: [String: String]) -> String {
    environment["STOREHOST_REMOTE_STORECLIENT"].flatMap { $0.isEmpty ? nil : $0 } ?? "storeclient"
  }

  /// Reads this process's environment.
  ///
  /// - Throws: ``ClientEnvironmentError`` naming a variable whose value cannot be used.
  public static func current() throws(ClientEnvironmentError) -> ClientEnvironment {
    try ClientEnvironment(self.processEnvironment())
  }

  /// This process's values of the variables in ``names``.
  public static func processEnvironment() -> [String: String] {
    var environment: [String: String] = [:]
    for name in self.names {
      if let value = getenv(name) { environment[name] = String(cString: value) }
    }
    return environment
  }

  /// The transport to the host: its socket on this machine, checked against `hostUsers`, or
  /// `ssh` to another machine, whose `storeclient dial-stdio` also accepts `remoteHostUsers`.
  ///
  /// - Parameters:
  ///   - hostUsers: The users whose host is accepted on a local socket.
  ///   - remoteHostUsers: Users whose host is accepted on the other machine.
  /// - Returns: The transport.
  public func transport(
    hostUsers: HostUsers = .standard, remoteHostUsers: [String] = []
  ) -> any HostTransport {
    switch self.host {
    case .unixSocket(let path):
      UnixSocketTransport(path: path, hostUsers: hostUsers)
    case .ssh(let destination):
      SSHTransport(
        destination: destination, sshCommand: self.sshCommand,
        remoteStoreclient: self.remoteStoreclient, hostUsers: remoteHostUsers)
    }
  }
}

/// A client environment variable whose value cannot be used, and why.
public struct ClientEnvironmentError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The variable's name, e.g. `STOREHOST_HOST`.
  public var variable: String
  /// Its value.
  public var value: String
  /// What is wrong with it.
  public var reason: String

  /// An error about `variable`.
  public init(variable: String, value: String, reason: String) {
    self.variable = variable
    self.value = value
    self.reason = reason
  }

  /// `STOREHOST_HOST is 'ftp://x': expected ssh://… or unix:///…`.
  public var description: String { "\(self.variable) is '\(self.value)': \(self.reason)" }
}

/// A transport that cannot open: the environment it was to be read from is wrong. Its error
/// reaches the caller at the first connection, as any other failure to connect does.
struct MisconfiguredTransport: HostTransport {
  let error: ClientEnvironmentError

  var description: String { self.error.variable }

  func open(on loop: EventLoop) throws(RemoteError) -> UnixConnection {
    throw .transportFailed("\(self.error)")
  }
}
