/// One client connection of an ``HTTPServer``: reads requests, hands them to the handler one
/// at a time, writes the answers, streams events, and enforces the timeouts. Confined to the
/// server's thread.
///
/// ```
///            request parsed                respond(…)                 written, keep-alive
/// reading ──────────────────▶ awaiting ──────────────────▶ writing ─────────────────────▶ reading
///    │ parse error / 408          │ startStream(…)             │ written, close
///    └──────▶ writing(close)      └──────▶ streaming ──finish──┴──────▶ closing ──EOF/2 s──▶ closed
/// ```
final class HTTPConnection {
  let id: UInt64
  let fd: Int32
  private unowned let server: HTTPServer

  private enum State {
    case reading
    case awaiting(sequence: UInt64, isHead: Bool, keepAlive: Bool, version: HTTPVersion)
    case writing(keepAlive: Bool)
    case streaming(HTTPEventStream, finishing: Bool)
    /// Our side is shut; the client's remaining input is read and dropped until it closes
    /// (closing with unread input would reset the connection and could destroy the answer).
    case closing
    case closed
  }

  /// What happens when ``deadline`` passes.
  private enum DeadlineAction {
    case closeQuietly, requestTimeout, responseTimeout, heartbeat, linger
  }

  private var state = State.reading
  private var parser: HTTPRequestParser
  private var sequence: UInt64 = 0
  private var outbound: [UInt8] = []
  private var outboundStart = 0
  private var inputClosed = false
  private var deadline: UInt64
  private var deadlineAction = DeadlineAction.closeQuietly
  /// When queued output must have moved on by (`.max` when nothing waits).
  private var writeDeadline = UInt64.max

  /// How long a closing connection drains the client's input.
  private static let lingerTime: UInt64 = 2_000_000_000
  private static let maxReadsPerEvent = 16

  init(id: UInt64, fd: Int32, server: HTTPServer) {
    self.id = id
    self.fd = fd
    self.server = server
    self.parser = HTTPRequestParser(limits: server.configuration.limits)
    // Idle until the first byte: from then on the request must arrive within requestTimeout.
    self.deadline = SocketSystem.now() &+ server.configuration.idleTimeout.nanoseconds
  }

  private var configuration: HTTPServerConfiguration { self.server.configuration }
  private var outboundBytes: Int { self.outbound.count - self.outboundStart }

  /// The earliest time something must happen on this connection.
  var nextDeadline: UInt64 { min(self.deadline, self.writeDeadline) }

  /// The events to poll for (`0` still reports errors and hang-ups).
  var pollEvents: Int16? {
    let output = self.outboundBytes > 0 ? SocketSystem.pollOut : 0
    switch self.state {
    case .reading, .streaming, .closing: return SocketSystem.pollIn | output
    case .awaiting, .writing: return output
    case .closed: return nil
    }
  }

  // MARK: - Events

  func handle(_ revents: Int16) {
    if revents & SocketSystem.pollOut != 0 { self.flush() }
    let readable = revents & (SocketSystem.pollIn | SocketSystem.pollErrorOrHangUp) != 0
    guard readable else { return }
    switch self.state {
    case .reading, .streaming, .closing:
      self.readAvailable()
    case .awaiting, .writing:
      // Not reading now, so only an error or a hang-up gets here: nobody is left to answer.
      if revents & SocketSystem.pollErrorOrHangUp != 0 { self.close() }
    case .closed:
      break
    }
  }

  func fire(now: UInt64) {
    if self.writeDeadline <= now { return self.close() }
    guard self.deadline <= now else { return }
    self.deadline = .max
    switch self.deadlineAction {
    case .closeQuietly, .linger:
      self.close()
    case .requestTimeout:
      if case .reading = self.state {
        self.fail(.requestTimeout, "The request did not arrive in time; send it whole, at once.")
      }
    case .responseTimeout:
      if case .awaiting = self.state {
        self.fail(.serviceUnavailable, "The server did not answer in time; try again.")
      }
    case .heartbeat:
      if case .streaming(_, false) = self.state {
        // A comment line: ignored by EventSource, but it shows whether the client is there.
        self.queue(Array(": keep-alive\n\n".utf8))
        self.schedule(.heartbeat, after: self.configuration.heartbeatInterval)
      }
    }
  }

  // MARK: - Reading

  private func readAvailable() {
    let buffer = self.server.readBuffer
    for _ in 0..<Self.maxReadsPerEvent {
      switch SocketSystem.read(self.fd, into: buffer) {
      case .done(0):
        return self.endOfInput()
      case .done(let count):
        switch self.state {
        case .reading:
          self.parser.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
          self.process()
          // Once a request waits for its answer, the next one stays in the kernel's buffer.
          guard case .reading = self.state else { return }
        case .streaming, .closing:
          continue  // nothing more is expected from the client: dropped
        case .awaiting, .writing, .closed:
          return
        }
      case .wouldBlock:
        return
      case .failed:
        return self.close()
      }
    }
  }

  private func endOfInput() {
    self.inputClosed = true
    switch self.state {
    case .reading, .streaming, .closing, .closed:
      // Between requests, within one (nothing to answer), or the event stream's reader left.
      self.close()
    case .awaiting, .writing:
      break  // the answer still goes out, then the connection closes
    }
  }

  /// Called by the server's loop once an answer has left: the next request may be buffered
  /// already (pipelined).
  func readBufferedRequests() {
    guard case .reading = self.state else { return }
    self.process()
  }

  /// Reads requests from the buffered input while the connection is free to answer one.
  private func process() {
    while case .reading = self.state {
      let request: HTTPRequest?
      do {
        request = try self.parser.nextRequest()
      } catch {
        return self.fail(error.status, error.description)
      }
      guard let request else {
        if self.parser.expectsContinue {
          self.parser.continueSent()
          self.queue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        if !self.parser.isIdle, self.deadlineAction == .closeQuietly {
          // The first bytes of a request: the whole of it must arrive in time.
          self.schedule(.requestTimeout, after: self.configuration.requestTimeout)
        }
        return
      }
      self.sequence += 1
      self.state = .awaiting(
        sequence: self.sequence, isHead: request.method == "HEAD",
        keepAlive: request.keepAlive && !self.inputClosed, version: request.version)
      self.schedule(.responseTimeout, after: self.configuration.responseTimeout)
      self.server.handler(
        request, HTTPResponder(server: self.server, connection: self.id, sequence: self.sequence))
    }
  }

  // MARK: - Answering

  func respond(_ response: HTTPResponse, sequence: UInt64) {
    guard case .awaiting(sequence, let isHead, let keepAlive, let version) = self.state else {
      return  // answered already (a timeout), or the connection has moved on
    }
    var response = response
    if keepAlive && version == .http1_0 { response.headers.set("Connection", "keep-alive") }
    self.state = .writing(keepAlive: keepAlive)
    self.deadline = .max
    self.queue(response.serialized(keepAlive: keepAlive, includeBody: !isHead))
  }

  func startStream(_ head: HTTPResponse, stream: HTTPEventStream, sequence: UInt64) {
    guard case .awaiting(sequence, _, _, _) = self.state else {
      return stream.markClosed()
    }
    self.state = .streaming(stream, finishing: false)
    self.schedule(.heartbeat, after: self.configuration.heartbeatInterval)
    self.queue(head.serializedStreamHead())
  }

  func streamBytes(_ bytes: [UInt8]) {
    guard case .streaming(_, false) = self.state else { return }
    guard self.outboundBytes + bytes.count <= self.configuration.maxStreamBacklog else {
      // The client does not keep up: close, rather than buffer without bound. An EventSource
      // reconnects and starts from a fresh state.
      return self.close()
    }
    self.queue(bytes)
  }

  func finishStream() {
    guard case .streaming(let stream, false) = self.state else { return }
    self.state = .streaming(stream, finishing: true)
    if self.outboundBytes == 0 { self.drained() }
  }

  /// Answers with an error status and closes the connection after it.
  private func fail(_ status: HTTPStatus, _ message: String) {
    self.state = .writing(keepAlive: false)
    self.deadline = .max
    self.queue(HTTPResponse.text(status, message).serialized(keepAlive: false))
  }

  private func schedule(_ action: DeadlineAction, after delay: Duration) {
    self.deadlineAction = action
    self.deadline = SocketSystem.now() &+ delay.nanoseconds
  }

  // MARK: - Writing

  private func queue(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    if self.outboundBytes == 0 {
      self.outbound.removeAll(keepingCapacity: self.outbound.capacity <= 256 * 1024)
      self.outboundStart = 0
    }
    self.outbound += bytes
    self.flush()
  }

  private func flush() {
    if case .closed = self.state { return }
    while self.outboundBytes > 0 {
      let result = self.outbound.withUnsafeBytes {
        SocketSystem.send(self.fd, UnsafeRawBufferPointer(rebasing: $0[self.outboundStart...]))
      }
      switch result {
      case .done(let count):
        self.outboundStart += count
        if self.outboundBytes > 0 {
          self.writeDeadline = SocketSystem.now() &+ self.configuration.writeTimeout.nanoseconds
        }
      case .wouldBlock:
        if self.writeDeadline == .max {
          self.writeDeadline = SocketSystem.now() &+ self.configuration.writeTimeout.nanoseconds
        }
        return
      case .failed:
        return self.close()
      }
    }
    self.writeDeadline = .max
    self.drained()
  }

  /// Everything queued has been sent: move on.
  private func drained() {
    switch self.state {
    case .writing(keepAlive: true):
      self.state = .reading
      if self.parser.isIdle {
        self.schedule(.closeQuietly, after: self.configuration.idleTimeout)
      } else {
        self.schedule(.requestTimeout, after: self.configuration.requestTimeout)
      }
      // A pipelined request may be buffered already: the loop hands it to the handler, not
      // this write (see HTTPServer's notes).
      self.server.readyToRead.append(self.id)
    case .writing(keepAlive: false), .streaming(_, finishing: true):
      self.beginClosing()
    default:
      break
    }
  }

  private func beginClosing() {
    guard !self.inputClosed else { return self.close() }
    if case .streaming(let stream, _) = self.state { self.server.closedStreams.append(stream) }
    SocketSystem.shutdownWrite(self.fd)
    self.state = .closing
    self.deadlineAction = .linger
    self.deadline = SocketSystem.now() &+ Self.lingerTime
  }

  /// Closes the socket at once; an event stream's close handlers run from the server's loop.
  func close() {
    let previous = self.state
    if case .closed = previous { return }
    self.state = .closed
    self.deadline = .max
    self.writeDeadline = .max
    self.outbound = []
    self.outboundStart = 0
    SocketSystem.close(self.fd)
    self.server.removeConnection(self.id)
    if case .streaming(let stream, _) = previous { self.server.closedStreams.append(stream) }
  }
}
