import ArgumentParsing
import Remote
import Testing

@testable import storeclient

/// `--socket`, `--host`, `--host-user`, `--remote-storeclient` and the environment behind them.
@Suite struct HostEndpointTests {
  private func endpoint(
    _ command: [String] = [], global: [String] = [], environment: [String: String] = [:],
    spec: CommandSpec = GetCommand.spec
  ) throws(UsageError) -> HostEndpoint {
    let globalSpec = CommandSpec(name: "storeclient", abstract: "", options: EndpointOptions.all)
    return try EndpointOptions.endpoint(
      command: try spec.parse(command + ["counter"]), global: try globalSpec.parse(global),
      environment: environment)
  }

  private func usage(
    _ command: [String] = [], global: [String] = [], environment: [String: String] = [:]
  ) -> String? {
    do {
      _ = try self.endpoint(command, global: global, environment: environment)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func aLocalSocketByDefaultInThePrivateDirectory() throws {
    #expect(try self.endpoint(environment: ["XDG_RUNTIME_DIR": "/run/user/7"]) == .local("/run/user/7/storehost/storehost.sock"))
    #expect(try self.endpoint(environment: ["STOREHOST_SOCKET": "/s.sock"]) == .local("/s.sock"))
    #expect(try self.endpoint(["--socket", "/b.sock"], global: ["--socket", "/a.sock"]) == .local("/b.sock"))
  }

  @Test func hostPicksTheMachineAndSocketItsPathThere() throws {
    let remote = try self.endpoint(
      ["--socket", "/run/app.sock", "--remote-storeclient", "/opt/storeclient"],
      global: ["--host", "ssh://deploy@build:2222", "--host-user", "teamhost"])
    #expect(
      remote.location
        == .remote(SSHDestination(user: "deploy", machine: "build", port: 2222, socketPath: "/run/app.sock")))
    #expect(remote.hostUsers == ["teamhost"] && remote.remoteStoreclient == "/opt/storeclient")
    // STOREHOST_HOST when --host is not given; the command line wins over it.
    let fromEnvironment = try self.endpoint(
      environment: [
        "STOREHOST_HOST": "ssh://build", "STOREHOST_SSH_COMMAND": #"ssh -F "/my dir/config" -o 'A=b c'"#,
        "STOREHOST_REMOTE_STORECLIENT": "/usr/local/bin/storeclient",
      ])
    #expect(fromEnvironment.location == .remote(SSHDestination(machine: "build")))
    #expect(fromEnvironment.sshCommand == ["ssh", "-F", "/my dir/config", "-o", "A=b c"])
    #expect(fromEnvironment.remoteStoreclient == "/usr/local/bin/storeclient")
    #expect(
      try self.endpoint(["--host", "unix:///x.sock"], environment: ["STOREHOST_HOST": "ssh://build"])
        == .local("/x.sock"))
  }

  @Test func mistakesAreUsageErrorsNamingTheValue() {
    #expect(usage(["--host", "build"]) == "The value 'build' is invalid for '--host <url>': expected ssh://[user@]machine[:port][/path/to/socket] or unix:///path/to/socket")
    #expect(usage(environment: ["STOREHOST_HOST": "ssh://b:99999"]) == "The value 'ssh://b:99999' is invalid for STOREHOST_HOST: the port must be a number from 1 to 65535, not '99999'")
    #expect(usage(["--host", "ssh://b/one.sock", "--socket", "/two.sock"]) == "Give the socket path once: --host names /one.sock, --socket /two.sock")
    #expect(usage(["--host-user", "no-such-user-here"]) == "The value 'no-such-user-here' is invalid for '--host-user <name>': this machine has no user named 'no-such-user-here'")
    #expect(usage(["--host", ""]) == "The value '' is invalid for '--host <url>'")
    #expect(usage(environment: ["STOREHOST_HOST": "ssh://b", "STOREHOST_SSH_COMMAND": "ssh -o 'oops"]) == "The value 'ssh -o 'oops' is invalid for STOREHOST_SSH_COMMAND: it ends inside a quote or after a backslash")
    // On another machine, --host-user names a user there: not looked up here.
    #expect(usage(["--host", "ssh://b", "--host-user", "no-such-user-here"]) == nil)
  }

  @Test func dialStdioRelaysOnlyToThisMachine() throws {
    let parsed = try DialStdioCommand.spec.parse(["--socket", "/h.sock"])
    let remote = HostEndpoint(location: .remote(SSHDestination(machine: "b")))
    let error = #expect(throws: UsageError.self) { try DialStdioCommand(parsed, endpoint: remote) }
    #expect(error?.message == "dial-stdio relays to a socket on this machine; --host does not apply")
    #expect(try DialStdioCommand(parsed, endpoint: .local("/h.sock")).path == "/h.sock")
    #expect(!DialStdioCommand.reachesOtherMachines && GetCommand.reachesOtherMachines)
  }
}
