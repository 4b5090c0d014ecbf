import Wire

/// The requests of a connection in flight: each waits for one reply on its own subject under
/// one inbox (`_INBOX.<random>.<token>`), all served by a single wildcard subscription, and for
/// its deadline in one queue served by a single loop timer.
struct RequestState {
  struct Pending {
    var completion: (Result<NATSMessage, NATSError>) -> Void
    var deadline: ContinuousClock.Instant
    var subject: String
    /// The socket generation the request was written on; `nil` while it waits in the
    /// reconnect buffer.
    var sentOn: UInt64?
  }

  /// `_INBOX.<random>.`: every reply subject starts with it.
  let replyPrefix: String
  var subscription: NATSSubscriptionID?
  private(set) var pending: [UInt64: Pending] = [:]
  var deadlines = DeadlineQueue()
  var timer: (id: UInt64, deadline: ContinuousClock.Instant)?
  private var nextToken: UInt64 = 1

  init(prefix: String) {
    self.replyPrefix = InboxName.make(prefix: prefix) + "."
  }

  mutating func makeToken() -> UInt64 {
    defer { self.nextToken += 1 }
    return self.nextToken
  }

  mutating func insert(_ token: UInt64, _ request: Pending) {
    self.pending[token] = request
    self.deadlines.insert(request.deadline, token: token)
  }

  mutating func remove(_ token: UInt64) -> Pending? {
    self.pending.removeValue(forKey: token)
  }

  mutating func markSent(_ token: UInt64, generation: UInt64) {
    self.pending[token]?.sentOn = generation
  }

  /// Removes the requests written on a socket that is gone.
  mutating func removeSent(onGeneration generation: UInt64) -> [Pending] {
    let lost = self.pending.filter { $0.value.sentOn == generation }
    for token in lost.keys { self.pending[token] = nil }
    return lost.sorted { $0.key < $1.key }.map(\.value)
  }

  mutating func removeAll() -> [Pending] {
    let all = self.pending.sorted { $0.key < $1.key }.map(\.value)
    self.pending = [:]
    self.deadlines.removeAll()
    return all
  }

  /// The token of a reply subject, if it is one of ours.
  func token(ofReplySubject subject: String) -> UInt64? {
    var utf8 = subject.utf8[...]
    guard utf8.starts(with: self.replyPrefix.utf8) else { return nil }
    utf8 = utf8.dropFirst(self.replyPrefix.utf8.count)
    guard !utf8.isEmpty, utf8.count <= 19 else { return nil }
    var value: UInt64 = 0
    for byte in utf8 {
      guard byte >= 0x30, byte <= 0x39 else { return nil }
      value = value * 10 + UInt64(byte - 0x30)
    }
    return value
  }
}

extension NATSConnection {
  /// Sends a request and calls `completion` with its first reply.
  ///
  /// Many requests may be in flight at once (pipelined); each reply is matched to its request
  /// by its reply subject.
  ///
  /// - Parameters:
  ///   - subject: The subject (no wildcard).
  ///   - headers: Headers to send; `nil` for none.
  ///   - payload: The payload.
  ///   - timeout: How long to wait for the reply (``NATSConfiguration/requestTimeout`` unless
  ///     given), counted from now, including time spent reconnecting.
  ///   - completion: Called once, on the loop thread, with the reply or
  ///     ``NATSError/Code/noResponders``, ``NATSError/Code/timedOut``,
  ///     ``NATSError/Code/connectionLost`` (the request had left: its outcome is unknown),
  ///     ``NATSError/Code/closed``.
  /// - Throws: What ``publish(to:replyTo:headers:payload:)-(_,_,_,UnsafeRawBufferPointer)``
  ///   throws; `completion` is then never called.
  public func request(
    to subject: String, headers: NATSHeaders? = nil, payload: UnsafeRawBufferPointer,
    timeout: Duration? = nil, completion: @escaping (Result<NATSMessage, NATSError>) -> Void
  ) throws(NATSError) {
    try self.request(
      to: subject, headerBlock: try Self.encode(headers), payload: payload, timeout: timeout,
      completion: completion)
  }

  /// Sends a request and calls `completion` with its first reply.
  ///
  /// - Parameters:
  ///   - subject: The subject (no wildcard).
  ///   - headers: Headers to send; `nil` for none.
  ///   - payload: The payload.
  ///   - timeout: How long to wait for the reply.
  ///   - completion: Called once, on the loop thread.
  /// - Throws: ``NATSError`` when nothing could be sent.
  public func request(
    to subject: String, headers: NATSHeaders? = nil, payload: [UInt8],
    timeout: Duration? = nil, completion: @escaping (Result<NATSMessage, NATSError>) -> Void
  ) throws(NATSError) {
    let block = try Self.encode(headers)
    let result = payload.withUnsafeBytes { bytes in
      Result { () throws(NATSError) in
        try self.request(
          to: subject, headerBlock: block, payload: bytes, timeout: timeout, completion: completion)
      }
    }
    try result.get()
  }

  /// The request path with the header block already encoded (JetStream's publish builds it).
  func request(
    to subject: String, headerBlock: [UInt8]?, payload: UnsafeRawBufferPointer,
    timeout: Duration?, completion: @escaping (Result<NATSMessage, NATSError>) -> Void
  ) throws(NATSError) {
    if self.requests.subscription == nil {
      self.requests.subscription = try self.subscribe(to: self.requests.replyPrefix + "*") {
        [unowned self] message in
        self.handleReply(message)
      }
    }
    let token = self.requests.makeToken()
    var replyTo = self.requests.replyPrefix
    replyTo.append(String(token))
    try self.write(
      subject: subject, replyTo: replyTo, headers: headerBlock, payload: payload, requestToken: token)
    let deadline = ContinuousClock.now + (timeout ?? self.configuration.requestTimeout)
    self.requests.insert(
      token,
      RequestState.Pending(
        completion: completion, deadline: deadline, subject: subject,
        sentOn: self.phase == .connected ? self.generation : nil))
    self.armRequestTimer()
  }

  private func handleReply(_ message: NATSMessage) {
    guard let token = self.requests.token(ofReplySubject: message.subject),
      let pending = self.requests.remove(token)
    else { return }  // late: the request timed out already
    if message.status == 503 {
      pending.completion(
        .failure(
          NATSError(.noResponders, "no responders: nothing subscribes to \(pending.subject)")))
    } else {
      pending.completion(.success(message))
    }
  }

  private func armRequestTimer() {
    guard let earliest = self.requests.deadlines.earliest else { return }
    if let timer = self.requests.timer {
      guard earliest < timer.deadline else { return }
      self.loop.cancelTimer(timer.id)
    }
    let id = self.loop.scheduleTimer(after: ContinuousClock.now.duration(to: earliest)) {
      [weak self] in
      guard let self else { return }
      self.requests.timer = nil
      self.expireRequests()
    }
    self.requests.timer = (id, earliest)
  }

  private func expireRequests() {
    let now = ContinuousClock.now
    var expired: [RequestState.Pending] = []
    while let due = self.requests.deadlines.popDue(at: now) {
      // Skip entries of requests already answered (or whose token was reused: never, tokens
      // only grow).
      guard let pending = self.requests.pending[due.token], pending.deadline == due.deadline
      else { continue }
      _ = self.requests.remove(due.token)
      expired.append(pending)
    }
    self.armRequestTimer()
    for pending in expired {
      pending.completion(
        .failure(
          NATSError(
            .timedOut,
            "no reply to the request on \(pending.subject) in time; if it had side effects, they may or may not have happened"
          )))
    }
  }
}
