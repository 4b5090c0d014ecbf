import Dispatch
import Wire

// Connecting, the handshake, keep-alive, losing a server and finding another, closing.
//
//   idle ──connectNext──▶ (resolving) ──▶ awaitingInfo ──INFO──▶ awaitingPong ──PONG──▶ connected
//     ▲                                        │                      │                   │
//     └──────────── dropSocket (closed, garbage, -ERR, timeout, stale) ◀──────────────────┘

extension NATSConnection {
  /// The parser's limits before a server has said its `max_payload`.
  var baseLimits: NATSProtocolLimits {
    NATSProtocolLimits(maxMessageBytes: self.configuration.maxInboundMessageBytes)
  }

  var currentURL: NATSServerURL { self.pool.entries[self.serverIndex].url }

  // MARK: - Choosing a server

  func connectNext() {
    guard self.status != .closed, self.phase == .idle, self.reconnectTimer == nil else { return }
    let now = ContinuousClock.now
    var wait = self.configuration.reconnectWait
    // Up to 10 % of jitter, so that clients that lost the same server do not return together.
    let jitter = Double.random(in: 0..<0.1)
    wait += wait * jitter
    switch self.pool.next(now: now, wait: wait, maxAttempts: self.configuration.maxReconnectAttempts) {
    case .exhausted:
      self.finishClose(
        NATSError(
          .noServersAvailable,
          "no NATS server could be reached (tried \(self.pool.entries.map(\.url.description).joined(separator: ", ")))"
        ))
    case .after(let delay):
      self.reconnectTimer = self.loop.scheduleTimer(after: delay) { [weak self] in
        guard let self else { return }
        self.reconnectTimer = nil
        self.connectNext()
      }
    case .now(let index):
      self.pool.recordAttempt(index, at: now)
      self.serverIndex = index
      self.attempt()
    }
  }

  private func attempt() {
    let url = self.currentURL
    self.generation += 1
    let generation = self.generation
    self.attemptTimer = self.loop.scheduleTimer(after: self.configuration.connectTimeout) {
      [weak self] in
      guard let self, self.generation == generation else { return }
      self.attemptTimer = nil
      self.dropSocket(
        NATSError(
          .timedOut,
          "\(url) did not complete the NATS handshake within \(self.configuration.connectTimeout)"))
    }
    if let addresses = try? TCPAddress.resolve(host: url.host, port: url.port, numericOnly: true) {
      self.open(addresses[0])
      return
    }
    // A host name: the resolver may block, so it runs off the loop.
    self.phase = .resolving
    let confined = LoopConfined(self, loop: self.loop)
    let loop = self.loop
    DispatchQueue.global().async {
      let result = Result { () throws(SocketError) in
        try TCPAddress.resolve(host: url.host, port: url.port)
      }
      loop.execute {
        let connection = confined.value
        guard connection.generation == generation, connection.phase == .resolving else { return }
        switch result {
        case .success(let addresses): connection.open(addresses[0])
        case .failure(let error):
          connection.dropSocket(NATSError(.disconnected, "cannot resolve \(url): \(error)"))
        }
      }
    }
  }

  private func open(_ address: TCPAddress) {
    let socket: UnixConnection
    do {
      socket = try UnixConnection.connect(to: address, loop: self.loop)
    } catch {
      self.phase = .awaitingInfo  // so that dropSocket counts the failed attempt
      self.dropSocket(Self.connectError(error, url: self.currentURL))
      return
    }
    let generation = self.generation
    self.socket = socket
    self.phase = .awaitingInfo
    self.parser = NATSProtocolParser(limits: self.baseLimits)
    // The closures keep the connection alive while the socket is open (until close()).
    socket.onRead = { bytes in self.didRead(bytes, generation: generation) }
    socket.onClose = { error in
      guard self.generation == generation else { return }
      self.socket = nil
      let reason =
        error.map { Self.connectError($0, url: self.currentURL) }
        ?? NATSError(.disconnected, "\(self.currentURL) closed the connection")
      self.dropSocket(reason)
    }
  }

  static func connectError(_ error: SocketError, url: NATSServerURL) -> NATSError {
    let reason: String =
      switch error.code {
      case .connectionRefused: "connection refused (is nats-server running there?)"
      case .disconnected: "the connection was reset"
      default: error.errno.map { "\(error.operation): errno \($0)" } ?? "\(error)"
      }
    return NATSError(.disconnected, "cannot talk to \(url): \(reason)")
  }

  // MARK: - Reading

  private func didRead(_ bytes: UnsafeRawBufferPointer, generation: UInt64) {
    guard self.generation == generation else { return }
    var failure: NATSProtocolError?
    do {
      try self.parser.parse(bytes, into: &self.operations)
    } catch {
      failure = error
    }
    var batch: [NATSServerOperation] = []
    swap(&batch, &self.operations)
    for operation in batch {
      self.handle(operation)
      // A handler may have closed the connection, or the operation ended this socket.
      guard self.generation == generation else { return }
    }
    batch.removeAll(keepingCapacity: true)
    self.operations = batch
    if let failure {
      self.dropSocket(
        NATSError(
          .protocolViolation,
          "\(self.currentURL) sent bytes that are not the NATS protocol (\(failure)); dropping the connection"
        ))
    }
  }

  private func handle(_ operation: NATSServerOperation) {
    switch operation {
    case .message(let raw):
      guard self.phase == .connected else {
        return self.dropSocket(
          NATSError(.protocolViolation, "\(self.currentURL) sent a message before the handshake"))
      }
      self.deliver(raw)
    case .ping:
      guard self.phase != .awaitingInfo else { return self.notAServer("PING") }
      self.socket?.write(NATSProtocolEncoder.pong)
    case .pong:
      switch self.phase {
      case .awaitingPong: self.becomeConnected()
      case .connected:
        self.pingsOutstanding = 0
        if !self.pongWaiters.isEmpty, let waiters = self.pongWaiters.removeFirst() {
          for waiter in waiters { waiter(.success(())) }
        }
      default: self.notAServer("PONG")
      }
    case .ok:
      guard self.phase != .awaitingInfo else { return self.notAServer("+OK") }
    case .error(let text):
      self.handleServerError(text)
    case .info(let json):
      self.handleInfo(json)
    }
  }

  private func notAServer(_ what: String) {
    self.dropSocket(
      NATSError(
        .protocolViolation,
        "\(self.currentURL) sent \(what) before INFO: it does not speak the NATS protocol"))
  }

  private func deliver(_ raw: NATSRawMessage) {
    self.statistics.messagesReceived += 1
    self.statistics.bytesReceived += UInt64((raw.headerBytes?.count ?? 0) + raw.payload.count)
    guard let subscription = self.subscriptions[raw.subscriptionID] else { return }
    subscription.delivered += 1
    let finished = subscription.maxMessages.map { subscription.delivered >= $0 } ?? false
    if finished { self.subscriptions[raw.subscriptionID] = nil }
    subscription.handler(NATSMessage(raw))
    if finished { subscription.onEnd?(nil) }
  }

  private func handleServerError(_ text: String) {
    let lowered = text.lowercased()
    guard self.phase == .connected else {
      let code: NATSError.Code =
        lowered.contains("authorization") || lowered.contains("authentication")
        ? .authorizationViolation : .serverError
      return self.dropSocket(NATSError(code, "\(self.currentURL) refused the connection: \(text)"))
    }
    // These leave the connection open; every other -ERR is followed by the server closing it.
    if lowered.hasPrefix("permissions violation") || lowered.hasPrefix("invalid subject")
      || lowered.hasPrefix("invalid publish subject")
    {
      self.emit(.serverError(text))
    } else {
      self.dropSocket(NATSError(.serverError, "\(self.currentURL) reported: \(text)"))
    }
  }

  private func handleInfo(_ json: [UInt8]) {
    let info: NATSServerInfo
    do {
      info = try NATSServerInfo(json: json)
    } catch {
      return self.dropSocket(error)
    }
    let url = self.currentURL
    guard self.phase == .awaitingInfo else {
      // An update: the cluster changed, or the server is going away.
      self.serverInfo = info
      self.parser.limits.maxMessageBytes = self.inboundLimit(for: info)
      self.pool.add(connectURLs: info.connectURLs, credentialsFrom: url)
      self.emit(.serverInfoChanged(info))
      return
    }
    if info.requiresTLS {
      return self.dropSocket(
        NATSError(.tlsRequired, "\(url) requires TLS, which this client does not implement"))
    }
    guard info.supportsHeaders else {
      return self.dropSocket(
        NATSError(
          .protocolViolation,
          "\(url) (nats-server \(info.version)) does not support headers: nats-server 2.2 or later is needed"
        ))
    }
    self.serverInfo = info
    self.parser.limits.maxMessageBytes = self.inboundLimit(for: info)
    var handshake: [UInt8] = []
    NATSProtocolEncoder.appendConnect(json: self.connectJSON(for: url), into: &handshake)
    handshake.append(contentsOf: NATSProtocolEncoder.ping)
    self.socket?.write(handshake)
    self.phase = .awaitingPong
  }

  /// The largest message accepted from `server`: its `max_payload` (up to the trusted
  /// ceiling), or the configured cap when that is larger.
  private func inboundLimit(for info: NATSServerInfo) -> Int {
    max(min(info.maxPayload, NATSConfiguration.maxTrustedPayload), self.configuration.maxInboundMessageBytes)
  }

  private func connectJSON(for url: NATSServerURL) -> [UInt8] {
    var object: JSONObject = [
      "verbose": .bool(false), "pedantic": .bool(false), "tls_required": .bool(false),
      "lang": .string("swift"), "version": .string("1.0.0"), "protocol": .int(1),
      "echo": .bool(self.configuration.echo), "headers": .bool(true), "no_responders": .bool(true),
    ]
    if let name = self.configuration.name { object["name"] = .string(name) }
    if let user = self.configuration.user ?? url.user { object["user"] = .string(user) }
    if let password = self.configuration.password ?? url.password { object["pass"] = .string(password) }
    if let token = self.configuration.token ?? url.token { object["auth_token"] = .string(token) }
    return JSON.object(object).serialized()
  }

  // MARK: - Connected

  private func becomeConnected() {
    guard let socket = self.socket, let info = self.serverInfo else { return }
    self.phase = .connected
    self.status = .connected
    if let timer = self.attemptTimer {
      self.loop.cancelTimer(timer)
      self.attemptTimer = nil
    }
    let url = self.currentURL
    self.pool.recordSuccess(self.serverIndex)
    self.pool.add(connectURLs: info.connectURLs, credentialsFrom: url)
    let isReconnect = self.everConnected
    self.everConnected = true
    if isReconnect { self.statistics.reconnects += 1 }

    // Subscriptions first, so that replies to the kept requests find their inbox.
    socket.withOutboundBuffer { buffer in
      for (id, subscription) in self.subscriptions.sorted(by: { $0.key < $1.key }) {
        NATSProtocolEncoder.appendSubscribe(
          subject: subscription.subject, queue: subscription.queue, id: id, into: &buffer)
        if let max = subscription.maxMessages {
          NATSProtocolEncoder.appendUnsubscribe(id: id, max: max - subscription.delivered, into: &buffer)
        }
      }
    }
    var refused: [(token: UInt64?, error: NATSError)] = []
    self.reconnectBuffer.drain { entry, bytes in
      guard entry.messageSize <= info.maxPayload else {
        let error = NATSError(
          .maxPayloadExceeded(size: entry.messageSize, limit: info.maxPayload),
          "a message of \(entry.messageSize) bytes kept while reconnecting was not sent: \(url) accepts at most \(info.maxPayload) (its max_payload)"
        )
        refused.append((entry.requestToken, error))
        return
      }
      socket.withOutboundBuffer { $0.append(contentsOf: bytes) }
      if let token = entry.requestToken { self.requests.markSent(token, generation: self.generation) }
    }
    if !self.deferredFlushes.isEmpty {
      socket.write(NATSProtocolEncoder.ping)
      self.pongWaiters.append(self.deferredFlushes)
      self.deferredFlushes = []
    }
    self.schedulePing()
    self.emit(isReconnect ? .reconnected(url, info) : .connected(url, info))
    for (token, error) in refused {
      if let token, let pending = self.requests.remove(token) {
        pending.completion(.failure(error))
      } else if token == nil {
        self.emit(.asyncError(error))
      }
    }
  }

  private func schedulePing() {
    let generation = self.generation
    self.pingTimer = self.loop.scheduleTimer(after: self.configuration.pingInterval) { [weak self] in
      guard let self, self.generation == generation, self.phase == .connected else { return }
      self.pingTimer = nil
      if self.pingsOutstanding >= self.configuration.maxPingsOutstanding {
        return self.dropSocket(
          NATSError(
            .disconnected,
            "\(self.currentURL) did not answer \(self.pingsOutstanding) PINGs (one every \(self.configuration.pingInterval)): the connection is stale"
          ))
      }
      self.pingsOutstanding += 1
      self.socket?.write(NATSProtocolEncoder.ping)
      self.pongWaiters.append(nil)
      self.schedulePing()
    }
  }

  // MARK: - Losing the server

  /// Ends the current socket or attempt for `reason`, fails what depended on it, and looks for
  /// a server again (or closes, if reconnecting is off or the first connection gave up).
  func dropSocket(_ reason: NATSError) {
    let lostGeneration = self.generation
    let wasConnected = self.phase == .connected
    let hadAttempt = self.phase != .idle
    self.generation += 1
    if let socket = self.socket {
      socket.onRead = nil
      socket.onClose = nil
      socket.close()
      self.socket = nil
    }
    self.phase = .idle
    for timer in [self.attemptTimer, self.pingTimer].compactMap({ $0 }) { self.loop.cancelTimer(timer) }
    self.attemptTimer = nil
    self.pingTimer = nil
    self.pingsOutstanding = 0
    let waiters = self.pongWaiters.compactMap { $0 }.flatMap { $0 }
    self.pongWaiters = []
    let lostRequests = self.requests.removeSent(onGeneration: lostGeneration)
    if wasConnected {
      self.status = .reconnecting
    } else if hadAttempt {
      self.pool.recordFailure(self.serverIndex)
      if !self.everConnected { self.failedInitialAttempts += 1 }
    }

    let lost = NATSError(
      .connectionLost,
      "the connection to the NATS server was lost after the request was sent (\(reason)); its outcome is unknown"
    )
    for waiter in waiters { waiter(.failure(lost)) }
    for pending in lostRequests { pending.completion(.failure(lost)) }
    if wasConnected {
      self.emit(.disconnected(reason))
    } else if hadAttempt {
      self.emit(.connectAttemptFailed(self.currentURL, reason))
    }
    guard self.status != .closed else { return }  // an observer closed it

    if wasConnected && !self.configuration.allowsReconnect {
      return self.finishClose(reason)
    }
    if !self.everConnected && !self.configuration.retriesInitialConnect
      && self.failedInitialAttempts >= self.pool.entries.count
    {
      return self.finishClose(
        NATSError(.noServersAvailable, "no NATS server could be reached; the last attempt: \(reason)"))
    }
    self.connectNext()
  }

  /// Closes for good: `reason` is `nil` when the owner closed.
  func finishClose(_ reason: NATSError?) {
    guard self.status != .closed else { return }
    self.status = .closed
    self.generation += 1
    for timer in [self.attemptTimer, self.pingTimer, self.reconnectTimer].compactMap({ $0 }) {
      self.loop.cancelTimer(timer)
    }
    self.attemptTimer = nil
    self.pingTimer = nil
    self.reconnectTimer = nil
    if let socket = self.socket {
      socket.onRead = nil
      socket.onClose = nil
      socket.close()  // sends what the socket accepts now
      self.socket = nil
    }
    self.phase = .idle
    let error = reason ?? NATSError(.closed, "the NATS connection was closed")
    let waiters = self.pongWaiters.compactMap { $0 }.flatMap { $0 } + self.deferredFlushes
    self.pongWaiters = []
    self.deferredFlushes = []
    let requests = self.requests.removeAll()
    let subscriptions = self.subscriptions.sorted { $0.key < $1.key }.map(\.value)
    self.subscriptions = [:]
    self.reconnectBuffer.drain { _, _ in }  // its requests are among `requests`

    for waiter in waiters { waiter(.failure(error)) }
    for pending in requests { pending.completion(.failure(error)) }
    for subscription in subscriptions { subscription.onEnd?(error) }
    self.emit(.closed(reason))
    self.observers = []
  }
}
