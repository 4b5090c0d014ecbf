import Foundation
import Testing

@testable import Wire

/// A fresh directory under /tmp (short, so socket paths fit `sun_path`) and a socket path in it.
func temporarySocketPath(_ name: String = "host.sock") throws -> String {
  let directory = "/tmp/wire-\(UUID().uuidString.prefix(8))"
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  return directory + "/" + name
}

/// Polls `condition` every millisecond until it holds or `timeout` passes.
func eventually(
  timeout: Duration = .seconds(10), _ condition: () async -> Bool
) async -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if await condition() { return true }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return await condition()
}

/// Runs `body` with a started ``TestHost`` and a ``TestClient`` connected to it, and shuts the
/// host down afterwards.
func withConnectedHost(
  mode: TestHost.Mode = .record, maxFrameSize: Int = 1 << 24,
  _ body: (TestHost, TestClient) async throws -> Void
) async throws {
  let path = try temporarySocketPath()
  let host = TestHost(mode: mode, maxFrameSize: maxFrameSize)
  defer { host.shutdown() }
  try await host.start(path: path)
  let client = try await TestClient.connect(path: path)
  try await body(host, client)
}

/// Collects up to `count` frames from a client (or fewer if its stream ends).
func collect(_ count: Int, from client: TestClient) async throws -> [[UInt8]] {
  var frames: [[UInt8]] = []
  for try await frame in client.frames {
    frames.append(frame)
    if frames.count == count { break }
  }
  return frames
}

/// A minimal client for these tests, the counterpart of ``TestHost``: an actor on its own event
/// loop over a `UnixConnection`, writing whole frames and passing the frames it reads to an
/// `AsyncThrowingStream`. (Clients of a real host use Remote's `HostConnection`, which Wire's
/// tests cannot depend on.)
actor TestClient {
  let loop: EventLoop
  nonisolated var unownedExecutor: UnownedSerialExecutor { self.loop.asUnownedSerialExecutor() }
  /// The frames read, in order; ends when the host closes, throws the socket's error.
  nonisolated let frames: AsyncThrowingStream<[UInt8], any Error>
  private let received: AsyncThrowingStream<[UInt8], any Error>.Continuation
  private var connection: UnixConnection?

  private init() {
    self.loop = EventLoop(name: "test-client")
    (self.frames, self.received) = AsyncThrowingStream.makeStream()
  }

  /// Connects to the listener at `path`.
  static func connect(path: String) async throws(SocketError) -> TestClient {
    let client = TestClient()
    do {
      try await client.open(path: path)
    } catch {
      client.loop.shutdownGracefully()
      throw error
    }
    return client
  }

  private func open(path: String) throws(SocketError) {
    let connection = try UnixConnection.connect(path: path, loop: self.loop)
    self.connection = connection
    // The callbacks hold the stream's state, not the client: dropping the client stops its
    // loop (deinit), which closes the connection.
    let stream = Stream(received: self.received)
    connection.onRead = { bytes in
      do {
        try stream.decoder.decode(bytes) { stream.received.yield(Array($0)) }
      } catch {
        stream.received.finish(throwing: error)
        connection.close()
      }
    }
    connection.onEOF = { connection.close() }
    connection.onClose = { error in
      if let error { stream.received.finish(throwing: error) } else { stream.received.finish() }
    }
  }

  /// The read side's state, used only on the loop thread by the connection's callbacks.
  private final class Stream {
    var decoder = FrameDecoder(maxFrameSize: 1 << 24)
    let received: AsyncThrowingStream<[UInt8], any Error>.Continuation
    init(received: AsyncThrowingStream<[UInt8], any Error>.Continuation) {
      self.received = received
    }
  }

  deinit {
    self.loop.shutdownGracefully()
  }

  private func openConnection() throws(SocketError) -> UnixConnection {
    guard let connection = self.connection, connection.isOpen else {
      throw SocketError(code: .disconnected, operation: "send")
    }
    return connection
  }

  /// Sends one frame per payload; they leave together.
  func send(frames payloads: [[UInt8]]) throws(SocketError) {
    try self.openConnection().withOutboundBuffer { out in
      for payload in payloads { FrameEncoder.appendFrame(to: &out, bytes: payload) }
    }
  }

  /// Sends one frame.
  func send(_ payload: [UInt8]) throws(SocketError) { try self.send(frames: [payload]) }

  /// Sends a protocol message as one frame.
  func send(_ message: ClientMessage) throws(SocketError) {
    try self.openConnection().withOutboundBuffer { message.encodeFrame(into: &$0) }
  }

  /// Appends raw bytes to the outbound buffer.
  func withOutboundBuffer(_ body: (inout [UInt8]) -> Void) throws(SocketError) {
    try self.openConnection().withOutboundBuffer(body)
  }

  /// The host's kernel-reported identity.
  var peerCredentials: PeerCredentials? { self.connection?.peerCredentials }

  /// Closes the connection.
  func close() {
    self.connection?.close()
  }
}

/// A minimal host for tests: an actor whose executor is its own event loop, accepting
/// connections and decoding frames in the loop's callbacks — the way the real host is built.
actor TestHost {
  enum Mode: Sendable {
    /// Keep received frames.
    case record
    /// Keep received frames and send each one back.
    case echo
  }

  /// What happened on one accepted connection (a Sendable snapshot).
  struct PeerReport: Sendable {
    var frames: [[UInt8]]
    var frameError: FrameError?
    var bufferedAtError: Int?
    var closed: Bool
    var closeError: SocketError?
    var sawEOF: Bool
    var partialFrameAtEOF: Bool
    var bytesRead: UInt64
    var credentials: PeerCredentials?
    var sendCalls: Int
  }

  final class Peer {
    let connection: UnixConnection
    var decoder: FrameDecoder
    var report: PeerReport
    init(connection: UnixConnection, maxFrameSize: Int) {
      self.connection = connection
      self.decoder = FrameDecoder(maxFrameSize: maxFrameSize)
      self.report = PeerReport(
        frames: [], closed: false, sawEOF: false, partialFrameAtEOF: false, bytesRead: 0,
        credentials: connection.peerCredentials, sendCalls: 0)
    }
  }

  let loop: EventLoop
  nonisolated var unownedExecutor: UnownedSerialExecutor { self.loop.asUnownedSerialExecutor() }
  let maxFrameSize: Int
  var mode: Mode
  /// Keep a connection open at EOF instead of closing (to write to a peer that has left).
  var keepOpenAtEOF = false
  var listener: UnixListener?
  var peers: [Peer] = []
  var executorChecks: [Bool] = []

  init(mode: Mode = .record, maxFrameSize: Int = 1 << 24) {
    self.loop = EventLoop(name: "test-host")
    self.mode = mode
    self.maxFrameSize = maxFrameSize
  }

  func start(
    path: String, mode fileMode: Int = 0o600, replaceStaleSocket: Bool = false
  ) throws(SocketError) {
    self.listener = try UnixListener.listen(
      path: path, mode: fileMode, replaceStaleSocket: replaceStaleSocket, loop: self.loop
    ) { connection in
      self.accepted(connection)
    }
  }

  private func accepted(_ connection: UnixConnection) {
    let peer = Peer(connection: connection, maxFrameSize: self.maxFrameSize)
    self.peers.append(peer)
    connection.onRead = { bytes in
      self.executorChecks.append(self.loop.inEventLoop)
      self.received(bytes, on: peer)
    }
    connection.onEOF = {
      peer.report.sawEOF = true
      peer.report.partialFrameAtEOF = peer.decoder.bufferedByteCount > 0
      if !self.keepOpenAtEOF { peer.connection.close() }
    }
    connection.onClose = { error in
      peer.report.closed = true
      peer.report.closeError = error
    }
  }

  private func received(_ bytes: UnsafeRawBufferPointer, on peer: Peer) {
    do {
      try peer.decoder.decode(bytes) { payload in
        peer.report.frames.append(Array(payload))
        if case .echo = self.mode {
          peer.connection.withOutboundBuffer { FrameEncoder.appendFrame(to: &$0, bytes: payload) }
        }
      }
    } catch {
      peer.report.frameError = error
      peer.report.bufferedAtError = peer.decoder.bufferedByteCount
      peer.connection.withOutboundBuffer {
        HostMessage.error(id: nil, code: error.code, message: error.description).encodeFrame(
          into: &$0)
      }
      peer.connection.close()
    }
  }

  // MARK: Test controls

  func report(_ index: Int) -> PeerReport? {
    guard index < self.peers.count else { return nil }
    var report = self.peers[index].report
    report.bytesRead = self.peers[index].connection.bytesRead
    report.sendCalls = self.peers[index].connection.sendCalls
    return report
  }

  var peerCount: Int { self.peers.count }

  var totalFrames: Int { self.peers.reduce(0) { $0 + $1.report.frames.count } }

  func setKeepOpenAtEOF(_ value: Bool) { self.keepOpenAtEOF = value }

  func setReading(_ enabled: Bool, peer index: Int) {
    self.peers[index].connection.isReadingEnabled = enabled
  }

  /// Writes `count` frames with one `write` call each, within one loop iteration; returns the
  /// connection's `send` count before, and right after the writes (before the flush).
  func writeManySmallFrames(_ count: Int, peer index: Int) -> (before: Int, afterWrites: Int) {
    let connection = self.peers[index].connection
    let before = connection.sendCalls
    for n in 0..<count {
      connection.write(FrameEncoder.frame(Array("{\"n\":\(n)}".utf8)))
    }
    return (before, connection.sendCalls)
  }

  func sendCalls(peer index: Int) -> Int { self.peers[index].connection.sendCalls }

  /// Writes raw bytes (possibly part of a frame) to a peer.
  func writeRaw(_ bytes: [UInt8], peer index: Int) {
    self.peers[index].connection.write(bytes)
  }

  func closePeer(_ index: Int) { self.peers[index].connection.close() }

  func outboundBytes(peer index: Int) -> Int { self.peers[index].connection.outboundBytes }

  func stop() {
    self.listener?.close()
  }

  /// Stops listening but leaves the socket file behind, as a crashed host would.
  func stopLeavingSocketFile() {
    self.listener?.close(removeSocketFile: false)
  }

  /// Closes everything and stops the loop's thread.
  nonisolated func shutdown() {
    self.loop.shutdownGracefully()
  }
}
