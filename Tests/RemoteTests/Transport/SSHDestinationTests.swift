import Remote
import Testing

/// `ssh://[user@]machine[:port][/path/to/socket]`, and the `ssh` command line made from it.
@Suite struct SSHDestinationTests {
  @Test func readsEveryPartThatMayBeGiven() throws {
    #expect(try SSHDestination(parsing: "ssh://build") == SSHDestination(machine: "build"))
    #expect(
      try SSHDestination(parsing: "ssh://deploy@build.example.com:2222/run/app/host.sock")
        == SSHDestination(
          user: "deploy", machine: "build.example.com", port: 2222,
          socketPath: "/run/app/host.sock"))
    #expect(
      try SSHDestination(parsing: "ssh://me@[::1]:22/s.sock")
        == SSHDestination(user: "me", machine: "::1", port: 22, socketPath: "/s.sock"))
    #expect(try SSHDestination(parsing: "ssh://build/").socketPath == nil)
    // The last '@' separates the user: a user name may hold one (an e-mail-like login).
    #expect(try SSHDestination(parsing: "ssh://a@b@machine").user == "a@b")
  }

  @Test func writesItselfBackAsTheSameURL() throws {
    for text in [
      "ssh://build", "ssh://deploy@build.example.com:2222/run/app/host.sock", "ssh://me@[::1]:22/s.sock",
    ] {
      #expect(try SSHDestination(parsing: text).description == text)
      #expect(try HostAddress(parsing: text).description == text)
    }
    #expect(try HostAddress(parsing: "unix:///tmp/h.sock") == .unixSocket(path: "/tmp/h.sock"))
  }

  @Test func explainsWhatIsWrong() {
    let cases: [(String, String)] = [
      ("http://build", "an SSH address starts with 'ssh://'"),
      ("ssh://", "it names no machine"),
      ("ssh://me@", "it names no machine"),
      ("ssh://@build", "the user before '@' is empty"),
      ("ssh://build:0", "the port must be a number from 1 to 65535, not '0'"),
      ("ssh://build:ssh", "the port must be a number from 1 to 65535, not 'ssh'"),
      ("ssh://build:+22", "the port must be a number from 1 to 65535, not '+22'"),
      ("ssh://[::1", "an IPv6 address opened with '[' needs its ']'"),
      ("ssh://-oProxyCommand=x", "a machine name cannot start with '-'"),
    ]
    for (text, message) in cases {
      #expect(throws: HostAddressError(message), "'\(text)'") { try SSHDestination(parsing: text) }
    }
    #expect(
      throws: HostAddressError(
        "expected ssh://[user@]machine[:port][/path/to/socket] or unix:///path/to/socket")
    ) { try HostAddress(parsing: "/tmp/h.sock") }
    #expect(
      throws: HostAddressError("a unix:// address names an absolute path: unix:///path/to/socket")
    ) { try HostAddress(parsing: "unix://h.sock") }
  }

  @Test func theSSHCommandLineNeverLetsTheDestinationBecomeAnOption() throws {
    let transport = SSHTransport(
      destination: try SSHDestination(parsing: "ssh://-l@build:2222/run/my app/it's.sock"),
      sshCommand: ["ssh", "-F", "/etc/ssh/test_config"], remoteStoreclient: "/opt/bin/storeclient",
      hostUsers: ["teamhost"])
    #expect(
      transport.arguments == [
        "ssh", "-F", "/etc/ssh/test_config", "-T", "-e", "none", "-l", "-l", "-p", "2222", "--",
        "build",
        #"/opt/bin/storeclient dial-stdio --socket '/run/my app/it'\''s.sock' --host-user teamhost"#,
      ])
    #expect(
      SSHTransport(destination: SSHDestination(machine: "m")).remoteCommand
        == "storeclient dial-stdio")
  }
}
