import Wire

/// A connection to a NATS server cluster, driven by an ``EventLoop`` like Wire's sockets: no
/// thread of its own, no hop to publish from code that runs on the loop.
///
/// Loop-confined: call every method on the loop's thread — from a loop callback,
/// `loop.execute`, or an actor whose executor is the loop (``NATSClient`` is one, for async
/// code). Handlers and completions are called on the loop's thread too.
///
/// ```swift
/// // On the loop thread (a host's commit point, say):
/// let nats = NATSConnection(configuration: try NATSConfiguration(urls: "nats://127.0.0.1:4222"), loop: loop)
/// nats.start()
/// let id = try nats.subscribe(to: "greetings.>") { message in print(message.text) }
/// try nats.publish(to: "greetings.world", payload: Array("hello".utf8))
/// try nats.request(to: "time.now", payload: []) { result in … }
/// ```
///
/// **Connecting.** ``start()`` tries the configured servers in order, then those the cluster
/// advertises. The handshake is `INFO` ← `CONNECT` + `PING` → `PONG` ←: only then is the
/// connection ``NATSConnectionStatus/connected``, with headers and no-responders enabled.
///
/// **Reconnecting.** When the socket closes, the server sends garbage, or it stops answering
/// `PING`s, the connection tries the next server. Meanwhile publishes are kept (at most
/// ``NATSConfiguration/reconnectBufferBytes``, then an error); once reconnected, subscriptions
/// are renewed first, then the kept publishes are sent in order. Requests whose message had
/// already left fail with ``NATSError/Code/connectionLost`` (their outcome is unknown); those
/// still kept are sent after the reconnection and wait for their reply.
///
/// **Limits.** A message larger than the server's `max_payload` is refused with
/// ``NATSError/Code/maxPayloadExceeded(size:limit:)`` before anything is written — never
/// dropped silently; so is a subject or header the protocol cannot carry.
///
/// Close it with ``close()``: until then the loop keeps it (and its socket) alive.
public final class NATSConnection {
  /// The loop that drives the connection.
  public let loop: EventLoop
  /// The configuration it was created with.
  public let configuration: NATSConfiguration

  /// Where the connection stands.
  public internal(set) var status = NATSConnectionStatus.idle
  /// The `INFO` of the server connected to (or last connected to).
  public internal(set) var serverInfo: NATSServerInfo?
  /// The server connected to, or `nil`.
  public var connectedServer: NATSServerURL? {
    self.phase == .connected ? self.pool.entries[self.serverIndex].url : nil
  }
  /// Counters since creation.
  public internal(set) var statistics = NATSStatistics()

  // MARK: Connection state (see NATSConnection+Lifecycle.swift)

  enum Phase: Equatable {
    /// No socket: waiting to try a server, or closed.
    case idle
    /// Resolving a host name off the loop.
    case resolving
    /// TCP connect in progress, or waiting for the server's INFO.
    case awaitingInfo
    /// CONNECT and PING sent; the PONG completes the handshake.
    case awaitingPong
    case connected
  }

  var phase = Phase.idle
  var pool: NATSServerPool
  /// The pool entry of the current or last attempt.
  var serverIndex = 0
  var socket: UnixConnection?
  /// Bumped whenever the socket changes: callbacks from an old socket or an old attempt see a
  /// different number and do nothing.
  var generation: UInt64 = 0
  var parser = NATSProtocolParser()
  var operations: [NATSServerOperation] = []
  var everConnected = false
  var failedInitialAttempts = 0
  var attemptTimer: UInt64?
  var reconnectTimer: UInt64?
  var pingTimer: UInt64?
  var pingsOutstanding = 0
  /// One entry per PING written on the current socket, in order: `nil` for a keep-alive
  /// PING, else the flushes it answers.
  var pongWaiters: [[(Result<Void, NATSError>) -> Void]?] = []
  /// Flushes asked for while not connected: answered by a PING after the next handshake.
  var deferredFlushes: [(Result<Void, NATSError>) -> Void] = []
  var reconnectBuffer: ReconnectBuffer

  // MARK: Subscriptions

  final class Subscription {
    let subject: String
    let queue: String?
    let handler: (NATSMessage) -> Void
    let onEnd: ((NATSError?) -> Void)?
    /// Ends after this many messages in all (`UNSUB sid max`).
    var maxMessages: Int?
    var delivered = 0

    init(
      subject: String, queue: String?, handler: @escaping (NATSMessage) -> Void,
      onEnd: ((NATSError?) -> Void)?
    ) {
      self.subject = subject
      self.queue = queue
      self.handler = handler
      self.onEnd = onEnd
    }
  }

  var subscriptions: [UInt64: Subscription] = [:]
  var nextSubscriptionID: UInt64 = 1

  // MARK: Requests (see NATSConnection+Requests.swift)

  var requests: RequestState

  // MARK: Observers

  var observers: [(id: UInt64, handler: (NATSConnectionEvent) -> Void)] = []
  var nextObserverID: UInt64 = 1

  /// Creates a connection; ``start()`` connects it. May be called on any thread.
  ///
  /// - Parameters:
  ///   - configuration: The servers and the connection's settings.
  ///   - loop: The loop that will drive it.
  public init(configuration: NATSConfiguration, loop: EventLoop) {
    self.loop = loop
    self.configuration = configuration
    self.pool = NATSServerPool(urls: configuration.servers, randomize: configuration.randomizesServers)
    self.reconnectBuffer = ReconnectBuffer(limit: configuration.reconnectBufferBytes)
    self.requests = RequestState(prefix: configuration.inboxPrefix)
    self.parser = NATSProtocolParser(limits: self.baseLimits)
  }

  /// Starts connecting (``NATSConnectionEvent/connected(_:_:)`` tells when it is done).
  /// Publishes and subscriptions made before then are kept for the connection.
  public func start() {
    self.loop.checkIsolated()
    guard self.status == .idle else { return }
    guard !self.pool.entries.isEmpty else {
      self.finishClose(NATSError(.noServersAvailable, "no NATS server is configured"))
      return
    }
    self.status = .connecting
    self.connectNext()
  }

  // MARK: - Events

  /// Calls `handler` with every later event, on the loop thread.
  ///
  /// - Returns: An id for ``removeObserver(_:)``.
  @discardableResult
  public func addObserver(_ handler: @escaping (NATSConnectionEvent) -> Void) -> NATSObserverID {
    let id = self.nextObserverID
    self.nextObserverID += 1
    self.observers.append((id, handler))
    return NATSObserverID(rawValue: id)
  }

  /// Stops calling an observer.
  public func removeObserver(_ id: NATSObserverID) {
    self.observers.removeAll { $0.id == id.rawValue }
  }

  func emit(_ event: NATSConnectionEvent) {
    for observer in self.observers { observer.handler(event) }
  }

  // MARK: - Publishing

  /// Publishes a message.
  ///
  /// - Parameters:
  ///   - subject: The subject (no wildcard).
  ///   - replyTo: A subject the receivers may reply to.
  ///   - headers: Headers to send (`HPUB`); `nil` for none.
  ///   - payload: The payload.
  /// - Throws: ``NATSError``: ``NATSError/Code/invalidSubject``,
  ///   ``NATSError/Code/invalidHeader``, ``NATSError/Code/maxPayloadExceeded(size:limit:)``,
  ///   ``NATSError/Code/reconnectBufferFull(limit:)``,
  ///   ``NATSError/Code/outputBufferFull(limit:)``, ``NATSError/Code/closed``. Nothing is sent
  ///   when it throws.
  public func publish(
    to subject: String, replyTo: String? = nil, headers: NATSHeaders? = nil,
    payload: UnsafeRawBufferPointer
  ) throws(NATSError) {
    try self.write(
      subject: subject, replyTo: replyTo, headers: try Self.encode(headers), payload: payload,
      requestToken: nil)
  }

  /// Publishes a message.
  ///
  /// - Parameters:
  ///   - subject: The subject (no wildcard).
  ///   - replyTo: A subject the receivers may reply to.
  ///   - headers: Headers to send; `nil` for none.
  ///   - payload: The payload.
  /// - Throws: ``NATSError`` as ``publish(to:replyTo:headers:payload:)-(_,_,_,UnsafeRawBufferPointer)`` does.
  public func publish(
    to subject: String, replyTo: String? = nil, headers: NATSHeaders? = nil, payload: [UInt8]
  ) throws(NATSError) {
    let block = try Self.encode(headers)
    let result = payload.withUnsafeBytes { bytes in
      Result { () throws(NATSError) in
        try self.write(subject: subject, replyTo: replyTo, headers: block, payload: bytes, requestToken: nil)
      }
    }
    try result.get()
  }

  /// The header block of `headers`, checked.
  static func encode(_ headers: NATSHeaders?) throws(NATSError) -> [UInt8]? {
    guard let headers else { return nil }
    if let problem = headers.encodingProblem { throw NATSError(.invalidHeader, "cannot send headers: \(problem)") }
    var block: [UInt8] = []
    block.reserveCapacity(headers.encodedCount)
    headers.encode(into: &block)
    return block
  }

  /// Writes one `PUB`/`HPUB`, or keeps it for the next connection.
  func write(
    subject: String, replyTo: String?, headers: [UInt8]?, payload: UnsafeRawBufferPointer,
    requestToken: UInt64?
  ) throws(NATSError) {
    // An assertion, not a precondition: this is every publish's path (the public entry points
    // that create state check with a precondition).
    assert(self.loop.inEventLoop, "NATSConnection used off its event loop's thread")
    if let problem = NATSSubject.publishProblem(subject) {
      throw NATSError(.invalidSubject, "cannot publish: \(problem)")
    }
    if let replyTo, let problem = NATSSubject.publishProblem(replyTo) {
      throw NATSError(.invalidSubject, "cannot publish with this reply subject: \(problem)")
    }
    let size = (headers?.count ?? 0) + payload.count
    if let info = self.serverInfo, size > info.maxPayload {
      throw NATSError(
        .maxPayloadExceeded(size: size, limit: info.maxPayload),
        "the message to \(subject) is \(size) bytes (headers and payload); the NATS server accepts at most \(info.maxPayload) (its max_payload): nothing was sent — split the message or raise max_payload in the server's configuration"
      )
    }
    let encode = { (buffer: inout [UInt8]) in
      NATSProtocolEncoder.appendPublish(
        subject: subject, replyTo: replyTo, headers: headers, payload: payload, into: &buffer)
    }
    switch self.status {
    case .closed:
      throw NATSError(.closed, "cannot publish to \(subject): the NATS connection is closed")
    case .connected where self.phase == .connected:
      let socket = self.socket!
      guard socket.outboundBytes <= self.configuration.maxOutboundBytes else {
        throw NATSError(
          .outputBufferFull(limit: self.configuration.maxOutboundBytes),
          "cannot publish to \(subject): \(socket.outboundBytes) bytes already wait for the NATS server, which is not reading (the limit is \(self.configuration.maxOutboundBytes))"
        )
      }
      socket.withOutboundBuffer(encode)
    default:
      guard
        self.reconnectBuffer.append(messageSize: size, requestToken: requestToken, encode: encode)
      else {
        throw NATSError(
          .reconnectBufferFull(limit: self.reconnectBuffer.limit),
          "cannot publish to \(subject): the NATS connection is down and \(self.reconnectBuffer.limit) bytes of publishes are already kept for it (reconnectBufferBytes)"
        )
      }
    }
    self.statistics.messagesSent += 1
    self.statistics.bytesSent += UInt64(size)
  }

  // MARK: - Subscribing

  /// Subscribes to `subject`; `handler` is called on the loop thread with each message.
  ///
  /// - Parameters:
  ///   - subject: The subject, wildcards allowed (`orders.*`, `orders.>`).
  ///   - queue: A queue group: each message goes to one member of the group.
  ///   - onEnd: Called once when the subscription ends other than by ``unsubscribe(_:afterMessages:)``
  ///     without a count: its message count is reached (`nil`), or the connection closes.
  ///   - handler: Called with each message.
  /// - Returns: The subscription's id.
  /// - Throws: ``NATSError/Code/invalidSubject``, ``NATSError/Code/closed``.
  @discardableResult
  public func subscribe(
    to subject: String, queue: String? = nil, onEnd: ((NATSError?) -> Void)? = nil,
    handler: @escaping (NATSMessage) -> Void
  ) throws(NATSError) -> NATSSubscriptionID {
    self.loop.checkIsolated()
    if let problem = NATSSubject.subscribeProblem(subject) {
      throw NATSError(.invalidSubject, "cannot subscribe: \(problem)")
    }
    if let queue, let problem = NATSSubject.queueGroupProblem(queue) {
      throw NATSError(.invalidSubject, "cannot subscribe: \(problem)")
    }
    guard self.status != .closed else {
      throw NATSError(.closed, "cannot subscribe to \(subject): the NATS connection is closed")
    }
    let id = self.nextSubscriptionID
    self.nextSubscriptionID += 1
    self.subscriptions[id] = Subscription(subject: subject, queue: queue, handler: handler, onEnd: onEnd)
    if self.phase == .connected {
      self.socket?.withOutboundBuffer {
        NATSProtocolEncoder.appendSubscribe(subject: subject, queue: queue, id: id, into: &$0)
      }
    }
    return NATSSubscriptionID(rawValue: id)
  }

  /// Ends a subscription: now, or once it has received `afterMessages` messages in all.
  ///
  /// Messages already on their way when it ends are not delivered. Unknown ids are ignored.
  public func unsubscribe(_ id: NATSSubscriptionID, afterMessages: Int? = nil) {
    self.loop.checkIsolated()
    guard let subscription = self.subscriptions[id.rawValue] else { return }
    if let afterMessages, afterMessages > subscription.delivered {
      subscription.maxMessages = afterMessages
      if self.phase == .connected {
        self.socket?.withOutboundBuffer {
          NATSProtocolEncoder.appendUnsubscribe(id: id.rawValue, max: afterMessages, into: &$0)
        }
      }
      return
    }
    self.subscriptions[id.rawValue] = nil
    if self.phase == .connected {
      self.socket?.withOutboundBuffer {
        NATSProtocolEncoder.appendUnsubscribe(id: id.rawValue, max: nil, into: &$0)
      }
    }
    if afterMessages != nil { subscription.onEnd?(nil) }
  }

  /// Whether a subscription is active.
  public func isSubscribed(_ id: NATSSubscriptionID) -> Bool {
    self.subscriptions[id.rawValue] != nil
  }

  // MARK: - Flushing

  /// Calls `completion` once the server has processed everything sent before (a `PING`
  /// answered by its `PONG`). While reconnecting, the `PING` waits for the next connection.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait (``NATSConfiguration/requestTimeout`` unless given).
  ///   - completion: Called once, on the loop thread: success, or ``NATSError/Code/timedOut``,
  ///     ``NATSError/Code/connectionLost``, ``NATSError/Code/closed``.
  public func flush(
    timeout: Duration? = nil, completion: @escaping (Result<Void, NATSError>) -> Void
  ) {
    self.loop.checkIsolated()
    guard self.status != .closed else {
      completion(.failure(NATSError(.closed, "cannot flush: the NATS connection is closed")))
      return
    }
    // One completion however it ends: by PONG, timeout, loss or close.
    var done = false
    var timer: UInt64?
    let finish: (Result<Void, NATSError>) -> Void = { [loop] result in
      guard !done else { return }
      done = true
      if let timer { loop.cancelTimer(timer) }
      completion(result)
    }
    timer = self.loop.scheduleTimer(after: timeout ?? self.configuration.requestTimeout) {
      timer = nil
      finish(.failure(NATSError(.timedOut, "the NATS server did not answer a PING in time")))
    }
    if self.phase == .connected {
      self.socket?.write(NATSProtocolEncoder.ping)
      self.pongWaiters.append([finish])
    } else {
      self.deferredFlushes.append(finish)
    }
  }

  // MARK: - Closing

  /// Closes the connection: what is queued is sent as far as the socket accepts it, pending
  /// requests and flushes fail with ``NATSError/Code/closed``, subscriptions end, and
  /// observers get ``NATSConnectionEvent/closed(_:)`` with `nil`. Final.
  public func close() {
    self.loop.checkIsolated()
    self.finishClose(nil)
  }
}

@available(*, unavailable, message: "a NATSConnection is confined to its event loop's thread")
extension NATSConnection: Sendable {}
