import Foundation
import Remote
import Testing
import Wire

/// The transport seam of HostConnection (and so of HostClient and RemoteStore): what carries
/// the bytes, and what vouches for the host.
@Suite(.timeLimit(.minutes(1))) struct HostTransportTests {
  @Test func theProtocolRunsOverAnyStreamATransportOpens() async throws {
    // No socket file: the client's transport makes a socketpair and hands the fake host the
    // other end, as an SSH transport would hand it to `ssh … storeclient dial-stdio`.
    try await withFakeHost(count: 4, revision: 9) { host in
      let transport = SocketPairTransport { hostEnd in
        Task { await host.serve(fileDescriptor: hostEnd) }
      }
      let client = try await HostClient.connect(via: transport, client: "tests/pair")
      #expect(client.path == "socketpair")
      #expect(await host.received.first == #"{"type":"hello","protocol":1,"client":"tests/pair"}"#)
      #expect(try await client.get("counter").state == J(#"{"count":4,"isTimerRunning":false}"#))
      #expect(try await client.send(J(#"{"incrementButtonTapped":{}}"#), to: "counter") == 10)
      await client.close()
    }
  }

  @Test func aUnixSocketTransportChecksWhoServesTheSocket() async throws {
    try await withFakeHost { host in
      // The fake host runs in this process: the kernel reports this user and process.
      let sameUser = UnixSocketTransport(path: host.path) { peer in
        peer?.uid == getuid() && peer?.pid == getpid()
      }
      let client = try await HostClient.connect(via: sameUser)
      #expect(try await client.ping() > .zero)
      await client.close()

      let nobody = UnixSocketTransport(path: host.path) { _ in false }
      await #expect(
        throws: RemoteError.connectionFailed(
          SocketError(
            code: .permissionDenied, operation: "accept the host's identity", path: host.path))
      ) {
        _ = try await HostClient.connect(via: nobody)
      }
    }
  }

  @Test func aHostClosingInTheMiddleOfAFrameIsAProtocolViolation() async throws {
    try await withFakeHost { host in
      let client = try await HostClient.connect(to: host.path)
      var frame: [UInt8] = []
      HostMessage.pong(id: 1).encodeFrame(into: &frame)
      await host.injectBytes(Array(frame.prefix(7)))
      await host.crash()
      #expect(
        await client.closed()
          == .protocolViolation("the host closed the connection in the middle of a frame"))
    }
  }
}

/// Opens a `socketpair(2)` and hands one end to `serve`: a transport with no socket file.
private struct SocketPairTransport: HostTransport {
  let serve: @Sendable (Int32) -> Void

  var description: String { "socketpair" }

  func open(on loop: EventLoop) throws(RemoteError) -> UnixConnection {
    #if canImport(Glibc)
      let type = Int32(SOCK_STREAM.rawValue)
    #else
      let type = SOCK_STREAM
    #endif
    var ends: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, type, 0, &ends) == 0 else {
      throw .connectionFailed(SocketError(code: .other, operation: "socketpair", errno: errno))
    }
    self.serve(ends[1])
    return UnixConnection.adopt(fileDescriptor: ends[0], loop: loop)
  }
}
