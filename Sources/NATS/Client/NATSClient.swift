import Wire

/// A NATS connection for async code: an actor whose executor is the connection's event loop,
/// so that each call runs on the loop thread, where the ``NATSConnection`` it owns lives.
///
/// ```swift
/// let client = try await NATSClient.connect(to: "nats://127.0.0.1:4222")
/// let greetings = try await client.subscribe(to: "greetings.*")
/// try await client.publish(Array("hello".utf8), to: "greetings.world")
/// for try await message in greetings {
///   print(message.subject, message.text)
///   break
/// }
/// let reply = try await client.request(Array("now".utf8), to: "time")
/// let ack = try await client.jetStream.publish(record, to: "journal.counter")
/// await client.close()
/// ```
///
/// Code already on the loop (a host's pipeline) uses the connection directly — through
/// ``withConnection(_:)`` or by making its own ``NATSConnection`` — with no hop at all; code
/// elsewhere pays one hop per call, onto the loop and back.
public actor NATSClient {
  /// The loop that drives the connection and runs this actor.
  public nonisolated let loop: EventLoop
  /// The configuration.
  public nonisolated let configuration: NATSConfiguration
  /// The connection (isolated to this actor, hence to the loop thread).
  let connection: NATSConnection
  /// The JetStream context of ``jetStream``, made on first use.
  var jetStreamStorage: JetStream?
  private let eventStream: AsyncStream<NATSConnectionEvent>
  private let eventContinuation: AsyncStream<NATSConnectionEvent>.Continuation

  /// Runs the actor's jobs on the loop thread.
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    self.loop.asUnownedSerialExecutor()
  }

  /// Creates a client without connecting it; ``start()`` connects.
  ///
  /// - Parameters:
  ///   - configuration: The servers and the connection's settings.
  ///   - loop: The loop to drive the connection (``EventLoop/shared`` unless given).
  public init(configuration: NATSConfiguration, loop: EventLoop = .shared) {
    self.loop = loop
    self.configuration = configuration
    self.connection = NATSConnection(configuration: configuration, loop: loop)
    (self.eventStream, self.eventContinuation) = AsyncStream.makeStream(
      of: NATSConnectionEvent.self, bufferingPolicy: .bufferingNewest(1024))
  }

  /// Connects to the first server that answers.
  ///
  /// - Parameters:
  ///   - configuration: The servers and the connection's settings.
  ///   - loop: The loop to drive the connection.
  /// - Returns: A connected client.
  /// - Throws: ``NATSError`` with ``NATSError/Code/noServersAvailable`` when no server
  ///   answered (each tried once, unless ``NATSConfiguration/retriesInitialConnect``).
  public static func connect(
    _ configuration: NATSConfiguration, loop: EventLoop = .shared
  ) async throws(NATSError) -> NATSClient {
    let client = NATSClient(configuration: configuration, loop: loop)
    try await client.start()
    return client
  }

  /// Connects to the first of a comma-separated list of servers that answers.
  ///
  /// - Parameter urls: `nats://host:port[,nats://host:port…]`.
  /// - Returns: A connected client.
  /// - Throws: ``NATSError``.
  public static func connect(to urls: String) async throws(NATSError) -> NATSClient {
    try await Self.connect(try NATSConfiguration(urls: urls))
  }

  /// Connects, returning once the first connection is established.
  ///
  /// - Throws: ``NATSError`` when it cannot be (the connection is then closed).
  public func start() async throws(NATSError) {
    switch self.connection.status {
    case .idle: break
    case .closed: throw NATSError(.closed, "the NATS connection was closed; make a new client")
    default: return  // already started
    }
    let continuation = self.eventContinuation
    let connection = self.connection
    let result: Result<Void, NATSError> = await withCheckedContinuation { waiter in
      var waiting = true
      connection.addObserver { event in
        continuation.yield(event)
        guard waiting else { return }
        switch event {
        case .connected:
          waiting = false
          waiter.resume(returning: .success(()))
        case .closed(let error):
          waiting = false
          waiter.resume(
            returning: .failure(error ?? NATSError(.closed, "the NATS connection was closed")))
        default: break
        }
        if case .closed = event { continuation.finish() }
      }
      connection.start()
    }
    try result.get()
  }

  /// The connection's events (connections, disconnections, errors), from ``start()`` on. One
  /// consumer; the 1,024 most recent are kept when it falls behind.
  public nonisolated var events: AsyncStream<NATSConnectionEvent> { self.eventStream }

  /// Where the connection stands.
  public var status: NATSConnectionStatus { self.connection.status }
  /// The `INFO` of the server connected to (or last connected to).
  public var serverInfo: NATSServerInfo? { self.connection.serverInfo }
  /// The server connected to, or `nil`.
  public var connectedServer: NATSServerURL? { self.connection.connectedServer }
  /// Counters since creation.
  public var statistics: NATSStatistics { self.connection.statistics }

  /// Runs `body` with the loop-confined connection, on the loop thread, for code that needs
  /// its callback API (completions and handlers run on the loop thread too).
  public func withConnection<T: Sendable, E: Error>(
    _ body: (NATSConnection) throws(E) -> T
  ) throws(E) -> T {
    try body(self.connection)
  }

  // MARK: - Core

  /// Publishes a message (see ``NATSConnection/publish(to:replyTo:headers:payload:)-(_,_,_,[UInt8])``).
  ///
  /// - Parameters:
  ///   - payload: The payload.
  ///   - subject: The subject (no wildcard).
  ///   - replyTo: A subject the receivers may reply to.
  ///   - headers: Headers to send.
  /// - Throws: ``NATSError`` when nothing was sent.
  public func publish(
    _ payload: [UInt8], to subject: String, replyTo: String? = nil, headers: NATSHeaders? = nil
  ) throws(NATSError) {
    try self.connection.publish(to: subject, replyTo: replyTo, headers: headers, payload: payload)
  }

  /// Sends a request and waits for its reply.
  ///
  /// - Parameters:
  ///   - payload: The payload.
  ///   - subject: The subject (no wildcard).
  ///   - headers: Headers to send.
  ///   - timeout: How long to wait (``NATSConfiguration/requestTimeout`` unless given).
  /// - Returns: The reply.
  /// - Throws: ``NATSError``: ``NATSError/Code/noResponders``, ``NATSError/Code/timedOut``,
  ///   ``NATSError/Code/connectionLost``, or what publishing throws.
  public func request(
    _ payload: [UInt8], to subject: String, headers: NATSHeaders? = nil, timeout: Duration? = nil
  ) async throws(NATSError) -> NATSMessage {
    let connection = self.connection
    let result: Result<NATSMessage, NATSError> = await withCheckedContinuation { waiter in
      do throws(NATSError) {
        try connection.request(to: subject, headers: headers, payload: payload, timeout: timeout) {
          waiter.resume(returning: $0)
        }
      } catch {
        waiter.resume(returning: .failure(error))
      }
    }
    return try result.get()
  }

  /// Waits until the server has processed everything sent before.
  ///
  /// - Parameter timeout: How long to wait.
  /// - Throws: ``NATSError``.
  public func flush(timeout: Duration? = nil) async throws(NATSError) {
    let connection = self.connection
    let result: Result<Void, NATSError> = await withCheckedContinuation { waiter in
      connection.flush(timeout: timeout) { waiter.resume(returning: $0) }
    }
    try result.get()
  }

  /// Subscribes to `subject`.
  ///
  /// - Parameters:
  ///   - subject: The subject, wildcards allowed.
  ///   - queue: A queue group.
  ///   - bufferLimit: How many messages may wait for the consumer of the sequence; past it the
  ///     subscription ends with ``NATSError/Code/slowConsumer(limit:)`` (never a silent drop).
  /// - Returns: The messages, until the subscription ends.
  /// - Throws: ``NATSError/Code/invalidSubject``, ``NATSError/Code/closed``.
  public func subscribe(
    to subject: String, queue: String? = nil, bufferLimit: Int = 65_536
  ) throws(NATSError) -> NATSSubscription {
    let (stream, continuation) = AsyncThrowingStream.makeStream(
      of: NATSMessage.self, throwing: (any Error).self, bufferingPolicy: .bufferingOldest(bufferLimit))
    let connection = self.connection
    var id: NATSSubscriptionID?
    id = try connection.subscribe(
      to: subject, queue: queue,
      onEnd: { error in continuation.finish(throwing: error) }
    ) { message in
      if case .dropped = continuation.yield(message) {
        let error = NATSError(
          .slowConsumer(limit: bufferLimit),
          "the subscriber of \(subject) fell \(bufferLimit) messages behind; the subscription ended (raise bufferLimit, or consume faster)"
        )
        continuation.finish(throwing: error)
        if let id { connection.unsubscribe(id) }
        connection.emit(.asyncError(error))
      }
    }
    let subscriptionID = id!
    continuation.onTermination = { [weak self] _ in
      guard let self else { return }
      // The consumer stopped iterating (or the subscription ended): unsubscribe on the loop.
      self.loop.execute { self.assumeIsolated { $0.connection.unsubscribe(subscriptionID) } }
    }
    return NATSSubscription(id: subscriptionID, messages: stream, client: self)
  }

  /// Ends a subscription now, or after `afterMessages` messages in all.
  public func unsubscribe(_ subscription: NATSSubscription, afterMessages: Int? = nil) {
    self.connection.unsubscribe(subscription.id, afterMessages: afterMessages)
  }

  /// Closes the connection (see ``NATSConnection/close()``).
  public func close() {
    self.connection.close()
  }

  // MARK: - JetStream

  /// The JetStream API through this client.
  public nonisolated var jetStream: JetStreamClient { JetStreamClient(client: self) }
}

/// The messages of a ``NATSClient`` subscription, in order; the sequence ends when the
/// subscription does (its message count reached, the connection closed) and throws
/// ``NATSError/Code/slowConsumer(limit:)`` if its consumer fell too far behind. Stopping the
/// iteration unsubscribes.
public struct NATSSubscription: AsyncSequence, Sendable {
  /// The subscription's id on the connection.
  public let id: NATSSubscriptionID
  /// The messages; the failure is always a ``NATSError`` (the stream type cannot say so).
  let messages: AsyncThrowingStream<NATSMessage, any Error>
  let client: NATSClient

  /// Iterates over the messages.
  public func makeAsyncIterator() -> AsyncThrowingStream<NATSMessage, any Error>.Iterator {
    self.messages.makeAsyncIterator()
  }

  /// Ends the subscription (see ``NATSClient/unsubscribe(_:afterMessages:)``).
  public func unsubscribe(afterMessages: Int? = nil) async {
    await self.client.unsubscribe(self, afterMessages: afterMessages)
  }
}
