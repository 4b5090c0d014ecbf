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

/// Another real user puts a socket, or the socket directory, where this user's clients and
/// host look: every client refuses the socket, naming whose it is, and the host refuses the
/// directory.
@Suite(
  .serialized, .timeLimit(.minutes(3)),
  .enabled(if: Binaries.available, "storehost and storeclient must be built next to the tests"),
  .enabled("needs root, to create a second Unix user (see the printed reason)") {
    TemporaryUser.isAvailable
  })
struct SocketSquattingTests {
  @Test func everyClientRefusesASocketAnotherUserServes() async throws {
    let user = try TemporaryUser.get()
    let directory = makeTemporaryDirectory()
    #expect(chown(directory, user.uid, user.gid) == 0 && chmod(directory, 0o755) == 0)
    let path = directory + "/host.sock"
    // The squatter's host lets root in, read-only: what a forger would do.
    let squatter = try await AccessHost.start(["--socket", path, "--allow", "0:ro"], socketPath: path, as: user)
    let refusal = "refusing the host at \(path): it runs as \(user.name) (uid \(user.uid)), not as you"

    let get = try await storeclient(["get", "--socket", path, "counter"])
    #expect(get.status == 1)
    #expect(get.errors.hasPrefix("Error: " + refusal), "\(get.errors)")
    #expect(get.errors.contains("storeclient --host-user \(user.name)"))
    let relay = try await storeclient(["dial-stdio", "--socket", path])
    #expect(relay.status == 1 && relay.errors.hasPrefix("Error: " + refusal), "\(relay.errors)")
    await #expect(throws: RemoteError.untrustedHost(path: path, uid: user.uid, user: user.name)) {
      _ = try await RemoteStore<Counter.State, Counter.Action>(
        scope: "counter", configuration: RemoteStoreConfiguration(socketPath: path, reconnects: false))
    }
    let python = try SpawnedProcess(
      "/usr/bin/env", ["python3", Self.pythonClient, "--socket", path, "--sends", "1"])
    #expect(try await python.wait() == 1)
    #expect(python.errors.text.hasPrefix("store_client.py: " + refusal), "\(python.errors.text)")

    // Named as the host's user, it is accepted (and serves root read-only, as it said).
    let named = try await storeclient(["get", "--socket", path, "--host-user", user.name, "counter"])
    #expect(named.status == 0, "\(named.errors)")
    let store = try await RemoteStore<Counter.State, Counter.Action>(
      scope: "counter",
      configuration: RemoteStoreConfiguration(
        socketPath: path, hostUsers: try HostUsers(named: [user.name]), reconnects: false))
    #expect(await store.state.count == 0)
    await #expect(throws: RemoteError.self) { try await store.send(.incrementButtonTapped) }
    await store.close()
    let pythonNamed = try SpawnedProcess(
      "/usr/bin/env", ["python3", Self.pythonClient, "--socket", path, "--host-user", user.name])
    // Past the check, the read-only role stops the script at its first send.
    #expect(try await pythonNamed.wait() == 1)
    #expect(pythonNamed.errors.text.contains("host error: forbidden: send: this connection's role is ro"), "\(pythonNamed.errors.text)")
    try await squatter.stop()
  }

  @Test func theHostRefusesASocketDirectoryAnotherUserMade() async throws {
    let user = try TemporaryUser.get()
    // A runtime directory anyone may create files in, like /tmp.
    let runtime = makeTemporaryDirectory()
    #expect(chmod(runtime, 0o1777) == 0)
    let mkdir = try SpawnedProcess("/bin/mkdir", ["-m", "700", runtime + "/storehost"], as: user)
    #expect(try await mkdir.wait() == 0)
    let host = try await AccessHost.start(
      [], socketPath: nil, environment: ["XDG_RUNTIME_DIR": runtime, "STOREHOST_SOCKET": ""])
    #expect(try await host.wait() == 1)
    #expect(
      host.errors.text.hasPrefix(
        "storehost: refusing the socket directory \(runtime)/storehost: it belongs to \(user.name) "
          + "(uid \(user.uid)), not to you"), "\(host.errors.text)")
    #expect(!FileManager.default.fileExists(atPath: runtime + "/storehost/storehost.sock"))
  }

  /// The Python client of the protocol, in the repository.
  static let pythonClient = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("clients/python/store_client.py").path
}

/// The default socket, in the user's private directory, with no second user needed.
@Suite(
  .serialized, .timeLimit(.minutes(2)),
  .enabled(if: Binaries.available, "storehost and storeclient must be built next to the tests"))
struct DefaultSocketTests {
  @Test func hostAndClientsMeetInThePrivateDirectoryWhichMustStayPrivate() async throws {
    let runtime = makeTemporaryDirectory()
    let environment = ["XDG_RUNTIME_DIR": runtime, "STOREHOST_SOCKET": ""]
    let directory = runtime + "/storehost"
    let path = directory + "/storehost.sock"
    let host = try await AccessHost.start([], socketPath: path, environment: environment)
    var info = stat()
    #expect(stat(directory, &info) == 0 && info.st_mode & 0o777 == 0o700)
    #expect(host.errors.text.contains("created the socket directory \(directory) (mode 700)"))
    // A client finds it with no --socket, by the same rule.
    let client = try SpawnedProcess(Binaries.storeclient!, ["get", "counter"], environment: environment)
    #expect(try await client.wait() == 0, "\(client.errors.text)")
    #expect(client.output.text.contains(#""count":0"#))
    try await host.stop()

    // Made writable by others in between: refused, with what to do.
    #expect(chmod(directory, 0o777) == 0)
    let refused = try await AccessHost.start([], socketPath: nil, environment: environment)
    #expect(try await refused.wait() == 1)
    #expect(
      refused.errors.text == "storehost: refusing the socket directory \(directory): its mode 777 "
        + "lets other users add files to it, so a socket there may not be yours; remove it (it "
        + "holds nothing a host needs), or choose a socket path with --socket, or `chmod 700 "
        + "\(directory)`\n")
  }
}
