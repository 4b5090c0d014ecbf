import Testing

@testable import Remote

/// The environment variables `storeclient`, `RemoteStore` and `SSHTransport` read alike.
@Suite struct ClientEnvironmentTests {
  @Test func aSocketPathComesFromStorehostSocket() throws {
    let environment = try ClientEnvironment(["STOREHOST_SOCKET": "/run/app/host.sock"])
    #expect(environment.host == .unixSocket(path: "/run/app/host.sock"))
    #expect(!environment.hostIsExplicit)
    #expect(environment.sshCommand == ["ssh"])
    #expect(environment.remoteStoreclient == "storeclient")
    let transport = try #require(environment.transport() as? UnixSocketTransport)
    #expect(transport.path == "/run/app/host.sock")
  }

  @Test func anSSHHostTakesTheSSHCommandAndTheRemoteStoreclientFromTheEnvironment() throws {
    let environment = try ClientEnvironment([
      "STOREHOST_HOST": "ssh://ops@server/run/app.sock",
      "STOREHOST_SSH_COMMAND": #"ssh -F '/etc/my ssh/config' -o "BatchMode yes""#,
      "STOREHOST_REMOTE_STORECLIENT": "/opt/tools/storeclient",
      "STOREHOST_SOCKET": "/ignored/when/a/host/is/named",
    ])
    #expect(environment.hostIsExplicit)
    let transport = try #require(environment.transport() as? SSHTransport)
    #expect(transport.sshCommand == ["ssh", "-F", "/etc/my ssh/config", "-o", "BatchMode yes"])
    #expect(transport.remoteStoreclient == "/opt/tools/storeclient")
    #expect(transport.destination.socketPath == "/run/app.sock")
  }

  @Test func aVariableThatCannotBeReadIsNamedWithWhatIsWrong() {
    #expect(throws: ClientEnvironmentError(
      variable: "STOREHOST_SSH_COMMAND", value: "ssh 'unterminated",
      reason: "it ends inside a quote or after a backslash")
    ) {
      try ClientEnvironment(["STOREHOST_SSH_COMMAND": "ssh 'unterminated"])
    }
    #expect(throws: ClientEnvironmentError.self) {
      try ClientEnvironment(["STOREHOST_HOST": "ftp://nowhere"])
    }
  }
}
