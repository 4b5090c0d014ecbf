import Foundation
import Testing

@testable import Wire

@Suite struct UnixSocketTests {
  @Test func echoesFramesOverARealSocket() async throws {
    try await withConnectedHost(mode: .echo) { host, client in
      try await client.send(.hello(protocol: 1, client: "test"))
      try await client.send(Array("{\"type\":\"ping\",\"id\":1}".utf8))
      let frames = try await collect(2, from: client)
      #expect(frames.count == 2)
      #expect(
        String(decoding: frames[0], as: UTF8.self)
          == #"{"type":"hello","protocol":1,"client":"test"}"#)
      #expect(String(decoding: frames[1], as: UTF8.self) == #"{"type":"ping","id":1}"#)
      await client.close()
    }
  }

  @Test func decodesFramesSplitAtEveryByteBoundaryOfTheStream() async throws {
    try await withConnectedHost { host, client in
      let payloads = [Array(#"{"type":"ping","id":1}"#.utf8), Array("{}".utf8)]
      let stream = framed(payloads)
      var sent = 0
      for point in 0...stream.count {
        // Send the stream in two parts, and let the host read the first before the second
        // leaves: the host's reads are split exactly at `point`.
        try await client.withOutboundBuffer { $0.append(contentsOf: stream[..<point]) }
        sent += point
        let expected = UInt64(sent)
        #expect(await eventually { await host.report(0)?.bytesRead == expected }, "split \(point)")
        try await client.withOutboundBuffer { $0.append(contentsOf: stream[point...]) }
        sent += stream.count - point
      }
      let count = 2 * (stream.count + 1)
      #expect(await eventually { await host.report(0)?.frames.count == count })
      let frames = try #require(await host.report(0)?.frames)
      let allMatch = frames == Array(repeating: payloads, count: stream.count + 1).flatMap { $0 }
      #expect(allMatch)
    }
  }

  @Test func carriesManyFramesPerWriteBothWays() async throws {
    try await withConnectedHost(mode: .echo) { host, client in
      let payloads = (0..<3000).map { Array("{\"type\":\"ping\",\"id\":\($0)}".utf8) }
      try await client.send(frames: payloads)
      let echoed = try await collect(payloads.count, from: client)
      let matches = echoed == payloads
      #expect(matches)
    }
  }

  @Test func coalescesManySmallWritesIntoFewSends() async throws {
    try await withConnectedHost { host, client in
      try await client.send(Array("{}".utf8))
      #expect(await eventually { await host.totalFrames == 1 })
      // 1,000 frames written one `write` at a time within one loop iteration…
      let (before, afterWrites) = await host.writeManySmallFrames(1000, peer: 0)
      #expect(afterWrites == before, "writes must wait for the end of the loop iteration")
      let received = try await collect(1000, from: client)
      #expect(received.count == 1000)
      #expect(received.last == Array("{\"n\":999}".utf8))
      // …leave in one `send` (two if the socket buffer filled up).
      let sends = await host.sendCalls(peer: 0) - before
      #expect(sends >= 1 && sends <= 2, "\(sends) send calls for 1,000 frames")
    }
  }

  @Test func carriesLargeFrames() async throws {
    try await withConnectedHost(mode: .echo) { host, client in
      var rng = SplitMix64(seed: 99)
      let big = (0..<(1 << 20)).flatMap { _ in withUnsafeBytes(of: rng.next()) { Array($0) } }
      try await client.send(frames: [big, [1], Array(big.prefix(100_000))])
      let echoed = try await collect(3, from: client)
      #expect(echoed.count == 3)
      let matches = echoed == [big, [1], Array(big.prefix(100_000))]
      #expect(matches)
    }
  }

  @Test func rejectsAnOversizePrefixBeforeBufferingThePayload() async throws {
    try await withConnectedHost(mode: .echo, maxFrameSize: 1024) { host, client in
      // A prefix announcing 1 MiB, then 100 KB of it.
      try await client.withOutboundBuffer {
        $0.append(contentsOf: [0, 0x10, 0, 0])
        $0.append(contentsOf: repeatElement(0x20, count: 100_000))
      }
      var frames: [[UInt8]] = []
      do {
        for try await frame in client.frames { frames.append(frame) }
      } catch {
        // The host closed with our unread bytes in its buffer: the kernel reports ECONNRESET
        // after the data it sent.
        #expect((error as? SocketError)?.code == .disconnected)
      }
      let report = try #require(await host.report(0))
      #expect(report.frameError == .frameTooLarge(length: 1 << 20, limit: 1024))
      #expect(report.bufferedAtError == 0)
      #expect(report.frames.isEmpty)
      #expect(frames.count == 1)
      let reply = try HostMessage(json: JSON(parsing: frames[0]))
      guard case .error(nil, .frameTooLarge, let message) = reply else {
        Issue.record("unexpected reply \(reply)")
        return
      }
      #expect(message == "frame of 1048576 bytes exceeds the limit of 1024")
    }
  }

  @Test func seesAClientClosingInTheMiddleOfAFrame() async throws {
    try await withConnectedHost { host, client in
      try await client.withOutboundBuffer {
        FrameEncoder.appendFrame(to: &$0, bytes: Array("{}".utf8))
        $0.append(contentsOf: [0, 0, 0, 9, 1, 2])
      }
      #expect(await eventually { await host.report(0)?.bytesRead == 12 })
      await client.close()
      #expect(await eventually { await host.report(0)?.closed == true })
      let report = try #require(await host.report(0))
      #expect(report.frames == [Array("{}".utf8)])
      #expect(report.sawEOF && report.partialFrameAtEOF)
      #expect(report.closeError == nil)
    }
  }

  @Test func survivesWritingToAPeerThatHasGone() async throws {
    try await withConnectedHost { host, client in
      await host.setKeepOpenAtEOF(true)
      try await client.send(Array("{}".utf8))
      #expect(await eventually { await host.totalFrames == 1 })
      await client.close()
      #expect(await eventually { await host.report(0)?.sawEOF == true })
      // Writing to a socket whose peer has closed raises SIGPIPE unless suppressed; the
      // process must survive and the connection close with EPIPE.
      await host.writeRaw(Array(repeating: 7, count: 1 << 20), peer: 0)
      #expect(await eventually { await host.report(0)?.closed == true })
      let error = try #require(await host.report(0)?.closeError)
      #expect(error.code == .disconnected)
      #expect(error.errno == EPIPE)
    }
  }

  @Test func readsThePeersCredentials() async throws {
    try await withConnectedHost { host, client in
      try await client.send(Array("{}".utf8))
      #expect(await eventually { await host.totalFrames == 1 })
      let credentials = try #require(await host.report(0)?.credentials)
      #expect(credentials.uid == getuid())
      #expect(credentials.uid == PeerCredentials.currentUserID)
      #expect(credentials.gid == getgid())
      #expect(credentials.pid == getpid())
      #expect(await client.peerCredentials?.uid == getuid())
    }
  }

  @Test func createsTheSocketFileWithTheRequestedMode() async throws {
    for mode in [0o600, 0o640, 0o666] {
      let path = try temporarySocketPath()
      let host = TestHost()
      defer { host.shutdown() }
      try await host.start(path: path, mode: mode)
      #expect(Posix.fileMode(path) == UInt32(mode))
      await host.stop()
      #expect(Posix.fileIdentity(path) == nil, "close removes the socket file")
    }
  }

  @Test func reportsPathsTooLongForSunPath() async throws {
    let path = "/tmp/" + String(repeating: "x", count: 200) + ".sock"
    let limit = Posix.maxPathLength
    await #expect(
      throws: SocketError(code: .pathTooLong(limit: limit), operation: "connect", path: path)
    ) {
      _ = try await TestClient.connect(path: path)
    }
    let host = TestHost()
    defer { host.shutdown() }
    do {
      try await host.start(path: path)
      Issue.record("listen should fail")
    } catch {
      #expect(error.code == .pathTooLong(limit: limit))
      #expect(
        error.description.contains("socket path is 210 bytes; Unix sockets allow at most \(limit)"))
    }
  }

  @Test func explainsAMissingSocketFile() async throws {
    let path = try temporarySocketPath("nobody.sock")
    do {
      _ = try await TestClient.connect(path: path)
      Issue.record("connect should fail")
    } catch {
      #expect(error.code == .noSuchFile)
      #expect(error.description.hasPrefix("connect(\(path)): no such socket file"))
    }
    let host = TestHost()
    defer { host.shutdown() }
    await #expect(throws: SocketError.self) {
      try await host.start(path: "/tmp/no-such-dir-\(UUID())/h.sock")
    }
  }

  @Test(.enabled(if: getuid() != 0, "root bypasses file permissions"))
  func explainsAPermissionError() async throws {
    let host = TestHost()
    defer { host.shutdown() }
    do {
      try await host.start(path: "/proc/wire.sock")
      Issue.record("bind should fail")
    } catch {
      #expect(error.code == .permissionDenied || error.code == .other)
    }
  }

  @Test func tellsALiveHostFromAStaleSocketFile() async throws {
    let path = try temporarySocketPath()
    let first = TestHost()
    defer { first.shutdown() }
    try await first.start(path: path)
    #expect(UnixListener.isListenerAlive(path: path))

    // A second host on the same path is refused, even when asked to replace a stale socket.
    let second = TestHost()
    defer { second.shutdown() }
    for replace in [false, true] {
      do {
        try await second.start(path: path, replaceStaleSocket: replace)
        Issue.record("a live listener must never be replaced")
      } catch {
        #expect(error.code == .addressInUse)
      }
    }

    // The first host "crashes": the socket file stays, nobody listens.
    await first.stopLeavingSocketFile()
    #expect(Posix.fileIdentity(path)?.isSocket == true)
    #expect(!UnixListener.isListenerAlive(path: path))
    do {
      _ = try await TestClient.connect(path: path)
      Issue.record("connect should be refused")
    } catch {
      #expect(error.code == .connectionRefused)
      #expect(error.description.contains("no host is listening"))
    }
    await #expect(throws: SocketError.self) { try await second.start(path: path) }
    try await second.start(path: path, replaceStaleSocket: true)
    #expect(UnixListener.isListenerAlive(path: path))
    let client = try await TestClient.connect(path: path)
    try await client.send(Array("{}".utf8))
    // (isListenerAlive's probe was a real connection too: count frames, not peers.)
    #expect(await eventually { await second.totalFrames == 1 })
  }

  @Test func neverReplacesAFileThatIsNotASocket() async throws {
    let path = try temporarySocketPath()
    #expect(FileManager.default.createFile(atPath: path, contents: Data("keep".utf8)))
    let host = TestHost()
    defer { host.shutdown() }
    await #expect(throws: SocketError.self) {
      try await host.start(path: path, replaceStaleSocket: true)
    }
    #expect(FileManager.default.contents(atPath: path) == Data("keep".utf8))
  }

  @Test func sumsBytesOnTheLoop() async throws {
    try await withConnectedHost(mode: .echo) { host, client in
      try await client.send(frames: Array(repeating: Array("{}".utf8), count: 10))
      _ = try await collect(10, from: client)
      #expect(host.loop.bytesRead == 60)
      #expect(host.loop.bytesWritten == 60)
      // Every read callback ran on the loop thread, inside the host actor's isolation.
      let checks = await host.executorChecks
      #expect(!checks.isEmpty && checks.allSatisfy { $0 })
    }
  }
}
