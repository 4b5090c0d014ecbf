/// A client connection to a host's Unix socket that sends and receives whole frames.
///
/// ```swift
/// let connection = try await FrameConnection.connect(path: "/tmp/storehost.sock")
/// try await connection.send(ClientMessage.hello(protocol: 1, client: "demo/1.0"))
/// for try await payload in connection.frames {
///   let message = try HostMessage(json: JSON(parsing: payload))
///   …
/// }
/// ```
///
/// The actor runs on an ``EventLoop`` (by default the shared client loop ``EventLoop/shared``):
/// its executor *is* the loop, so its methods touch the socket with no extra hop, and frames
/// written by one call — or by several calls within one loop iteration — leave in one `send`.
/// ``send(_:)-(ClientMessage)`` returns once the frame is queued; when more than
/// ``highWaterMark`` bytes are waiting for a slow host it suspends until they have drained.
public actor FrameConnection {
  /// The loop the connection runs on (and the actor's executor).
  public nonisolated let loop: EventLoop
  /// The socket path.
  public nonisolated let path: String
  /// The largest frame accepted from the host.
  public nonisolated let maxFrameSize: Int

  /// The actor's executor: the connection's event loop.
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    self.loop.asUnownedSerialExecutor()
  }

  /// Queued outbound bytes above which `send` waits for the socket to drain (4 MiB).
  public static let highWaterMark = 4 << 20

  private let inbox = FrameInbox()
  private let handle: ConnectionHandle
  private var decoder: FrameDecoder
  private var failure: SocketError?
  private var drainWaiters: [UnsafeContinuation<Void, Never>] = []
  private var receivedFrames: [[UInt8]] = []

  /// Connects to the host listening at `path`.
  ///
  /// - Parameters:
  ///   - path: The socket path.
  ///   - maxFrameSize: The largest frame accepted from the host (default 16 MiB).
  ///   - loop: The loop to run on (default: the shared client loop).
  ///   - timeout: How long to keep retrying while the host's listen backlog is full.
  /// - Returns: The open connection.
  /// - Throws: ``SocketError``: ``SocketError/Code/noSuchFile`` (no socket file — is the host
  ///   running?), ``SocketError/Code/connectionRefused`` (no host is listening: a stale socket
  ///   file), ``SocketError/Code/pathTooLong(limit:)``, ``SocketError/Code/permissionDenied``,
  ///   ``SocketError/Code/timedOut``.
  public static func connect(
    path: String,
    maxFrameSize: Int = 16 << 20,
    loop: EventLoop = .shared,
    timeout: Duration = .seconds(5)
  ) async throws(SocketError) -> FrameConnection {
    let connection = FrameConnection(path: path, maxFrameSize: maxFrameSize, loop: loop)
    try await connection.open(timeout: timeout)
    return connection
  }

  private init(path: String, maxFrameSize: Int, loop: EventLoop) {
    self.path = path
    self.loop = loop
    self.maxFrameSize = maxFrameSize
    self.decoder = FrameDecoder(maxFrameSize: maxFrameSize)
    self.handle = ConnectionHandle()
  }

  deinit {
    // Nobody can send or read any more: close the socket on its loop.
    let handle = self.handle
    self.loop.execute { handle.connection?.close() }
  }

  /// The frames received from the host, in order.
  public nonisolated var frames: IncomingFrames {
    IncomingFrames(inbox: self.inbox, owner: self)
  }

  /// Whether the connection is open.
  public var isOpen: Bool { self.handle.connection?.isOpen ?? false }

  /// Bytes queued and not yet accepted by the socket.
  public var outboundBytes: Int { self.handle.connection?.outboundBytes ?? 0 }

  /// The host's kernel-reported identity.
  public var peerCredentials: PeerCredentials? { self.handle.connection?.peerCredentials }

  // MARK: - Sending

  /// Sends one frame carrying `payload`.
  ///
  /// - Parameter payload: The frame's payload (UTF-8 JSON text for the store protocol).
  /// - Throws: ``SocketError`` if the connection is closed, or
  ///   ``SocketError/Code/badFrame(_:)`` for an empty payload.
  public func send(_ payload: [UInt8]) async throws(SocketError) {
    try await self.send(frames: [payload])
  }

  /// Sends several frames, which leave together.
  ///
  /// - Parameter payloads: The frames' payloads, in order.
  /// - Throws: ``SocketError`` if the connection is closed or a payload is empty.
  public func send(frames payloads: [[UInt8]]) async throws(SocketError) {
    guard !payloads.contains(where: \.isEmpty) else {
      throw SocketError(code: .badFrame(.emptyFrame), operation: "send", path: self.path)
    }
    let connection = try self.openConnection()
    connection.withOutboundBuffer { out in
      for payload in payloads { FrameEncoder.appendFrame(to: &out, bytes: payload) }
    }
    await self.waitWhileOverHighWaterMark()
  }

  /// Sends a protocol message as one frame.
  ///
  /// - Parameter message: The message.
  /// - Throws: ``SocketError`` if the connection is closed.
  public func send(_ message: ClientMessage) async throws(SocketError) {
    try await self.send([message])
  }

  /// Sends protocol messages, which leave together.
  ///
  /// - Parameter messages: The messages, in order.
  /// - Throws: ``SocketError`` if the connection is closed.
  public func send(_ messages: [ClientMessage]) async throws(SocketError) {
    let connection = try self.openConnection()
    connection.withOutboundBuffer { out in
      for message in messages { message.encodeFrame(into: &out) }
    }
    await self.waitWhileOverHighWaterMark()
  }

  /// Lets `body` append bytes (whole frames) to the outbound buffer in place; they are sent at
  /// the end of the loop iteration.
  ///
  /// - Parameter body: Appends complete frames, e.g. with ``FrameEncoder``.
  /// - Returns: What `body` returns.
  /// - Throws: ``SocketError`` if the connection is closed.
  public func withOutboundBuffer<R>(_ body: (inout [UInt8]) -> R) throws(SocketError) -> R {
    try self.openConnection().withOutboundBuffer(body)
  }

  /// Closes the connection; the sequence of ``frames`` ends after the frames received so far.
  /// Queued frames are sent as far as the socket accepts them without waiting.
  public func close() {
    self.handle.connection?.close()
  }

  // MARK: - Internals

  private func open(timeout: Duration) async throws(SocketError) {
    let deadline = ContinuousClock.now + timeout
    var delay = Duration.milliseconds(1)
    while true {
      do {
        let connection = try UnixConnection.connect(path: self.path, loop: self.loop)
        self.attach(connection)
        return
      } catch  where error.code == .temporarilyUnavailable && ContinuousClock.now < deadline {
        // The host's backlog is full: it is alive but busy accepting. Retry shortly.
        try? await Task.sleep(for: delay)
        delay = min(delay * 2, .milliseconds(50))
      } catch  where error.code == .temporarilyUnavailable {
        throw SocketError(code: .timedOut, operation: "connect", path: self.path)
      }
    }
  }

  private func attach(_ connection: UnixConnection) {
    self.handle.connection = connection
    // The callbacks run on the loop thread, i.e. on this actor's executor, outside of a job:
    // `assumeIsolated` enters the actor synchronously (EventLoop.checkIsolated verifies it).
    connection.onRead = { [weak self] bytes in
      let chunk = SameThreadBytes(bytes: bytes)
      self?.assumeIsolated { $0.received(chunk.bytes) }
    }
    connection.onEOF = { [weak self] in
      self?.assumeIsolated { $0.peerFinished() }
    }
    connection.onWritable = { [weak self] in
      self?.assumeIsolated { $0.resumeDrainWaiters() }
    }
    connection.onClose = { [weak self] error in
      self?.assumeIsolated { $0.closed(error) }
    }
    self.inbox.setOnResume { [weak self] in
      guard let self else { return }
      self.loop.execute { self.assumeIsolated { $0.handle.connection?.isReadingEnabled = true } }
    }
  }

  private func received(_ bytes: UnsafeRawBufferPointer) {
    do {
      try self.decoder.decode(bytes) { self.receivedFrames.append(Array($0)) }
    } catch {
      self.deliverReceivedFrames()
      self.fail(SocketError(code: .badFrame(error), operation: "read", path: self.path))
      return
    }
    self.deliverReceivedFrames()
  }

  private func deliverReceivedFrames() {
    guard !self.receivedFrames.isEmpty else { return }
    let batch = self.receivedFrames
    self.receivedFrames.removeAll(keepingCapacity: true)
    if self.inbox.push(batch) {
      self.handle.connection?.isReadingEnabled = false
    }
  }

  private func peerFinished() {
    if self.decoder.bufferedByteCount > 0 {
      self.fail(SocketError(code: .truncatedFrame, operation: "read", path: self.path))
    } else {
      self.handle.connection?.close()
    }
  }

  private func fail(_ error: SocketError) {
    self.failure = error
    self.inbox.finish(error)
    self.handle.connection?.close(error: error)
  }

  private func closed(_ error: SocketError?) {
    if let error { self.failure = self.failure ?? error }
    self.inbox.finish(error)
    self.resumeDrainWaiters()
  }

  private func openConnection() throws(SocketError) -> UnixConnection {
    guard let connection = self.handle.connection, connection.isOpen else {
      throw self.failure ?? SocketError(code: .disconnected, operation: "send", path: self.path)
    }
    return connection
  }

  private func waitWhileOverHighWaterMark() async {
    while let connection = self.handle.connection, connection.isOpen,
      connection.outboundBytes > Self.highWaterMark
    {
      await withUnsafeContinuation { self.drainWaiters.append($0) }
    }
  }

  private func resumeDrainWaiters() {
    let waiters = self.drainWaiters
    self.drainWaiters.removeAll()
    for waiter in waiters { waiter.resume() }
  }
}

/// A chunk of bytes passed into `assumeIsolated` from a read callback.
private struct SameThreadBytes: @unchecked Sendable {
  // @unchecked Sendable is safe: the value never leaves the thread. It is created in a read
  // callback on the loop thread and consumed synchronously by `assumeIsolated`, which runs its
  // closure on the calling thread; the pointer is not retained past the callback.
  let bytes: UnsafeRawBufferPointer
}

/// Holds a connection that only the loop thread touches, so that the actor's `deinit` (which
/// is not isolated) can hand it to the loop for closing.
private final class ConnectionHandle: @unchecked Sendable {
  // @unchecked Sendable is safe: `connection` is read and written only on the connection's
  // loop thread — by the actor, whose executor is that loop, and by the closure `deinit`
  // passes to `EventLoop.execute`.
  var connection: UnixConnection?
}
