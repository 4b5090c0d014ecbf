import ArgumentParsing
import Remote
import Wire

/// `storeclient dial-stdio`: relays standard input and output to a host's socket, byte for
/// byte — what `--host ssh://…` runs on the host's machine, as `docker system dial-stdio`
/// does for Docker.
struct DialStdioCommand: ClientCommand {
  static var spec: CommandSpec {
    CommandSpec(
      name: "storeclient dial-stdio",
      abstract: "Relay standard input and output to a host's socket, byte for byte.",
      discussion: """
        What 'storeclient --host ssh://…' runs on the host's machine, through ssh: it connects \
        to the socket, checks who serves it (your own user, root, or a --host-user), then \
        copies both ways until either side closes. When standard input ends, what the host \
        still sends is delivered, and it exits 0; when the host or the client goes away \
        first, it says so and exits 1.
        """,
      options: [EndpointOptions.socket, EndpointOptions.hostUser.shownInUsage()])
  }

  /// It relays to a socket on this machine: `--host` does not apply, and `STOREHOST_HOST`
  /// is ignored (it may be set for the user who `ssh` logs in as).
  static var reachesOtherMachines: Bool { false }

  var path: String
  var hostUsers: HostUsers

  init(_ arguments: ParsedArguments, endpoint: HostEndpoint) throws(UsageError) {
    guard case .local(let path) = endpoint.location else {
      throw UsageError("dial-stdio relays to a socket on this machine; --host does not apply")
    }
    self.path = path
    self.hostUsers = try EndpointOptions.hostUsers(endpoint.hostUsers)
  }

  func run(console: Console) async throws(CommandFailure) {
    let socket: Int32
    switch Platform.connectUnixSocket(self.path) {
    case .success(let fd): socket = fd
    case .failure(let error) where error.meansNoListener:
      throw CommandFailure(RemoteError.noHost(path: self.path))
    case .failure(let error):
      throw CommandFailure("cannot connect to \(self.path): \(error)")
    }
    do {
      try self.hostUsers.check(PeerCredentials(ofSocket: socket), path: self.path)
    } catch {
      Platform.closeDescriptor(socket)
      throw CommandFailure(error)
    }
    Platform.ignoreBrokenPipes()
    switch StdioRelay(socket: socket).run() {
    case .clientFinished:
      return
    case .hostClosed(nil):
      throw CommandFailure("the host at \(self.path) closed the connection")
    case .hostClosed(let error?):
      throw CommandFailure("the connection to the host at \(self.path) failed: \(error)")
    case .clientGone(let error):
      throw CommandFailure("the client went away (\(error)); the relay to \(self.path) ends")
    }
  }
}
