import Wire

/// The one client connection to a host, confined to an ``EventLoop`` like the stream it
/// drives: it opens a ``HostTransport``, sends `hello`, splits the byte stream into frames and
/// hands each one to the owner — raw, for callers that look at some frames themselves, or as a
/// `HostMessage` (the host's small replies read without building JSON).
///
/// ```swift
/// loop.execute {
///   let connection = try HostConnection.open(
///     via: UnixSocketTransport(path: path), client: "bench/1.0", loop: loop)
///   connection.onMessage = { message in … }          // welcome first, then replies and pushes
///   connection.send(.ping(id: 1))
/// }
/// ```
///
/// Everything that speaks to a host goes through it: ``HostClient`` (requests as async calls,
/// used by ``RemoteStore`` and `storeclient`'s commands) and `storeclient bench`, which keeps
/// every connection on one thread with no task per message.
public final class HostConnection {
  /// The loop the connection runs on.
  public let loop: EventLoop
  /// How the connection reached the host.
  public let transport: any HostTransport

  /// Called with each frame's payload before it is decoded; return `true` if the frame was
  /// handled, `false` to have it decoded and passed to ``onMessage``. The bytes are valid
  /// only during the call.
  public var onFrame: ((UnsafeRawBufferPointer) -> Bool)?
  /// Called with each message from the host, in order (after ``onFrame`` declined it).
  public var onMessage: ((HostMessage) -> Void)?
  /// Called once when the connection ends, with the reason: ``RemoteError/disconnected(reason:)``
  /// (carrying the `bye` reason if the host said one), or ``RemoteError/protocolViolation(_:)``
  /// for a bad frame or message, or ``RemoteError/closed`` after ``close()``.
  public var onClose: ((RemoteError) -> Void)?

  private let connection: UnixConnection
  private var decoder: FrameDecoder
  private var byeReason: String?
  private var failure: RemoteError?
  private var finished = false

  /// Whether the connection is still open.
  public var isOpen: Bool { self.connection.isOpen }
  /// Bytes read from the host.
  public var bytesRead: UInt64 { self.connection.bytesRead }
  /// Bytes written to the host.
  public var bytesWritten: UInt64 { self.connection.bytesWritten }
  /// The kernel-reported identity of the stream's peer: the host process over a Unix socket.
  public var peerCredentials: PeerCredentials? { self.connection.peerCredentials }

  private init(connection: UnixConnection, transport: any HostTransport, maxFrameSize: Int) {
    self.connection = connection
    self.loop = connection.loop
    self.transport = transport
    self.decoder = FrameDecoder(maxFrameSize: maxFrameSize)
  }

  /// Opens `transport` and sends `hello`. Call on the loop thread.
  ///
  /// - Parameters:
  ///   - transport: How to reach the host, e.g. ``UnixSocketTransport``.
  ///   - client: The name sent in `hello`, e.g. `storeclient/1.0`.
  ///   - maxFrameSize: The largest frame accepted from the host.
  ///   - loop: The loop to run on; the caller must be on its thread.
  /// - Returns: The open connection; the host's `welcome` arrives as the first message.
  /// - Throws: What the transport throws: ``RemoteError/noHost(path:)`` when nothing answers,
  ///   ``RemoteError/connectionFailed(_:)`` otherwise.
  public static func open(
    via transport: some HostTransport, client: String, maxFrameSize: Int = 16 << 20,
    loop: EventLoop
  ) throws(RemoteError) -> HostConnection {
    let stream = try transport.open(on: loop)
    let connection = HostConnection(
      connection: stream, transport: transport, maxFrameSize: maxFrameSize)
    connection.attach()
    connection.send(.hello(protocol: ClientMessage.protocolVersion, client: client))
    return connection
  }

  private func attach() {
    // The connection (and so its callbacks) is owned by the loop until it closes; the
    // callbacks hold this object strongly, which keeps it alive exactly as long.
    self.connection.onRead = { bytes in self.received(bytes) }
    self.connection.onClose = { error in self.closed(error) }
  }

  // MARK: - Sending

  /// Queues a message; it leaves at the end of the loop iteration, with the others queued in
  /// the same iteration. Ignored once closed.
  ///
  /// - Parameter message: The message.
  public func send(_ message: ClientMessage) {
    self.connection.withOutboundBuffer { message.encodeFrame(into: &$0) }
  }

  /// Queues a prepared `send` with request `id` (`nil`: no acknowledgement asked), as
  /// ``send(_:)-(ClientMessage)`` would queue the same message. Ignored once closed.
  ///
  /// - Parameters:
  ///   - prepared: The encoded scope and action.
  ///   - id: The request id, or `nil`.
  public func send(_ prepared: PreparedSend, id: Int64?) {
    self.connection.withOutboundBuffer { prepared.appendFrame(id: id, to: &$0) }
  }

  /// Lets `body` append whole frames to the outbound buffer in place.
  ///
  /// - Parameter body: Appends complete frames (e.g. with `FrameEncoder`).
  /// - Returns: What `body` returns.
  public func withOutboundBuffer<R>(_ body: (inout [UInt8]) -> R) -> R {
    self.connection.withOutboundBuffer(body)
  }

  /// The number of bytes queued and not yet accepted by the socket.
  public var outboundBytes: Int { self.connection.outboundBytes }

  /// Closes the connection; ``onClose`` is called with ``RemoteError/closed``.
  public func close() {
    self.finish(.closed)
  }

  // MARK: - Receiving

  private func received(_ bytes: UnsafeRawBufferPointer) {
    do {
      try self.decoder.decode(bytes) { payload in
        guard self.failure == nil else { return }
        if let onFrame = self.onFrame, onFrame(payload) { return }
        self.dispatch(payload)
      }
    } catch {
      self.failure = self.failure ?? .protocolViolation("bad frame from the host: \(error)")
    }
    if let failure = self.failure { self.finish(failure) }
  }

  private func dispatch(_ payload: UnsafeRawBufferPointer) {
    let message: HostMessage
    if let reply = HostMessage(compactReply: payload) {
      message = reply
    } else {
      do {
        message = try Self.decode(payload)
      } catch {
        self.failure = error
        return
      }
    }
    if case .bye(let reason) = message { self.byeReason = reason }
    self.onMessage?(message)
  }

  /// Decodes one frame's payload as a host message.
  ///
  /// - Parameter payload: The payload, without its length prefix.
  /// - Returns: The message.
  /// - Throws: ``RemoteError/protocolViolation(_:)`` naming what is wrong.
  public static func decode(_ payload: UnsafeRawBufferPointer) throws(RemoteError) -> HostMessage {
    let json: JSON
    do {
      json = try JSON(parsing: payload)
    } catch {
      throw .protocolViolation("the host sent invalid JSON: \(error)")
    }
    do {
      return try HostMessage(json: json)
    } catch {
      throw .protocolViolation("the host sent a bad message: \(error.message)")
    }
  }

  private func closed(_ error: SocketError?) {
    if self.failure == nil, let error, error.code != .disconnected {
      self.failure = .connectionFailed(error)
    }
    if self.failure == nil, self.decoder.bufferedByteCount > 0 {
      self.failure = .protocolViolation("the host closed the connection in the middle of a frame")
    }
    self.finish(self.failure ?? .disconnected(reason: self.byeReason))
  }

  private func finish(_ reason: RemoteError) {
    guard !self.finished else { return }
    self.finished = true
    self.connection.onClose = nil
    self.connection.close()
    let reason = self.transport.connectionDidEnd(self.connection, reason: reason)
    let onClose = self.onClose
    self.onFrame = nil
    self.onMessage = nil
    self.onClose = nil
    onClose?(reason)
  }
}

@available(*, unavailable, message: "a HostConnection is confined to its event loop's thread")
extension HostConnection: Sendable {}
