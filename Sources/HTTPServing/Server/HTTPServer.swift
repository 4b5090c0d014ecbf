/// A small HTTP/1.1 server on a thread of its own: keep-alive, pipelining, `100 Continue`,
/// Server-Sent Events, and the right status for every bad request — never a crash, and never
/// a stall of anything else for one slow or hostile client.
///
/// ```swift
/// let server = try HTTPServer.start(HTTPServerConfiguration(port: 0)) { request, responder in
///   switch request.path {
///   case "/hello": responder.respond(.text(.ok, "hello"))
///   default: responder.respond(.text(.notFound, "no such path"))
///   }
/// }
/// print("http://\(server.authority)/hello")
/// ```
///
/// ```
///   handler threads                              the server's thread
///   responder.respond(…) ─┐                 ┌──────────────────────────────────────────┐
///   stream.send(…) ───────┼─▶ inbox ──wake─▶│ 1. apply the inbox (responses, events)    │
///   stream.close() ───────┘   (locked)      │ 2. fire deadlines: 408, 503, idle, linger │
///                                           │ 3. requests pipelined behind an answer    │
///                                           │    → handler; closed streams' handlers    │
///                                           │ 4. poll(2): listener, wakeup, connections │
///                                           │ 5. accept · read → parser → handler       │
///                                           │    write what the sockets take            │
///                                           └──────────────────────────── repeat ───────┘
/// ```
///
/// On the server's thread, the handler and a stream's close handlers are called by these steps
/// themselves, never from inside a write: writing an answer, or failing to, runs no code of
/// the caller's.
///
/// The handler is called on the server's thread, once per request, in order per connection:
/// it must not block. It answers through its ``HTTPResponder`` — at once, or later from any
/// thread; the connection reads its next request only after the answer (pipelined requests
/// wait in its buffer).
public final class HTTPServer: @unchecked Sendable {
  // @unchecked Sendable: `configuration`, `port`, `handler` and the descriptors are immutable
  // after start; `shared` is behind a pthread mutex; everything else (`connections`,
  // `nextConnectionID`) belongs to the server's thread and is touched only by `run()` and the
  // functions it calls (see HTTPServer+Loop.swift).

  /// Answers one request; called on the server's thread. It must not block.
  public typealias Handler = @Sendable (HTTPRequest, HTTPResponder) -> Void

  /// The configuration.
  public let configuration: HTTPServerConfiguration
  /// The port the server listens on (the one chosen by the system when 0 was asked for).
  public let port: UInt16
  let handler: Handler
  let listenFD: Int32
  let wakeRead: Int32
  let wakeWrite: Int32

  /// Work handed to the loop by other threads.
  enum Command {
    case respond(connection: UInt64, sequence: UInt64, response: HTTPResponse)
    case startStream(
      connection: UInt64, sequence: UInt64, head: HTTPResponse, stream: HTTPEventStream)
    case streamBytes(connection: UInt64, bytes: [UInt8])
    case closeStream(connection: UInt64)
  }

  struct Shared {
    var inbox: [Command] = []
    /// The loop is in (or about to enter) poll and must be woken for new commands.
    var sleeping = false
    var stopping = false
  }

  let shared = ServerLock(Shared())
  private let thread = ServerLock<ServerThread?>(nil)

  // Loop-confined.
  var connections: [UInt64: HTTPConnection] = [:]
  var nextConnectionID: UInt64 = 1
  /// Connections whose answer has left and whose next (pipelined) request may already be
  /// buffered: the loop hands it to the handler, not the write that finished the answer.
  var readyToRead: [UInt64] = []
  /// Event streams whose connection closed: the loop runs their close handlers, not the call
  /// (perhaps a failed write) that closed them.
  var closedStreams: [HTTPEventStream] = []
  let readBuffer: UnsafeMutableRawBufferPointer

  private init(
    configuration: HTTPServerConfiguration, port: UInt16, listenFD: Int32,
    wake: (read: Int32, write: Int32), handler: @escaping Handler
  ) {
    self.configuration = configuration
    self.port = port
    self.listenFD = listenFD
    self.wakeRead = wake.read
    self.wakeWrite = wake.write
    self.handler = handler
    self.readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
  }

  deinit {
    self.readBuffer.deallocate()
  }

  /// Starts listening and serving.
  ///
  /// - Parameters:
  ///   - configuration: The address, port, limits and timeouts.
  ///   - handler: Answers each request (on the server's thread; it must not block).
  /// - Returns: The running server.
  /// - Throws: ``HTTPServerError``: ``HTTPServerError/addressInUse(address:)`` when the port
  ///   is taken, ``HTTPServerError/cannotListen(address:reason:)`` otherwise.
  public static func start(
    _ configuration: HTTPServerConfiguration, handler: @escaping Handler
  ) throws(HTTPServerError) -> HTTPServer {
    let address = "\(configuration.address):\(configuration.port)"
    let listener: (fd: Int32, port: UInt16)
    switch SocketSystem.listen(
      address: configuration.address.bytes, port: configuration.port, backlog: 128)
    {
    case .success(let value): listener = value
    case .failure(let error) where error.code == SocketSystem.addressInUse:
      throw .addressInUse(address: address)
    case .failure(let error):
      throw .cannotListen(
        address: address, reason: "\(error.call): \(SocketSystem.errorDescription(error.code))")
    }
    guard let wake = SocketSystem.makeWakeupPipe() else {
      SocketSystem.close(listener.fd)
      throw .cannotStart(reason: "pipe: \(SocketSystem.errorDescription(SocketSystem.lastError))")
    }
    let server = HTTPServer(
      configuration: configuration, port: listener.port, listenFD: listener.fd, wake: wake,
      handler: handler)
    switch ServerThread.start({ server.run() }) {
    case .success(let thread):
      server.thread.withLock { $0 = thread }
    case .failure(let error):
      server.closeDescriptors()
      throw .cannotStart(reason: "\(error.call): \(SocketSystem.errorDescription(error.code))")
    }
    return server
  }

  /// `address:port`, e.g. `127.0.0.1:8765`: what a browser puts in `Host`.
  public var authority: String { "\(self.configuration.address):\(self.port)" }

  /// Stops serving: open connections and event streams are closed (their close handlers run),
  /// the port is released. Returns once the server's thread has finished; calling it from a
  /// handler (on that thread) only asks it to stop.
  public func stop() {
    let wake = self.shared.withLock { shared -> Bool in
      guard !shared.stopping else { return false }
      shared.stopping = true
      return true
    }
    if wake { SocketSystem.signal(self.wakeWrite) }
    // From a handler, the thread cannot wait for itself: it stops after this iteration, and a
    // later call from elsewhere joins it.
    guard !self.isServerThread else { return }
    let thread = self.thread.withLock { thread -> ServerThread? in
      defer { thread = nil }
      return thread
    }
    thread?.join()
  }

  /// Hands a command to the loop, waking it if it sleeps. Returns `false` once stopped.
  @discardableResult
  func submit(_ command: Command) -> Bool {
    let (accepted, wake) = self.shared.withLock { shared -> (Bool, Bool) in
      guard !shared.stopping else { return (false, false) }
      shared.inbox.append(command)
      defer { shared.sleeping = false }
      return (true, shared.sleeping)
    }
    if wake { SocketSystem.signal(self.wakeWrite) }
    return accepted
  }

  func closeDescriptors() {
    SocketSystem.close(self.listenFD)
    SocketSystem.close(self.wakeRead)
    SocketSystem.close(self.wakeWrite)
  }

  /// The loop thread's identity, set when it starts.
  let loopThread = ServerLock<UInt?>(nil)

  var isServerThread: Bool {
    self.loopThread.withLock { $0 } == ServerThread.currentID()
  }
}
