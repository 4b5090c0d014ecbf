import Examples
import Foundation
import Remote
import Testing
import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A host reached through a real OpenSSH server, the way Docker reaches one: `watch`, `send`,
/// `bench` and a `RemoteStore` over `ssh … storeclient dial-stdio`.
@Suite(
  .serialized, .timeLimit(.minutes(3)),
  .enabled(if: Binaries.available, "storehost and storeclient must be built next to the tests"),
  .enabled("needs Debian's OpenSSH server, run as an unprivileged user (see the printed reason)") {
    SSHServer.isAvailable
  })
struct SSHTransportTests {
  /// A host on a socket the SSH login user may use, and an SSH server.
  private func withHostAndServer(
    _ body: (_ host: SpawnedProcess, _ path: String, _ server: SSHServer) async throws -> Void
  ) async throws {
    let server = try await SSHServer.start()
    let path = makeReachableDirectory() + "/host.sock"
    let allow = server.loginUser.map { ["--allow", "\($0.name):rw"] } ?? []
    let host = try await AccessHost.start(["--socket", path] + allow, socketPath: path)
    do {
      try await body(host, path, server)
    } catch {
      Issue.record("sshd said:\n\(server.log)")
      try await host.stop()
      try await server.stop()
      throw error
    }
    try await host.stop()
    try await server.stop()
  }

  /// The environment and options that make `storeclient` use this server.
  private func remote(_ server: SSHServer, _ path: String) -> (arguments: [String], environment: [String: String]) {
    (
      ["--host", server.url(path), "--remote-storeclient", Binaries.storeclient!],
      ["STOREHOST_SSH_COMMAND": server.sshCommand.joined(separator: " ")]
    )
  }

  @Test func watchAndSendThroughSSH() async throws {
    try await self.withHostAndServer { host, path, server in
      let (options, environment) = self.remote(server, path)
      let watch = try SpawnedProcess(
        Binaries.storeclient!, options + ["watch", "counter"], environment: environment)
      try await waitUntil("the watcher's snapshot arrives through ssh", timeout: 30) {
        watch.output.text.contains(#"{"count":0,"#) || !watch.isRunning
      }
      let send = try SpawnedProcess(
        Binaries.storeclient!, options + ["send", "counter", #"{"incrementButtonTapped":{}}"#],
        environment: environment)
      #expect(try await send.wait() == 0, "\(send.errors.text)")
      #expect(Int(send.output.text.trimmingCharacters(in: .whitespacesAndNewlines)) != nil)
      try await waitUntil("the change reaches the watcher through ssh", timeout: 30) {
        watch.output.text.contains("/count: 0 → 1")
      }
      try await watch.stop(signal: SIGINT)
      // The host saw the SSH login user's connections, through the relay.
      let uid = server.loginUser?.uid ?? getuid()
      #expect(host.errors.text.contains("uid=\(uid) role=rw"))
    }
  }

  @Test func aRemoteStoreThroughSSH() async throws {
    try await self.withHostAndServer { _, path, server in
      let transport = SSHTransport(
        destination: try SSHDestination(parsing: server.url(path)), sshCommand: server.sshCommand,
        remoteStoreclient: Binaries.storeclient!)
      let store = try await RemoteStore<Counter.State, Counter.Action>(
        scope: "counter",
        configuration: RemoteStoreConfiguration(transport: transport, reconnects: false))
      #expect(await store.state.count == 0)
      let rev = try await store.send(.incrementButtonTapped)
      #expect(await store.state.count == 1, "acknowledged at rev \(rev), and already in the state")
      #expect(try await store.send(.incrementButtonTapped) == rev + 1)
      await store.close()
    }
  }

  @Test func benchRunsThroughSSHAndChecksNothingWasLost() async throws {
    try await self.withHostAndServer { _, path, server in
      let (options, environment) = self.remote(server, path)
      let bench = try SpawnedProcess(
        Binaries.storeclient!, options + ["bench", "--clients", "2", "--actions", "200", "--watchers", "1"],
        environment: environment)
      #expect(try await bench.wait(timeout: 120) == 0, "\(bench.output.text)\(bench.errors.text)")
      #expect(bench.output.text.contains("verified: the count moved by 400"), "\(bench.output.text)")
    }
  }

  @Test func failuresOnTheOtherSideAreReportedWithWhatItSaid() async throws {
    try await self.withHostAndServer { _, path, server in
      let (options, environment) = self.remote(server, path + ".missing")
      let missing = try SpawnedProcess(
        Binaries.storeclient!, options + ["get", "counter"], environment: environment)
      #expect(try await missing.wait() == 1)
      #expect(missing.errors.text.hasPrefix("Error: ssh to \(server.login)@127.0.0.1:\(server.port) ended with status 69: "))
      #expect(
        missing.errors.text.contains("Error: no host is listening on \(path).missing"),
        "\(missing.errors.text)")
      let noTool = try SpawnedProcess(
        Binaries.storeclient!,
        ["--host", server.url(path), "--remote-storeclient", "/nonexistent/storeclient", "get", "counter"],
        environment: environment)
      #expect(try await noTool.wait() == 1)
      #expect(noTool.errors.text.contains("ended with status 127"), "\(noTool.errors.text)")
      #expect(noTool.errors.text.contains("--remote-storeclient names its path there"))
    }
  }
}
