import Wire

/// A connection to a host with the protocol's requests as async calls: list scopes, read a
/// scope, subscribe, send actions, ping.
///
/// ```swift
/// let client = try await HostClient.connect(to: "/run/user/1000/storehost.sock")
/// print(client.host.app)                                          // "shop"
/// let rev = try await client.send(["incrementButtonTapped": [:]], to: "counter")
/// let snapshot = try await client.get("counter")                 // state at rev ≥ `rev`
/// ```
///
/// The actor runs on an ``EventLoop`` (by default `EventLoop.shared`): its executor *is* the
/// loop, so replies are matched to requests right where they are read, and requests made in
/// one loop iteration leave in one write. Requests are answered in the order they are made
/// (PROTOCOL.md §4). When the connection ends, requests in flight fail with the reason, and
/// the close handler is called; a client does not reconnect — ``RemoteStore`` does.
public actor HostClient {
  /// The loop the client runs on (and the actor's executor).
  public nonisolated let loop: EventLoop
  /// How the client reaches the host.
  public nonisolated let transport: any HostTransport
  /// Where the host is: the transport's description (the socket path for a Unix socket).
  public nonisolated var path: String { self.transport.description }

  /// The actor's executor: the client's event loop.
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    self.loop.asUnownedSerialExecutor()
  }

  /// The host's `welcome`: its name, the app it hosts, this connection's session.
  public private(set) var host = HostInfo(protocolVersion: 0, host: "", app: "", session: "")

  private typealias Reply = UnsafeContinuation<Result<HostMessage, RemoteError>, Never>

  private var connection: HostConnection?
  private var closeReason: RemoteError?
  private var handshake: UnsafeContinuation<Result<HostInfo, RemoteError>, Never>?
  private var nextID: Int64 = 1
  private var pending: [Int64: Reply] = [:]
  private var pendingSubscriptions: [Int64: @Sendable (SubscriptionEvent) -> Void] = [:]
  private var subscriptions: [Int64: @Sendable (SubscriptionEvent) -> Void] = [:]
  /// Handlers of `tail` requests in flight, by request id (see HostClient+History.swift).
  var pendingTails: [Int64: @Sendable (TailEvent) -> Void] = [:]
  /// Handlers of open tails, by `sub`.
  var tails: [Int64: @Sendable (TailEvent) -> Void] = [:]
  private var closeHandlers: [@Sendable (RemoteError) -> Void] = []
  private var errorHandler: (@Sendable (RemoteError) -> Void)?

  private init(transport: any HostTransport, loop: EventLoop) {
    self.transport = transport
    self.loop = loop
  }

  /// Connects to the host at `path` and completes the handshake.
  ///
  /// - Parameters:
  ///   - path: The host's socket path.
  ///   - client: The name sent in `hello`.
  ///   - loop: The loop to run on.
  ///   - timeout: How long the host may take to answer `hello`.
  /// - Returns: The connected client.
  /// - Throws: ``RemoteError/noHost(path:)`` when nothing listens there,
  ///   ``RemoteError/connectionFailed(_:)``, ``RemoteError/timedOut(_:)``,
  ///   ``RemoteError/rejected(code:message:)`` (e.g. `unsupported_protocol`), or
  ///   ``RemoteError/protocolViolation(_:)`` when the peer does not speak the protocol.
  public static func connect(
    to path: String,
    client: String = "swift-remote/\(PackageVersion.current)",
    loop: EventLoop = .shared,
    timeout: Duration = .seconds(5)
  ) async throws(RemoteError) -> HostClient {
    try await Self.connect(
      via: UnixSocketTransport(path: path), client: client, loop: loop, timeout: timeout)
  }

  /// Connects to the host through `transport` and completes the handshake.
  ///
  /// - Parameters:
  ///   - transport: How to reach the host, e.g. ``UnixSocketTransport``.
  ///   - client: The name sent in `hello`.
  ///   - loop: The loop to run on.
  ///   - timeout: How long the host may take to answer `hello`.
  /// - Returns: The connected client.
  /// - Throws: As ``connect(to:client:loop:timeout:)``, and what the transport throws.
  public static func connect(
    via transport: some HostTransport,
    client: String = "swift-remote/\(PackageVersion.current)",
    loop: EventLoop = .shared,
    timeout: Duration = .seconds(5)
  ) async throws(RemoteError) -> HostClient {
    let hostClient = HostClient(transport: transport, loop: loop)
    try await hostClient.open(client: client, timeout: timeout)
    return hostClient
  }

  private func open(client: String, timeout: Duration) async throws(RemoteError) {
    let connection = try await self.makeConnection(client: client)
    self.connection = connection
    let timer = Task { [weak self] in
      try await Task.sleep(for: timeout)
      await self?.handshakeTimedOut(after: timeout)
    }
    defer { timer.cancel() }
    let result = await withUnsafeContinuation { self.handshake = $0 }
    self.host = try result.get()
  }

  private func makeConnection(client: String) async throws(RemoteError) -> HostConnection {
    var delay = Duration.milliseconds(1)
    var attempts = 0
    while true {
      do {
        let connection = try HostConnection.open(
          via: self.transport, client: client, loop: self.loop)
        connection.onMessage = { message in self.assumeIsolated { $0.received(message) } }
        connection.onClose = { reason in self.assumeIsolated { $0.closed(reason) } }
        return connection
      } catch .connectionFailed(let error)
        where error.code == .temporarilyUnavailable && attempts < 8
      {
        // The host's backlog is full: it is alive, only busy accepting. Retry shortly.
        attempts += 1
        try? await Task.sleep(for: delay)
        delay *= 2
      }
    }
  }

  private func handshakeTimedOut(after timeout: Duration) {
    guard let handshake = self.handshake else { return }
    self.handshake = nil
    handshake.resume(returning: .failure(.timedOut("waiting \(timeout) for the host's welcome")))
    self.connection?.close()
  }

  // MARK: - Requests

  /// Lists the scopes the host exposes.
  ///
  /// - Returns: Every scope pattern, whether it is writable, and its description.
  /// - Throws: A ``RemoteError``.
  public func scopes() async throws(RemoteError) -> [ScopeInfo] {
    let id = self.makeID()
    switch try await self.request(.scopes(id: id)) {
    case .scopes(_, let scopes): return scopes
    case let other: throw Self.unexpected(other, for: "scopes")
    }
  }

  /// Reads a scope's state once.
  ///
  /// - Parameter scope: The scope, e.g. `counter` or `todos/0B9E5C52-…`.
  /// - Returns: The state and the root revision it is at.
  /// - Throws: ``RemoteError/unknownScope(message:)``,
  ///   ``RemoteError/scopeUnavailable(message:)``, or another ``RemoteError``.
  public func get(_ scope: String) async throws(RemoteError) -> Snapshot {
    let id = self.makeID()
    switch try await self.request(.get(id: id, scope: scope)) {
    case .state(_, _, let rev, let state): return Snapshot(revision: rev, state: state)
    case let other: throw Self.unexpected(other, for: "get")
    }
  }

  /// Subscribes to a scope.
  ///
  /// `handler` is called on the client's loop, synchronously as the messages are read: first
  /// with ``SubscriptionEvent/subscribed(sub:snapshot:)``, then with every patch, and with
  /// ``SubscriptionEvent/unsubscribed(sub:reason:)`` if the host ends the subscription. It is
  /// not called after ``unsubscribe(_:)`` or once the connection has closed (see
  /// ``onClose(_:)``).
  ///
  /// - Parameters:
  ///   - scope: The scope.
  ///   - handler: Receives the subscription's events, in order.
  /// - Returns: The host-assigned subscription number and the snapshot.
  /// - Throws: ``RemoteError/unknownScope(message:)``,
  ///   ``RemoteError/scopeUnavailable(message:)``, or another ``RemoteError``.
  @discardableResult
  public func subscribe(
    _ scope: String,
    handler: @escaping @Sendable (SubscriptionEvent) -> Void
  ) async throws(RemoteError) -> (sub: Int64, snapshot: Snapshot) {
    let id = self.makeID()
    self.pendingSubscriptions[id] = handler
    defer { self.pendingSubscriptions[id] = nil }
    switch try await self.request(.subscribe(id: id, scope: scope)) {
    case .subscribed(_, let sub, _, let rev, let state):
      return (sub, Snapshot(revision: rev, state: state))
    case let other: throw Self.unexpected(other, for: "subscribe")
    }
  }

  /// Ends a subscription; its handler is not called again.
  ///
  /// - Parameter sub: The subscription number.
  /// - Throws: ``RemoteError/rejected(code:message:)`` with `not_subscribed`, or another
  ///   ``RemoteError``.
  public func unsubscribe(_ sub: Int64) async throws(RemoteError) {
    let id = self.makeID()
    self.subscriptions[sub] = nil
    self.tails[sub] = nil
    switch try await self.request(.unsubscribe(id: id, sub: sub)) {
    case .ok: return
    case let other: throw Self.unexpected(other, for: "unsubscribe")
    }
  }

  /// Ends a subscription without waiting for the host's answer.
  ///
  /// - Parameter sub: The subscription number.
  public func unsubscribeWithoutWaiting(_ sub: Int64) {
    guard self.subscriptions.removeValue(forKey: sub) != nil else { return }
    let id = self.makeID()
    self.connection?.send(.unsubscribe(id: id, sub: sub))
  }

  /// Sends an action and waits for the host to acknowledge it.
  ///
  /// When it returns, this connection's subscriptions already reflect revision `rev` or later
  /// (PROTOCOL.md §4, read your writes).
  ///
  /// - Parameters:
  ///   - action: The action's JSON form, e.g. `{"incrementButtonTapped":{}}`.
  ///   - scope: A writable scope.
  /// - Returns: The root revision right after the action was reduced.
  /// - Throws: ``RemoteError/rejected(code:message:)`` (`bad_action`, `forbidden`, …),
  ///   ``RemoteError/unknownScope(message:)``, ``RemoteError/scopeUnavailable(message:)``,
  ///   or ``RemoteError/disconnected(reason:)`` if the connection ended first (the action may
  ///   or may not have been reduced).
  @discardableResult
  public func send(_ action: JSON, to scope: String) async throws(RemoteError) -> Revision {
    let id = self.makeID()
    switch try await self.request(.send(id: id, scope: scope, action: action)) {
    case .ack(_, let rev): return rev
    case let other: throw Self.unexpected(other, for: "send")
    }
  }

  /// Sends an action without asking for an acknowledgement. If the host refuses it, the error
  /// goes to the handler set with ``onError(_:)``.
  ///
  /// - Parameters:
  ///   - action: The action's JSON form.
  ///   - scope: A writable scope.
  /// - Throws: The reason the connection closed, if it has.
  public func sendWithoutWaiting(_ action: JSON, to scope: String) throws(RemoteError) {
    guard let connection = self.connection, connection.isOpen else {
      throw self.closeReason ?? .closed
    }
    connection.send(.send(id: nil, scope: scope, action: action))
  }

  /// Measures a round trip to the host.
  ///
  /// - Returns: The time from sending `ping` to reading `pong`.
  /// - Throws: A ``RemoteError``.
  public func ping() async throws(RemoteError) -> Duration {
    let id = self.makeID()
    let start = ContinuousClock.now
    switch try await self.request(.ping(id: id)) {
    case .pong: return ContinuousClock.now - start
    case let other: throw Self.unexpected(other, for: "ping")
    }
  }

  /// Closes the connection. Requests in flight fail with ``RemoteError/closed``.
  public func close() {
    self.connection?.close()
  }

  /// Whether the connection is open.
  public var isOpen: Bool { self.connection?.isOpen ?? false }

  /// Bytes read from and written to the host so far.
  public var byteCounts: (read: UInt64, written: UInt64) {
    (self.connection?.bytesRead ?? 0, self.connection?.bytesWritten ?? 0)
  }

  /// Registers a handler called once, on the loop, when the connection ends — or at once if
  /// it has already ended.
  ///
  /// - Parameter handler: Receives the reason, e.g. ``RemoteError/disconnected(reason:)``.
  public func onClose(_ handler: @escaping @Sendable (RemoteError) -> Void) {
    if let reason = self.closeReason {
      handler(reason)
    } else {
      self.closeHandlers.append(handler)
    }
  }

  /// Sets the handler for errors the host reports without a request `id` — the refusal of an
  /// action sent with ``sendWithoutWaiting(_:to:)``.
  ///
  /// - Parameter handler: Receives each such error, on the loop.
  public func onError(_ handler: @escaping @Sendable (RemoteError) -> Void) {
    self.errorHandler = handler
  }

  /// Waits until the connection ends.
  ///
  /// - Returns: The reason it ended.
  public func closed() async -> RemoteError {
    await withUnsafeContinuation { continuation in
      self.onClose { continuation.resume(returning: $0) }
    }
  }

  // MARK: - Internals

  func makeID() -> Int64 {
    defer { self.nextID += 1 }
    return self.nextID
  }

  func request(_ message: ClientMessage) async throws(RemoteError) -> HostMessage {
    guard let connection = self.connection, connection.isOpen, let id = message.id else {
      throw self.closeReason ?? .closed
    }
    connection.send(message)
    return try await withUnsafeContinuation { self.pending[id] = $0 }.get()
  }

  static func unexpected(_ message: HostMessage, for request: String) -> RemoteError {
    .protocolViolation("the host answered '\(request)' with '\(message.type)'")
  }

  private func received(_ message: HostMessage) {
    if let handshake = self.handshake {
      self.handshake = nil
      switch message {
      case .welcome(let version, let host, let app, let session, let features):
        handshake.resume(
          returning: .success(
            HostInfo(
              protocolVersion: version, host: host, app: app, session: session,
              features: features)))
      case .error(_, let code, let message):
        handshake.resume(returning: .failure(.rejected(code: code, message: message)))
      default:
        handshake.resume(
          returning: .failure(
            .protocolViolation("expected 'welcome' from the host, got '\(message.type)'")))
      }
      return
    }
    switch message {
    case .patch(let sub, let base, let rev, let ops):
      self.subscriptions[sub]?(.patch(sub: sub, base: base, rev: rev, ops: ops))
    case .unsubscribed(let sub, let reason):
      self.subscriptions.removeValue(forKey: sub)?(.unsubscribed(sub: sub, reason: reason))
    case .subscribed(let id, let sub, _, let rev, let state):
      if let handler = self.pendingSubscriptions.removeValue(forKey: id) {
        self.subscriptions[sub] = handler
        handler(.subscribed(sub: sub, snapshot: Snapshot(revision: rev, state: state)))
      }
      self.reply(id, message)
    case .scopes(let id, _), .state(let id, _, _, _), .ack(let id, _), .ok(let id),
      .pong(let id), .history(let id, _, _, _):
      self.reply(id, message)
    case .tailing(let id, let sub, _):
      if let handler = self.pendingTails.removeValue(forKey: id) { self.tails[sub] = handler }
      self.reply(id, message)
    case .entry(let sub, let entry):
      self.tails[sub]?(.entry(entry))
    case .entryGap(let sub, let from, let to):
      self.tails[sub]?(.gap(from: from, to: to))
    case .error(let id, let code, let text):
      if let id, let waiter = self.pending.removeValue(forKey: id) {
        waiter.resume(returning: .failure(.host(code: code, message: text)))
      } else {
        self.errorHandler?(.host(code: code, message: text))
      }
    case .welcome:
      self.closeReason = .protocolViolation("the host sent a second 'welcome'")
      self.connection?.close()
    case .bye:
      break  // the host closes next; HostConnection remembers the reason
    }
  }

  private func reply(_ id: Int64, _ message: HostMessage) {
    self.pending.removeValue(forKey: id)?.resume(returning: .success(message))
  }

  private func closed(_ reason: RemoteError) {
    let reason = self.closeReason ?? reason
    self.closeReason = reason
    self.connection = nil
    if let handshake = self.handshake {
      self.handshake = nil
      // A peer that closes before `welcome` is most likely a host starting or stopping:
      // `disconnected`, which is transient, so that reconnection goes on.
      handshake.resume(returning: .failure(reason))
    }
    let waiters = self.pending
    self.pending.removeAll()
    for waiter in waiters.values { waiter.resume(returning: .failure(reason)) }
    self.subscriptions.removeAll()
    self.pendingSubscriptions.removeAll()
    self.tails.removeAll()
    self.pendingTails.removeAll()
    let handlers = self.closeHandlers
    self.closeHandlers.removeAll()
    for handler in handlers { handler(reason) }
  }
}
