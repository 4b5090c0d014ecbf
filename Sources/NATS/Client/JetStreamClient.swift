import Wire

/// The JetStream API for async code, through a ``NATSClient`` (each call runs on its loop; see
/// ``JetStream`` for the loop-confined API the calls go to).
///
/// ```swift
/// let jetStream = client.jetStream
/// var journal = JetStreamStreamConfiguration(name: "COUNTER", subjects: ["counter.>"])
/// journal.replicas = 3
/// _ = try await jetStream.createStream(journal)
/// let ack = try await jetStream.publish(Array("record".utf8), to: "counter.records")
/// for try await message in try await jetStream.orderedMessages(stream: "COUNTER") { … }
/// ```
public struct JetStreamClient: Sendable {
  /// The client the calls go through.
  public let client: NATSClient

  /// Runs a JetStream call with a completion on the client's loop, and waits for it.
  private func perform<T: Sendable>(
    _ body: @escaping @Sendable (JetStream, @escaping (Result<T, NATSError>) -> Void) -> Void
  ) async throws(NATSError) -> T {
    try await self.client.performJetStream(body).get()
  }

  /// Creates a stream (see ``JetStream/createStream(_:completion:)``).
  public func createStream(_ configuration: JetStreamStreamConfiguration) async throws(NATSError)
    -> JetStreamStreamInfo
  {
    try await self.perform { $0.createStream(configuration, completion: $1) }
  }

  /// Changes a stream's configuration (see ``JetStream/updateStream(_:completion:)``).
  public func updateStream(_ configuration: JetStreamStreamConfiguration) async throws(NATSError)
    -> JetStreamStreamInfo
  {
    try await self.perform { $0.updateStream(configuration, completion: $1) }
  }

  /// A stream's configuration and state.
  public func streamInfo(_ name: String) async throws(NATSError) -> JetStreamStreamInfo {
    try await self.perform { $0.streamInfo(name, completion: $1) }
  }

  /// Deletes a stream.
  public func deleteStream(_ name: String) async throws(NATSError) {
    try await self.perform { $0.deleteStream(name, completion: $1) }
  }

  /// Removes messages from a stream (see ``JetStream/purgeStream(_:subject:below:keep:completion:)``).
  public func purgeStream(
    _ name: String, subject: String? = nil, below sequence: UInt64? = nil, keep: UInt64? = nil
  ) async throws(NATSError) -> UInt64 {
    try await self.perform { $0.purgeStream(name, subject: subject, below: sequence, keep: keep, completion: $1) }
  }

  /// Calls an API endpoint (see ``JetStream/call(_:request:timeout:completion:)``).
  public func call(_ endpoint: String, request: JSON?) async throws(NATSError) -> JSONObject {
    try await self.perform { $0.call(endpoint, request: request, completion: $1) }
  }

  /// Publishes to a stream and waits for its ack (see
  /// ``JetStream/publish(_:to:options:timeout:completion:)-(UnsafeRawBufferPointer,_,_,_,_)``).
  public func publish(
    _ payload: [UInt8], to subject: String,
    options: JetStreamPublishOptions = JetStreamPublishOptions(), timeout: Duration? = nil
  ) async throws(NATSError) -> JetStreamPublishAck {
    try await self.perform { jetStream, completion in
      do throws(NATSError) {
        try jetStream.publish(payload, to: subject, options: options, timeout: timeout, completion: completion)
      } catch {
        completion(.failure(error))
      }
    }
  }

  /// Gets one stored message (see ``JetStream/getMessage(stream:_:direct:completion:)``).
  public func getMessage(
    stream: String, _ query: JetStreamMessageQuery, direct: Bool = false
  ) async throws(NATSError) -> JetStreamStoredMessage {
    try await self.perform { $0.getMessage(stream: stream, query, direct: direct, completion: $1) }
  }

  /// Creates a consumer (see ``JetStream/createConsumer(stream:_:completion:)``).
  public func createConsumer(
    stream: String, _ configuration: JetStreamConsumerConfiguration
  ) async throws(NATSError) -> JetStreamConsumerInfo {
    try await self.perform { $0.createConsumer(stream: stream, configuration, completion: $1) }
  }

  /// A consumer's state (see ``JetStream/consumerInfo(stream:name:completion:)``).
  public func consumerInfo(stream: String, name: String) async throws(NATSError) -> JetStreamConsumerInfo {
    try await self.perform { $0.consumerInfo(stream: stream, name: name, completion: $1) }
  }

  /// Reads a stream in order through an ordered consumer (``JetStreamOrderedConsumer``) that
  /// recreates itself as needed; the sequence never skips nor repeats a message.
  ///
  /// Flow control is end to end: the server's flow-control requests are answered when the
  /// iteration reaches them, so that a slow reader slows the server down instead of filling
  /// memory. Stopping the iteration deletes the consumer.
  ///
  /// - Parameters:
  ///   - stream: The stream.
  ///   - filterSubject: Only messages on this subject.
  ///   - deliverPolicy: Where to start.
  ///   - heartbeat: The consumer's idle heartbeat.
  ///   - onEvent: Called with the consumer's events (recreations), on the loop thread.
  /// - Returns: The messages.
  public func orderedMessages(
    stream: String, filterSubject: String? = nil,
    deliverPolicy: JetStreamConsumerConfiguration.DeliverPolicy = .all,
    heartbeat: Duration = .seconds(5),
    onEvent: (@Sendable (JetStreamOrderedConsumer.Event) -> Void)? = nil
  ) async -> JetStreamOrderedMessages {
    await self.client.makeOrderedMessages(
      stream: stream, filterSubject: filterSubject, deliverPolicy: deliverPolicy,
      heartbeat: heartbeat, onEvent: onEvent)
  }
}

/// The messages of a stream in order (see ``JetStreamClient/orderedMessages(stream:filterSubject:deliverPolicy:heartbeat:onEvent:)``).
public struct JetStreamOrderedMessages: AsyncSequence, Sendable {
  enum Element_: Sendable {
    case message(JetStreamMessage)
    case flowControl(String)
  }

  let elements: AsyncStream<Element_>
  let client: NATSClient

  /// Iterates over the messages, answering flow control as it goes.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncStream<Element_>.Iterator
    let client: NATSClient

    /// The next message, or `nil` when the consumer stopped (the connection closed).
    public mutating func next() async -> JetStreamMessage? {
      while let element = await self.base.next() {
        switch element {
        case .message(let message): return message
        case .flowControl(let subject):
          // Everything received before the request has been consumed: let the server go on.
          try? await self.client.publish([], to: subject)
        }
      }
      return nil
    }
  }

  /// Iterates over the messages.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: self.elements.makeAsyncIterator(), client: self.client)
  }
}

extension NATSClient {
  /// The client's JetStream context (made on first use).
  private var jetStreamContext: JetStream {
    if let context = self.jetStreamStorage { return context }
    let context = JetStream(connection: self.connection)
    self.jetStreamStorage = context
    return context
  }

  func performJetStream<T: Sendable>(
    _ body: @Sendable (JetStream, @escaping (Result<T, NATSError>) -> Void) -> Void
  ) async -> Result<T, NATSError> {
    let context = self.jetStreamContext
    return await withCheckedContinuation { waiter in
      body(context) { waiter.resume(returning: $0) }
    }
  }

  func makeOrderedMessages(
    stream: String, filterSubject: String?,
    deliverPolicy: JetStreamConsumerConfiguration.DeliverPolicy, heartbeat: Duration,
    onEvent: (@Sendable (JetStreamOrderedConsumer.Event) -> Void)?
  ) -> JetStreamOrderedMessages {
    // Unbounded here, bounded in effect: the server sends at most its flow-control window
    // (32 MiB for a push consumer) before a request the iterator must answer.
    let (elements, continuation) = AsyncStream.makeStream(of: JetStreamOrderedMessages.Element_.self)
    let consumer = JetStreamOrderedConsumer(
      jetStream: self.jetStreamContext, stream: stream, filterSubject: filterSubject,
      deliverPolicy: deliverPolicy, heartbeat: heartbeat
    ) { message in
      continuation.yield(.message(message))
    }
    consumer.onFlowControl = { continuation.yield(.flowControl($0)) }
    consumer.onEvent = onEvent
    let observer = self.connection.addObserver { event in
      if case .closed = event { continuation.finish() }
    }
    let confined = LoopConfined((consumer, observer), loop: self.loop)
    continuation.onTermination = { [loop] _ in
      loop.execute {
        let (consumer, observer) = confined.value
        consumer.stop()
        consumer.jetStream.connection.removeObserver(observer)
      }
    }
    consumer.start()
    return JetStreamOrderedMessages(elements: elements, client: self)
  }
}
