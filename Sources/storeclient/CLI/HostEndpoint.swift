import ArgumentParsing
import Remote
import Wire

/// Which host a command talks to and how it gets there: a socket on this machine, or one on
/// another machine through `ssh` — read from `--socket`, `--host`, `--host-user` and
/// `--remote-storeclient` (before or after the subcommand) and the environment.
///
/// ```
///   --host ssh://[user@]machine[:port][/path]   the machine (STOREHOST_HOST when not given)
///   --socket PATH                               the socket's path there, or on this machine
///   --host-user NAME                            also accept a host run by NAME
/// ```
struct HostEndpoint: Sendable, Equatable, CustomStringConvertible {
  /// Where the host is.
  enum Location: Sendable, Equatable {
    /// A socket on this machine.
    case local(path: String)
    /// A host on another machine.
    case remote(SSHDestination)
  }

  /// Where the host is.
  var location: Location
  /// Users whose host is accepted besides this user and root: resolved here for a local
  /// socket, passed on to `dial-stdio` for a remote one (where the names are looked up).
  var hostUsers: [String] = []
  /// The `ssh` command and its options (`STOREHOST_SSH_COMMAND`, default `ssh`).
  var sshCommand: [String] = ["ssh"]
  /// `storeclient` on the other machine (`--remote-storeclient`,
  /// `STOREHOST_REMOTE_STORECLIENT`, default `storeclient`).
  var remoteStoreclient = "storeclient"

  /// A socket on this machine, with the standard check of who serves it.
  static func local(_ path: String) -> HostEndpoint {
    HostEndpoint(location: .local(path: path))
  }

  /// The socket path, or the `ssh://` URL.
  var description: String {
    switch self.location {
    case .local(let path): path
    case .remote(let destination): destination.description
    }
  }

  /// The transport to the host.
  ///
  /// - Throws: A usage failure (exit 64) for a `--host-user` this machine does not know.
  func transport() throws(CommandFailure) -> any HostTransport {
    switch self.location {
    case .local(let path):
      do {
        return UnixSocketTransport(
          path: path, hostUsers: try EndpointOptions.hostUsers(self.hostUsers))
      } catch {
        throw CommandFailure(error.message, exitCode: .usage)
      }
    case .remote(let destination):
      return SSHTransport(
        destination: destination, sshCommand: self.sshCommand,
        remoteStoreclient: self.remoteStoreclient, hostUsers: self.hostUsers)
    }
  }
}

/// The options every subcommand takes to find its host, and the environment variables behind
/// them.
enum EndpointOptions {
  /// `--socket <path>`, with the same default as `storehost`.
  static let socket = OptionSpec.option(
    "socket", value: "path",
    help: "The host's socket file (with --host: its path on that machine).",
    default:
      "$STOREHOST_SOCKET, else storehost.sock in $XDG_RUNTIME_DIR/storehost, else in /tmp/storehost-<uid>")
  /// `--host <url>`.
  static let host = OptionSpec.option(
    "host", value: "url",
    help:
      "Reach a host on another machine through ssh: ssh://[user@]machine[:port][/path/to/socket].",
    default: "$STOREHOST_HOST, else this machine", hiddenFromUsage: true)
  /// `--host-user <name>`.
  static let hostUser = OptionSpec.option(
    "host-user", value: "name",
    help:
      "Also accept a host run by this user (by default only your own user's or root's). Repeatable.",
    hiddenFromUsage: true)
  /// `--remote-storeclient <path>`.
  static let remoteStoreclient = OptionSpec.option(
    "remote-storeclient", value: "path", help: "storeclient on the --host machine.",
    default: "$STOREHOST_REMOTE_STORECLIENT, else storeclient in the remote PATH",
    hiddenFromUsage: true)

  /// Every endpoint option, as commands list them.
  static let all = [socket, host, hostUser, remoteStoreclient]

  /// The names of the option taking a value, for the global options before the subcommand.
  static let names = all.map(\.name)

  /// The environment variables the endpoint reads: the ones `RemoteStore` and `SSHTransport`
  /// read too, with the same meaning (``ClientEnvironment``).
  static let environmentNames = ClientEnvironment.names

  /// The endpoint for options given after the subcommand (`command`) and before it
  /// (`global`), the later winning (`--host-user` adds up), and the environment.
  ///
  /// - Throws: ``UsageError`` for a malformed `--host`, a socket path given twice, an empty
  ///   value.
  static func endpoint(
    command: ParsedArguments, global: ParsedArguments, environment: [String: String]
  ) throws(UsageError) -> HostEndpoint {
    func value(_ name: String) -> String? { command.value(name) ?? global.value(name) }
    for name in ["socket", "host", "remote-storeclient"] where value(name)?.isEmpty == true {
      throw UsageError("The value '' is invalid for '--\(name) <\(name == "host" ? "url" : "path")>'")
    }
    // The environment, read as RemoteStore and SSHTransport read it; options override it.
    let defaults: ClientEnvironment
    do {
      defaults = try ClientEnvironment(environment)
    } catch {
      throw UsageError("The value '\(error.value)' is invalid for \(error.variable): \(error.reason)")
    }
    var address = defaults.host
    if let hostText = value("host") {
      do {
        address = try HostAddress(parsing: hostText)
      } catch {
        throw UsageError("The value '\(hostText)' is invalid for '--host <url>': \(error)")
      }
    }
    let explicitHost = value("host") != nil || defaults.hostIsExplicit
    let socket = value("socket")
    var endpoint: HostEndpoint
    switch address {
    case .unixSocket(let path) where explicitHost:
      if let socket, socket != path {
        throw UsageError("Give the socket path once: --host names \(path), --socket \(socket)")
      }
      endpoint = .local(path)
    case .unixSocket(let path):
      endpoint = .local(socket ?? path)
    case .ssh(var destination):
      if let socket {
        if let path = destination.socketPath, path != socket {
          throw UsageError("Give the socket path once: --host names \(path), --socket \(socket)")
        }
        destination.socketPath = socket
      }
      endpoint = HostEndpoint(location: .remote(destination))
    }
    endpoint.hostUsers = (global.values["host-user"] ?? []) + (command.values["host-user"] ?? [])
    if endpoint.hostUsers.contains(where: \.isEmpty) {
      throw UsageError("The value '' is invalid for '--host-user <name>'")
    }
    // Names are looked up here for a socket on this machine (on the other machine, by
    // dial-stdio, for a remote one).
    if case .local = endpoint.location { _ = try Self.hostUsers(endpoint.hostUsers) }
    endpoint.sshCommand = defaults.sshCommand
    endpoint.remoteStoreclient = value("remote-storeclient") ?? defaults.remoteStoreclient
    return endpoint
  }
}

extension HostEndpoint {
  /// Connects to the host and completes the handshake.
  ///
  /// - Returns: The connected client.
  /// - Throws: A ``CommandFailure`` saying why it could not connect.
  func connect() async throws(CommandFailure) -> HostClient {
    let transport = try self.transport()
    do {
      return try await HostClient.connect(via: transport, client: CommonOptions.clientName)
    } catch {
      throw CommandFailure(error)
    }
  }
}

/// Connects to the host of `endpoint`, runs `body` with the client, and closes it.
func withClient<T: Sendable>(
  _ endpoint: HostEndpoint,
  _ body: (HostClient) async throws(RemoteError) -> T
) async throws(CommandFailure) -> T {
  let client = try await endpoint.connect()
  do {
    let result = try await body(client)
    await client.close()
    return result
  } catch {
    await client.close()
    throw CommandFailure(error)
  }
}

extension EndpointOptions {
  /// The users `--host-user` names, resolved on this machine.
  ///
  /// - Throws: ``UsageError`` naming a user this machine does not know.
  static func hostUsers(_ names: [String]) throws(UsageError) -> HostUsers {
    do {
      return try HostUsers(named: names)
    } catch {
      throw UsageError("The value '\(error.name)' is invalid for '--host-user <name>': \(error)")
    }
  }
}

extension OptionSpec {
  /// The same option, shown in the usage line.
  func shownInUsage() -> OptionSpec {
    var copy = self
    copy.isHiddenFromUsage = false
    return copy
  }
}
