import Foundation
import Remote
import Testing
import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `storeclient dial-stdio`: the protocol relayed between standard input and output and a
/// host's socket, byte for byte, with the real `storehost`.
@Suite(
  .timeLimit(.minutes(2)),
  .enabled(if: Binaries.available, "storehost and storeclient must be built next to the tests"))
struct DialStdioTests {
  private func frames(_ messages: [ClientMessage]) -> Data {
    var bytes: [UInt8] = []
    for message in messages { message.encodeFrame(into: &bytes) }
    return Data(bytes)
  }

  /// The host messages in `bytes`, in order (a partial frame at the end is left out).
  private func messages(_ bytes: [UInt8]) throws -> [HostMessage] {
    var decoder = FrameDecoder()
    decoder.append(bytes)
    var messages: [HostMessage] = []
    while let frame = try decoder.nextFrame() {
      messages.append(try frame.withUnsafeBytes { try HostConnection.decode($0) })
    }
    return messages
  }

  private func relay(
    _ path: String, standardOutput: FileHandle? = nil
  ) throws -> SpawnedProcess {
    try SpawnedProcess(
      Binaries.storeclient!, ["dial-stdio", "--socket", path], keepInputOpen: true,
      standardOutput: standardOutput)
  }

  @Test func relaysTheProtocolBothWaysAndEndsCleanlyWithItsInput() async throws {
    let host = try await HostProcess(socketPath: makeTemporaryDirectory() + "/host.sock")
    let relay = try self.relay(host.socketPath)
    try relay.input!.write(
      contentsOf: self.frames([
        .hello(protocol: 1, client: "dial-stdio-test"),
        .send(id: 1, scope: "counter", action: J(#"{"incrementButtonTapped":{}}"#)),
        .get(id: 2, scope: "counter", at: nil),
      ]))
    // The end of the client's input: the host answers what it read, then the relay ends.
    try relay.input!.close()
    #expect(try await relay.wait() == 0, "\(relay.errors.text)")
    let received = try self.messages(relay.output.bytes)
    guard received.count == 3, case .welcome = received[0], case .ack(1, let rev) = received[1],
      case .state(2, "counter", let stateRev, let state) = received[2]
    else {
      Issue.record("unexpected replies: \(received)")
      return
    }
    #expect(stateRev >= rev && state == J(#"{"count":1,"isLoading":false,"isTimerRunning":false}"#))
    #expect(relay.errors.text.isEmpty)
  }

  @Test func aHostThatGoesAwayEndsTheRelayWithAMessage() async throws {
    let host = try await HostProcess(socketPath: makeTemporaryDirectory() + "/host.sock")
    let relay = try self.relay(host.socketPath)
    try relay.input!.write(contentsOf: self.frames([.hello(protocol: 1, client: "t")]))
    try await waitUntil("the welcome comes through") {
      (try? self.messages(relay.output.bytes).count) == 1
    }
    try await host.crash()
    #expect(try await relay.wait() == 1)
    #expect(relay.errors.text == "Error: the host at \(host.socketPath) closed the connection\n")
  }

  @Test func aClientThatGoesAwayEndsTheRelayWithAMessage() async throws {
    let host = try await HostProcess(socketPath: makeTemporaryDirectory() + "/host.sock")
    let pipe = Pipe()
    let relay = try self.relay(host.socketPath, standardOutput: pipe.fileHandleForWriting)
    try pipe.fileHandleForWriting.close()
    try relay.input!.write(
      contentsOf: self.frames([
        .hello(protocol: 1, client: "t"), .subscribe(id: 1, scope: "counter"),
      ]))
    // Nobody reads the relay's output any more: the next patch it writes finds no reader.
    try pipe.fileHandleForReading.close()
    try await waitUntil("the relay notices its reader is gone", timeout: 30) {
      if relay.isRunning {
        _ = try await storeclient(["send", "--socket", host.socketPath, "counter", #"{"incrementButtonTapped":{}}"#])
      }
      return !relay.isRunning
    }
    #expect(try await relay.wait() == 1)
    #expect(relay.errors.text.hasPrefix("Error: the client went away ("), "\(relay.errors.text)")
    #expect(relay.errors.text.hasSuffix("; the relay to \(host.socketPath) ends\n"))
  }

  @Test func noHostIsUnavailableAndAnotherUsersSocketIsRefused() async throws {
    let path = makeTemporaryDirectory() + "/none.sock"
    let relay = try self.relay(path)
    #expect(try await relay.wait() == 69)
    #expect(relay.errors.text == "Error: no host is listening on \(path) — start one with `storehost --socket \(path)`\n")
    let unknown = try await storeclient(["dial-stdio", "--socket", path, "--host-user", "no-such-user-here"])
    #expect(unknown.status == 64)
    #expect(unknown.errors.hasPrefix("Error: The value 'no-such-user-here' is invalid for '--host-user <name>': this machine has no user named 'no-such-user-here'\nUsage: storeclient dial-stdio"))
    let remote = try await storeclient(["--host", "ssh://somewhere", "dial-stdio"])
    #expect(remote.status == 64)
    #expect(remote.errors.hasPrefix("Error: dial-stdio relays to a socket on this machine; --host does not apply\n"))
  }
}
