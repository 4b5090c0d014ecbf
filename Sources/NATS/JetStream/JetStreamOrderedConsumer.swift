/// Reads a stream in order, each message exactly once, through whatever happens to the
/// consumer on the server — the way a standby follows a journal.
///
/// It is an ephemeral push consumer (no acks, one replica in memory: cheap for the cluster)
/// with flow control and idle heartbeats, which it recreates by itself from the next stream
/// sequence whenever it sees a reason to doubt it:
///
/// - a gap: a delivery whose consumer sequence is not the next one (a message lost on the way);
/// - a heartbeat whose `Nats-Last-Consumer` is not the last delivery received;
/// - silence: no message or heartbeat for three heartbeat intervals (the server holding the
///   consumer died, or the connection is stuck);
/// - a reconnection (the consumer may have lived on the server that is gone).
///
/// Each recreation uses a new delivery subject, so nothing from the old consumer can slip in.
/// The handler therefore sees stream sequences strictly increasing, with no message skipped
/// (within the filter) and none repeated.
///
/// Loop-confined, like its ``JetStream``; the handler is called on the loop thread.
///
/// ```swift
/// let follower = JetStreamOrderedConsumer(
///   jetStream: jetStream, stream: "COUNTER", deliverPolicy: .startSequence(applied + 1)
/// ) { message in
///   apply(message.payload); applied = message.streamSequence
/// }
/// follower.onEvent = { event in log(event) }
/// follower.start()
/// ```
public final class JetStreamOrderedConsumer {
  /// Something the consumer did, for logs.
  public enum Event: Sendable {
    /// The consumer is (re)created on the server and delivering.
    case created(name: String, fromSequence: UInt64?)
    /// The consumer is being recreated, for this reason.
    case resetting(reason: String)
    /// Creating the consumer failed; it is retried.
    case createFailed(NATSError)
  }

  /// The JetStream context it uses.
  public let jetStream: JetStream
  /// The stream read.
  public let stream: String
  /// Only messages on this subject (wildcards allowed), or all.
  public let filterSubject: String?
  /// How often the server sends a heartbeat when there is nothing to deliver.
  public let heartbeat: Duration
  /// Where reading starts the first time (later recreations start after the last delivery).
  public let deliverPolicy: JetStreamConsumerConfiguration.DeliverPolicy

  /// The stream sequence of the last message handed to the handler (0 before any).
  public private(set) var lastStreamSequence: UInt64 = 0
  /// How many times the consumer was recreated.
  public private(set) var resets = 0
  /// The server's name of the current consumer, once created.
  public private(set) var consumerName: String?
  /// Called with each event, on the loop thread.
  public var onEvent: ((Event) -> Void)?
  /// When set, flow-control requests are handed to it instead of being answered at once: the
  /// owner answers (publishes an empty message to the subject) once it has consumed the
  /// messages received before — the way to bound a buffer between the handler and a slower
  /// reader. The server stops sending while a request is unanswered.
  public var onFlowControl: ((String) -> Void)?

  private let handler: (JetStreamMessage) -> Void
  private var isRunning = false
  /// Bumped on every recreation: deliveries and answers for an older consumer are ignored.
  private var generation: UInt64 = 0
  private var subscription: NATSSubscriptionID?
  private var expectedConsumerSequence: UInt64 = 1
  private var creating = false
  private var lastActivity = ContinuousClock.now
  private var watchdog: UInt64?
  private var retryTimer: UInt64?
  private var retryDelay = Duration.milliseconds(250)
  private var observer: NATSObserverID?

  private var connection: NATSConnection { self.jetStream.connection }

  /// Creates an ordered consumer; ``start()`` starts it.
  ///
  /// - Parameters:
  ///   - jetStream: The JetStream context.
  ///   - stream: The stream to read.
  ///   - filterSubject: Only messages on this subject.
  ///   - deliverPolicy: Where to start (``JetStreamConsumerConfiguration/DeliverPolicy/all``
  ///     unless given).
  ///   - heartbeat: The idle heartbeat (5 s unless given): silence for three of them recreates
  ///     the consumer.
  ///   - handler: Called with each message, in stream order.
  public init(
    jetStream: JetStream, stream: String, filterSubject: String? = nil,
    deliverPolicy: JetStreamConsumerConfiguration.DeliverPolicy = .all,
    heartbeat: Duration = .seconds(5), handler: @escaping (JetStreamMessage) -> Void
  ) {
    self.jetStream = jetStream
    self.stream = stream
    self.filterSubject = filterSubject
    self.deliverPolicy = deliverPolicy
    self.heartbeat = heartbeat
    self.handler = handler
  }

  /// Creates the consumer on the server and starts delivering.
  public func start() {
    self.connection.loop.checkIsolated()
    guard !self.isRunning else { return }
    self.isRunning = true
    self.observer = self.connection.addObserver { [weak self] event in
      guard let self, self.isRunning else { return }
      switch event {
      case .reconnected(let url, _): self.reset("the connection moved to \(url)")
      case .closed: self.stop()
      default: break
      }
    }
    self.recreate()
  }

  /// Stops delivering and deletes the consumer on the server (best effort).
  public func stop() {
    guard self.isRunning else { return }
    self.isRunning = false
    self.generation += 1
    self.tearDown()
    for timer in [self.watchdog, self.retryTimer].compactMap({ $0 }) {
      self.connection.loop.cancelTimer(timer)
    }
    self.watchdog = nil
    self.retryTimer = nil
    if let observer { self.connection.removeObserver(observer) }
    self.observer = nil
  }

  // MARK: - Recreating

  private func reset(_ reason: String) {
    guard self.isRunning else { return }
    self.resets += 1
    self.onEvent?(.resetting(reason: reason))
    self.recreate()
  }

  private func tearDown() {
    if let subscription { self.connection.unsubscribe(subscription) }
    self.subscription = nil
    if let name = self.consumerName, self.connection.status != .closed {
      self.jetStream.deleteConsumer(stream: self.stream, name: name) { _ in }
    }
    self.consumerName = nil
  }

  private func recreate() {
    self.generation += 1
    let generation = self.generation
    self.tearDown()
    if let timer = self.retryTimer {
      self.connection.loop.cancelTimer(timer)
      self.retryTimer = nil
    }
    let deliverSubject = InboxName.make(prefix: self.connection.configuration.inboxPrefix)
    do {
      self.subscription = try self.connection.subscribe(to: deliverSubject) { [weak self] message in
        self?.receive(message, generation: generation)
      }
    } catch {
      self.onEvent?(.createFailed(error))
      return self.stop()
    }
    self.expectedConsumerSequence = 1
    var configuration = JetStreamConsumerConfiguration()
    configuration.deliverSubject = deliverSubject
    configuration.deliverPolicy =
      self.lastStreamSequence > 0 ? .startSequence(self.lastStreamSequence + 1) : self.deliverPolicy
    configuration.ackPolicy = .none
    configuration.maxDeliver = 1
    configuration.filterSubject = self.filterSubject
    configuration.flowControl = true
    configuration.idleHeartbeat = self.heartbeat
    configuration.memoryStorage = true
    configuration.replicas = 1
    configuration.inactiveThreshold = max(self.heartbeat * 6, .seconds(30))
    self.creating = true
    self.jetStream.createConsumer(stream: self.stream, configuration) { [weak self] result in
      guard let self, self.isRunning, self.generation == generation else {
        // An answer for a consumer no longer wanted: delete it if it was made.
        if case .success(let info) = result, let self, self.connection.status != .closed {
          self.jetStream.deleteConsumer(stream: info.stream, name: info.name) { _ in }
        }
        return
      }
      self.creating = false
      self.lastActivity = .now
      switch result {
      case .success(let info):
        self.consumerName = info.name
        self.retryDelay = .milliseconds(250)
        var from: UInt64?
        if case .startSequence(let sequence) = configuration.deliverPolicy { from = sequence }
        self.onEvent?(.created(name: info.name, fromSequence: from))
      case .failure(let error):
        self.onEvent?(.createFailed(error))
        let delay = self.retryDelay
        self.retryDelay = min(self.retryDelay * 2, .seconds(2))
        self.retryTimer = self.connection.loop.scheduleTimer(after: delay) { [weak self] in
          guard let self, self.isRunning, self.generation == generation else { return }
          self.retryTimer = nil
          self.recreate()
        }
      }
    }
    self.lastActivity = .now
    self.armWatchdog()
  }

  private func armWatchdog() {
    if let watchdog { self.connection.loop.cancelTimer(watchdog) }
    self.watchdog = self.connection.loop.scheduleTimer(after: self.heartbeat) { [weak self] in
      guard let self, self.isRunning else { return }
      self.watchdog = nil
      let silence = self.lastActivity.duration(to: .now)
      if !self.creating, self.retryTimer == nil, silence > self.heartbeat * 3 {
        self.reset("no message or heartbeat for \(silence)")
      } else {
        self.armWatchdog()
      }
    }
  }

  // MARK: - Receiving

  private func receive(_ message: NATSMessage, generation: UInt64) {
    guard self.isRunning, self.generation == generation else { return }
    self.lastActivity = .now
    if let status = message.status {
      guard status == 100 else {
        return self.reset("the server sent status \(status) \(message.headers?.statusDescription ?? "")")
      }
      let headers = message.headers
      if let reply = message.replyTo, headers?["Nats-Last-Consumer"] == nil {
        return self.answerFlowControl(reply)  // "FlowControl Request"
      }
      // "Idle Heartbeat": the consumer's last delivery must be ours.
      if let last = headers?["Nats-Last-Consumer"].flatMap(UInt64.init),
        last != self.expectedConsumerSequence - 1
      {
        return self.reset(
          "the heartbeat says the consumer delivered \(last) messages, \(self.expectedConsumerSequence - 1) arrived")
      }
      if let stalled = headers?["Nats-Consumer-Stalled"] { self.answerFlowControl(stalled) }
      return
    }
    guard let reply = message.replyTo, let metadata = JetStreamAckMetadata(replySubject: reply) else {
      return self.reset("a delivery without JetStream metadata on \(message.subject)")
    }
    guard metadata.consumerSequence == self.expectedConsumerSequence else {
      return self.reset(
        "a gap: delivery \(metadata.consumerSequence) arrived, \(self.expectedConsumerSequence) was next")
    }
    self.expectedConsumerSequence += 1
    self.lastStreamSequence = metadata.streamSequence
    self.handler(
      JetStreamMessage(
        subject: message.subject, headers: message.headers, payload: message.payload,
        stream: metadata.stream, consumer: metadata.consumer,
        streamSequence: metadata.streamSequence, consumerSequence: metadata.consumerSequence,
        deliveryCount: metadata.deliveryCount, timestamp: metadata.timestamp,
        pending: metadata.pending))
  }

  private func answerFlowControl(_ subject: String) {
    if let onFlowControl {
      onFlowControl(subject)
    } else {
      try? self.connection.publish(to: subject, payload: [])
    }
  }
}

@available(*, unavailable, message: "an ordered consumer is confined to its connection's event loop thread")
extension JetStreamOrderedConsumer: Sendable {}
