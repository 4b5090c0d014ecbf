/// One Unix-domain stream connection, driven by an ``EventLoop``.
///
/// Loop-confined: create it, set its callbacks and call its methods on the loop thread only
/// (from a loop callback, ``EventLoop/execute(_:)``, or an actor whose executor is the loop).
///
/// **Reading.** When the socket is readable the loop reads until it would block (or until a
/// fairness cap, so one busy peer cannot starve the others) into the loop's shared buffer and
/// hands each chunk to ``onRead``. The bytes are valid only during the call: decode them there,
/// e.g. with ``FrameDecoder/decode(_:onFrame:)-(UnsafeRawBufferPointer,_)``.
///
/// **Writing.** ``write(_:)-(UnsafeRawBufferPointer)`` and ``withOutboundBuffer(_:)`` only append
/// to an outbound buffer. The loop sends it once, at the end of the current iteration, so all the
/// frames produced while handling a batch of input leave in one `send`. If the socket's buffer
/// is full, the rest waits for POLLOUT; ``outboundBytes`` tells how much is queued, so that a
/// host can stop producing for a slow reader, and ``onWritable`` says when it has drained.
///
/// **Closing.** ``close()`` flushes what the socket accepts without blocking, closes the
/// descriptor and calls ``onClose`` once, with `nil`, or with the error that closed it
/// (`EPIPE`/`ECONNRESET` become ``SocketError/Code/disconnected``; `SIGPIPE` is never raised).
/// At end of input the connection calls ``onEOF`` if set — the peer may have only half-closed
/// and still wait for replies — and otherwise closes itself.
///
/// **Callbacks never run inside a call into the connection.** ``onRead`` and ``onEOF`` run
/// only from the loop's dispatch of this connection's events; ``onClose``, and ``onWritable``
/// after an early ``flush()``, are delivered by the loop once the code that caused them has
/// returned. A send that fails (the peer left) does not read or close on the spot: it drops
/// what was queued, and the loop then delivers what the peer sent before leaving and closes
/// with the error. So the owner's code may write, flush and close while it walks its own
/// collections without being re-entered in the middle of the walk.
public final class UnixConnection: EventSource {
  /// The loop this connection belongs to.
  public let loop: EventLoop
  /// The socket descriptor (valid while ``isOpen``).
  public let fileDescriptor: Int32
  /// The peer's kernel-reported identity, read when the connection was established.
  public let peerCredentials: PeerCredentials?

  // The scalar state below is `@exclusivity(unchecked)`: a connection is confined to its
  // loop's thread and these are only read, assigned or bumped by arithmetic (never handed
  // `inout` to code that could reach the connection), so the dynamic exclusivity check — a
  // thread-local access-set insert per access, several per write — could never fire. (`outbound` keeps the check: `withOutboundBuffer` runs caller code
  // during an `inout` access to it.)

  /// Called with each chunk of bytes read; the bytes are valid only during the call.
  public var onRead: ((UnsafeRawBufferPointer) -> Void)?
  /// Called when the peer has finished sending (EOF). If `nil`, the connection closes itself.
  public var onEOF: (() -> Void)?
  /// Called when output that had filled the socket's buffer has been sent completely.
  public var onWritable: (() -> Void)?
  /// Called once when the connection closes: `nil` for an orderly close, else the error.
  public var onClose: ((SocketError?) -> Void)?

  /// Whether the connection is still open.
  @exclusivity(unchecked) public private(set) var isOpen = true
  /// Whether the peer has finished sending (EOF was read).
  @exclusivity(unchecked) public private(set) var isInputClosed = false
  /// Bytes read from this connection.
  @exclusivity(unchecked) public private(set) var bytesRead: UInt64 = 0
  /// Bytes written to this connection's socket (not counting bytes still queued).
  @exclusivity(unchecked) public private(set) var bytesWritten: UInt64 = 0

  /// Whether the loop reads from this connection; set to `false` to stop reading (the peer is
  /// then slowed down by the kernel's buffers), `true` to resume.
  @exclusivity(unchecked) public var isReadingEnabled = true

  /// `send` calls made for this connection (for tests of write coalescing).
  @exclusivity(unchecked) private(set) var sendCalls = 0

  private var outbound: [UInt8] = []
  @exclusivity(unchecked) private var outboundStart = 0
  /// Whether the loop will flush this connection at the end of its iteration.
  @exclusivity(unchecked) private(set) var flushScheduled = false
  /// The socket's buffer was full (or a connect is in progress): wait for POLLOUT.
  @exclusivity(unchecked) private var waitingForWritable = false
  @exclusivity(unchecked) private var connecting = false
  /// The peer hung up while reading was disabled: stop polling until reading resumes.
  @exclusivity(unchecked) private var hangUpSeen = false
  /// A send failed: the peer is gone. Nothing more is written; the loop delivers what is left
  /// to read, then closes with this error (``finishFailedSend()``).
  private var sendFailure: SocketError?
  var sourceIndex = -1

  /// At most this many full reads per readiness event, for fairness between connections.
  private static let maxReadsPerEvent = 16
  /// Outbound capacity kept once the buffer drains; more is released, so that a connection
  /// that once received a large reply does not pin it while idle (at 1 MiB, an 800 KB
  /// snapshot sent to each of 1,024 subscribers stayed: 800 MiB in all).
  private static let retainedOutboundCapacity = 64 * 1024

  init(fileDescriptor: Int32, loop: EventLoop, connecting: Bool = false) {
    self.loop = loop
    self.fileDescriptor = fileDescriptor
    self.connecting = connecting
    self.waitingForWritable = connecting
    self.peerCredentials = connecting ? nil : Posix.peerCredentials(fileDescriptor)
    loop.register(self)
  }

  /// Connects to the listener at `path`, on the loop thread.
  ///
  /// - Parameters:
  ///   - path: The socket path.
  ///   - loop: The loop to drive the connection; the caller must be on its thread.
  /// - Returns: The connection, open (writes made before the connection completes are queued).
  /// - Throws: ``SocketError`` — ``SocketError/Code/pathTooLong(limit:)``,
  ///   ``SocketError/Code/noSuchFile``, ``SocketError/Code/connectionRefused``,
  ///   ``SocketError/Code/permissionDenied``, ``SocketError/Code/temporarilyUnavailable``
  ///   (the listener's backlog is full; retry).
  public static func connect(path: String, loop: EventLoop) throws(SocketError) -> UnixConnection {
    loop.preconditionInEventLoop()
    try SocketError.validate(path: path, operation: "connect")
    let fd = Posix.makeUnixSocket()
    guard fd >= 0 else { throw SocketError.system(-fd, "socket", path: path) }
    let result = Posix.connectUnix(fd, path: path)
    switch result {
    case 0:
      return UnixConnection(fileDescriptor: fd, loop: loop)
    case Posix.einprogress:
      return UnixConnection(fileDescriptor: fd, loop: loop, connecting: true)
    default:
      Posix.close(fd)
      throw SocketError.system(result, "connect", path: path)
    }
  }

  /// Takes over a connected stream socket made elsewhere — one end of `socketpair(2)` whose
  /// other end a child process uses as its standard input and output, say — and drives it on
  /// `loop`. Call on the loop's thread.
  ///
  /// The descriptor is made non-blocking and close-on-exec; the connection owns it from now on
  /// and closes it.
  ///
  /// - Parameters:
  ///   - fileDescriptor: A connected `AF_UNIX` stream socket.
  ///   - loop: The loop to drive the connection; the caller must be on its thread.
  /// - Returns: The open connection.
  public static func adopt(fileDescriptor: Int32, loop: EventLoop) -> UnixConnection {
    loop.preconditionInEventLoop()
    Posix.makeNonBlocking(fileDescriptor)
    Posix.configureNewSocket(fileDescriptor)
    return UnixConnection(fileDescriptor: fileDescriptor, loop: loop)
  }

  deinit {
    // A connection is kept alive by its loop until it closes; reaching here open means the
    // loop itself is gone. Never leak the descriptor.
    if self.isOpen { Posix.close(self.fileDescriptor) }
  }

  // MARK: - Writing

  /// The number of bytes queued and not yet accepted by the socket.
  public var outboundBytes: Int { self.outbound.count - self.outboundStart }

  /// Whether the socket's buffer is full and queued output waits for the peer to read: the
  /// peer is behind. ``onWritable`` is called when it has caught up. Also `true` once a send
  /// has failed (the peer left; the loop closes the connection soon): nothing written now
  /// would leave, so an owner that produces output only for a peer that keeps up — pushes, a
  /// tail's entries — stops producing it instead of encoding it for nobody.
  public var isBackedUp: Bool {
    (self.waitingForWritable && !self.connecting) || self.sendFailure != nil
  }

  /// Queues bytes for sending at the end of the loop iteration. Ignored once closed.
  ///
  /// - Parameter bytes: The bytes to send, copied into the outbound buffer.
  public func write(_ bytes: UnsafeRawBufferPointer) {
    guard self.isWritable, !bytes.isEmpty else { return }
    self.outbound.append(contentsOf: bytes)
    self.scheduleFlush()
  }

  /// Queues bytes for sending at the end of the loop iteration. Ignored once closed.
  ///
  /// - Parameter bytes: The bytes to send.
  public func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { self.write($0) }
  }

  /// Lets `body` append to the outbound buffer in place — the way to encode frames with no
  /// intermediate copy:
  ///
  /// ```swift
  /// connection.withOutboundBuffer { HostMessage.ack(id: 2, rev: 42).encodeFrame(into: &$0) }
  /// ```
  ///
  /// - Parameter body: Appends bytes to the buffer (it must not modify what is there already).
  ///   After ``close()`` it receives a scratch buffer whose contents are discarded.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public func withOutboundBuffer<R, E: Error>(
    _ body: (inout [UInt8]) throws(E) -> R
  ) throws(E) -> R {
    guard self.isWritable else {
      var scratch: [UInt8] = []
      return try body(&scratch)
    }
    let before = self.outbound.count
    defer { if self.outbound.count != before { self.scheduleFlush() } }
    return try body(&self.outbound)
  }

  /// Sends queued bytes now instead of at the end of the iteration, as far as the socket
  /// accepts them without blocking.
  ///
  /// Calls no callback: if the send fails, or drains a socket that was full, the loop tells
  /// ``onClose`` or ``onWritable`` after the caller has returned.
  public func flush() {
    if self.outboundBytes > 0 { self.flushScheduledWrites(fromLoop: false) }
  }

  /// Open, and no send has failed: bytes written now may still reach the peer.
  private var isWritable: Bool { self.isOpen && self.sendFailure == nil }

  private func scheduleFlush() {
    guard !self.flushScheduled, !self.waitingForWritable else { return }
    self.flushScheduled = true
    self.loop.scheduleFlush(self)
  }

  /// Sends the outbound buffer until it is empty or the socket is full.
  ///
  /// - Parameter fromLoop: Called by the loop itself (its end-of-iteration flush, or POLLOUT),
  ///   with none of the owner's code on the stack: ``onWritable`` may run at once. Otherwise it
  ///   is delivered later, like everything a failed send causes.
  func flushScheduledWrites(fromLoop: Bool) {
    self.flushScheduled = false
    guard self.isWritable, !self.connecting else { return }
    let wasWaiting = self.waitingForWritable
    while self.outboundBytes > 0 {
      let result = self.outbound.withUnsafeBytes {
        Posix.send(self.fileDescriptor, UnsafeRawBufferPointer(rebasing: $0[self.outboundStart...]))
      }
      self.sendCalls += 1
      switch result {
      case .done(let sent):
        self.loop.countSend(sent)
        self.bytesWritten += UInt64(sent)
        self.outboundStart += sent
        if self.outboundBytes > 0 {
          // A partial send means the socket buffer is full: the next call would only EAGAIN.
          self.compactOutbound()
          self.waitingForWritable = true
          return
        }
      case .wouldBlock:
        self.loop.countSend(0)
        self.compactOutbound()
        self.waitingForWritable = true
        return
      case .failed(let code):
        self.loop.countSend(0)
        // The peer is gone. What it sent before leaving (a `bye`, an `error`) may still be
        // unread: the loop delivers it, then closes — not here, where the caller may be in the
        // middle of a walk that a read or a close must not change under it.
        self.sendFailure = .system(code, "send")
        self.outbound = []
        self.outboundStart = 0
        self.waitingForWritable = false
        self.loop.deliverLater { [self] in self.finishFailedSend() }
        return
      }
    }
    if self.outbound.capacity > Self.retainedOutboundCapacity {
      self.outbound = []
    } else {
      self.outbound.removeAll(keepingCapacity: true)
    }
    self.outboundStart = 0
    self.waitingForWritable = false
    if wasWaiting {
      if fromLoop {
        self.onWritable?()
      } else {
        self.loop.deliverLater { [self] in if self.isOpen { self.onWritable?() } }
      }
    }
  }

  /// After a failed send, from the loop: delivers what the peer sent before leaving (unless
  /// reading is paused), then closes with the send's error.
  private func finishFailedSend() {
    guard self.isOpen, let failure = self.sendFailure else { return }
    if self.isReadingEnabled && !self.isInputClosed { self.readAvailable() }
    self.close(error: failure)
  }

  /// Drops sent bytes once they are at least half the buffer (amortized linear).
  private func compactOutbound() {
    if self.outboundStart >= 4096 && self.outboundStart >= self.outbound.count / 2 {
      self.outbound.removeSubrange(..<self.outboundStart)
      self.outboundStart = 0
    }
  }

  // MARK: - Closing

  /// Sends what the socket accepts without blocking, closes, and calls ``onClose`` with `nil`.
  /// Does nothing if already closed.
  public func close() {
    self.close(error: nil)
  }

  func close(error: SocketError?) {
    guard self.isOpen else { return }
    if error == nil && self.outboundBytes > 0 && !self.connecting {
      self.waitingForWritable = false
      self.flushScheduledWrites(fromLoop: false)
    }
    // A send that failed, now or before, is why the connection ends.
    let error = error ?? self.sendFailure
    self.isOpen = false
    self.loop.deregister(self)
    Posix.close(self.fileDescriptor)
    self.outbound = []
    self.outboundStart = 0
    let onClose = self.onClose
    // Release the callbacks: they usually capture the connection or its owner.
    self.onRead = nil
    self.onEOF = nil
    self.onWritable = nil
    self.onClose = nil
    // From the loop, after the caller (perhaps walking what `onClose` changes) has returned.
    if let onClose { self.loop.deliverLater { onClose(error) } }
  }

  // MARK: - Events

  var pollEvents: Int16? {
    var events: Int16 = 0
    if self.isReadingEnabled && !self.isInputClosed { events |= Posix.pollIn }
    if self.waitingForWritable { events |= Posix.pollOut }
    // POLLHUP is reported even for no events: leave a hung-up, idle connection out entirely.
    if events == 0 && (self.hangUpSeen || self.isInputClosed) { return nil }
    return events
  }

  func handleEvents(_ revents: Int16) {
    if revents & Posix.pollNval != 0 {
      self.close(error: SocketError(code: .other, operation: "poll (invalid descriptor)"))
      return
    }
    if self.connecting {
      guard revents & (Posix.pollOut | Posix.pollErr | Posix.pollHup) != 0 else { return }
      let code = Posix.socketError(self.fileDescriptor)
      if code != 0 {
        self.close(error: .system(code, "connect"))
        return
      }
      self.connecting = false
      self.waitingForWritable = false
      self.flushScheduledWrites(fromLoop: true)
      return
    }
    let hangUp = revents & (Posix.pollHup | Posix.pollErr) != 0
    if revents & Posix.pollIn != 0 || (hangUp && self.isReadingEnabled && !self.isInputClosed) {
      self.readAvailable()
    } else if hangUp {
      self.hangUpSeen = true
    }
    if self.isOpen && self.waitingForWritable && revents & (Posix.pollOut | Posix.pollErr) != 0 {
      self.flushScheduledWrites(fromLoop: true)
    }
  }

  private func readAvailable() {
    let buffer = self.loop.readBuffer
    var reads = 0
    while self.isOpen && self.isReadingEnabled && !self.isInputClosed {
      switch Posix.read(self.fileDescriptor, into: buffer) {
      case .done(0):
        self.isInputClosed = true
        if let onEOF = self.onEOF {
          onEOF()
        } else {
          self.close()
        }
        return
      case .done(let count):
        self.bytesRead += UInt64(count)
        self.loop.countRead(count)
        self.onRead?(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        reads += 1
        // A short read means the socket is drained: skip the read that would return EAGAIN.
        if count < buffer.count || reads >= Self.maxReadsPerEvent { return }
      case .wouldBlock:
        return
      case .failed(let code):
        self.close(error: .system(code, "read"))
        return
      }
    }
  }
}

@available(*, unavailable, message: "a UnixConnection is confined to its event loop's thread")
extension UnixConnection: Sendable {}
