import Remote
import Testing
import Wire

/// What a client is told when the `ssh` under its connection fails: `ssh` here is a shell
/// script standing in for it (the real one is run against a real sshd by storeclientTests).
@Suite(.timeLimit(.minutes(1))) struct SSHTransportFailureTests {
  private func transport(_ script: String, machine: String = "nowhere") -> SSHTransport {
    // The script gets ssh's arguments after the command as its positional parameters.
    SSHTransport(
      destination: SSHDestination(user: "me", machine: machine, port: 2200),
      sshCommand: ["/bin/sh", "-c", script, "fake-ssh"])
  }

  @Test func sshsExitStatusAndLastWordsBecomeTheError() async {
    let failing = self.transport(
      "echo 'debug noise' >&2; echo 'ssh: connect to host nowhere port 2200: Connection refused' >&2; exit 255")
    await #expect(
      throws: RemoteError.transportFailed(
        "ssh to me@nowhere:2200 ended with status 255: debug noise / ssh: connect to host nowhere "
          + "port 2200: Connection refused")
    ) {
      _ = try await HostClient.connect(via: failing)
    }
  }

  @Test func aMissingRemoteStoreclientIsNamed() async {
    let missing = self.transport("echo 'sh: 1: storeclient: not found' >&2; exit 127")
    let error = await #expect(throws: RemoteError.self) {
      _ = try await HostClient.connect(via: missing)
    }
    #expect(
      error?.description.hasSuffix(
        "status 127: sh: 1: storeclient: not found (is storeclient installed on nowhere? "
          + "--remote-storeclient names its path there)") == true, "\(String(describing: error))")
  }

  @Test func somethingPrintedByTheRemoteShellIsRecognised() async {
    // A start-up file that prints a banner: the bytes are not frames.
    let chatty = self.transport("echo 'Welcome to nowhere, have a nice day'; exec cat >/dev/null")
    let error = await #expect(throws: RemoteError.self) {
      _ = try await HostClient.connect(via: chatty)
    }
    #expect(
      error?.description.contains(
        "what came through was not the store protocol") == true, "\(String(describing: error))")
    #expect(error?.description.contains("a shell start-up file") == true)
  }

  @Test func anSSHThatCannotBeStartedSaysSo() async {
    let absent = SSHTransport(
      destination: SSHDestination(machine: "m"), sshCommand: ["/nonexistent/bin/ssh"])
    let error = await #expect(throws: RemoteError.self) {
      _ = try await HostClient.connect(via: absent)
    }
    #expect(error?.description.hasPrefix("cannot start /nonexistent/bin/ssh ") == true)
    #expect(error?.description.contains("is OpenSSH's client installed and on PATH?") == true)
  }
}
