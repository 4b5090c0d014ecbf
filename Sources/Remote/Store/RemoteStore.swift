import Wire

/// A scoped store whose state lives in another process: a mirror of one scope of a running
/// host, typed with the feature's own `State` and `Action`.
///
/// ```swift
/// let store = try await RemoteStore<Counter.State, Counter.Action>(scope: "counter")
/// let rev = try await store.send(.incrementButtonTapped)   // returns once acknowledged
/// print(await store.state.count)                           // already reflects `rev`
/// for await state in store.stateChanges() { render(state) }
/// ```
///
/// It reads like the scoped `Store` it stands for — ``state``, ``withState(_:)``,
/// ``stateChanges()`` — and sends with ``send(_:)``, which waits for the host's
/// acknowledgement and returns the revision, or ``sendWithoutWaiting(_:)``.
///
/// ## How the state is kept
///
/// The store subscribes to the scope and keeps the host's JSON: the snapshot, then each
/// patch applied in order. After every patch the JSON is decoded into `State`. A patch whose
/// `base` is not the last revision seen, or that does not apply, makes the store resubscribe
/// and start again from a fresh snapshot (``RemoteEvent/snapshot(_:reason:)`` with
/// ``SnapshotReason/resynced``).
///
/// ## When the host goes away
///
/// The store keeps its last state and reconnects with exponential backoff
/// (``RemoteStoreConfiguration/backoff``), then resubscribes and resumes from a fresh
/// snapshot. Sends fail while it is disconnected. It stops for good — ``status`` becomes
/// ``RemoteStoreStatus/failed(_:)`` and ``stateChanges()`` ends — when the scope's state
/// ceases to exist (``RemoteError/scopeGone(scope:)``), when the scope is unknown or
/// unavailable after a reconnection, when reconnection is off or gives up, or on ``close()``.
///
/// The store runs on its configuration's ``EventLoop`` (its executor), where the host's
/// messages are read: patches are applied with no hop.
public actor RemoteStore<State: Sendable, Action: Sendable> {
  /// The scope this store mirrors, e.g. `counter` or `todos/0B9E5C52-…`.
  public nonisolated let scope: String
  /// How the store connects.
  public nonisolated let configuration: RemoteStoreConfiguration

  /// The store's executor: its event loop.
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    self.configuration.loop.asUnownedSerialExecutor()
  }

  private let decode: @Sendable (JSON) throws(RemoteError) -> State
  private let encode: @Sendable (Action) throws(RemoteError) -> JSON
  private let isEqual: (@Sendable (State, State) -> Bool)?

  private var mirror = ScopeMirror(Snapshot(revision: 0, state: .null))
  private var current: State?
  private var client: HostClient?
  private var sub: Int64?
  private var generation = 0
  private var snapshotReason = SnapshotReason.initial
  private var attachFailure: RemoteError?
  private var reconnectTask: Task<Void, Never>?
  private var random = SystemRandomNumberGenerator()
  private var nextListenerID = 0
  private var stateListeners: [Int: AsyncStream<State>.Continuation] = [:]
  private var eventListeners: [Int: AsyncStream<RemoteEvent>.Continuation] = [:]

  /// Where the store stands with its host.
  public private(set) var status = RemoteStoreStatus.connected
  /// How many times the store resubscribed because a patch did not fit its copy.
  public private(set) var resyncCount = 0
  /// How many times the store reconnected after losing its connection.
  public private(set) var reconnectCount = 0

  // MARK: - Attaching

  /// Attaches to a scope of a running host.
  ///
  /// ```swift
  /// let todo = try await RemoteStore<Todo.State, Todo.Action>(scope: "todos/\(id)")
  /// ```
  ///
  /// - Parameters:
  ///   - scope: The scope, as the host names it.
  ///   - socketPath: The host's socket path; `nil` for the configuration's.
  ///   - configuration: How to connect and reconnect.
  /// - Throws: ``RemoteError/noHost(path:)`` when no host is listening,
  ///   ``RemoteError/unknownScope(message:)``, ``RemoteError/scopeUnavailable(message:)``,
  ///   ``RemoteError/coding(_:)`` when the state does not decode as `State`, or another
  ///   ``RemoteError``.
  public init(
    scope: String,
    socketPath: String? = nil,
    configuration: RemoteStoreConfiguration = RemoteStoreConfiguration()
  ) async throws(RemoteError) where State: Decodable, Action: Encodable {
    try await self.init(
      scope: scope, socketPath: socketPath, configuration: configuration,
      decode: { json throws(RemoteError) in try JSONCoding.decode(State.self, from: json) },
      encode: { action throws(RemoteError) in try JSONCoding.encode(action) })
  }

  /// Attaches to a scope of a running host, with the state and actions as raw JSON — for
  /// tools that handle any scope.
  ///
  /// - Parameters:
  ///   - scope: The scope, as the host names it.
  ///   - socketPath: The host's socket path; `nil` for the configuration's.
  ///   - configuration: How to connect and reconnect.
  /// - Throws: ``RemoteError/noHost(path:)``, ``RemoteError/unknownScope(message:)``,
  ///   ``RemoteError/scopeUnavailable(message:)``, or another ``RemoteError``.
  public init(
    scope: String,
    socketPath: String? = nil,
    configuration: RemoteStoreConfiguration = RemoteStoreConfiguration()
  ) async throws(RemoteError) where State == JSON, Action == JSON {
    try await self.init(
      scope: scope, socketPath: socketPath, configuration: configuration,
      decode: { $0 }, encode: { $0 })
  }

  private init(
    scope: String,
    socketPath: String?,
    configuration: RemoteStoreConfiguration,
    decode: @escaping @Sendable (JSON) throws(RemoteError) -> State,
    encode: @escaping @Sendable (Action) throws(RemoteError) -> JSON
  ) async throws(RemoteError) {
    var configuration = configuration
    if let socketPath { configuration.socketPath = socketPath }
    self.scope = scope
    self.configuration = configuration
    self.decode = decode
    self.encode = encode
    self.isEqual = Self.equalityFunction()
    try await self.attach()
  }

  deinit {
    self.reconnectTask?.cancel()
    if let client = self.client {
      self.configuration.loop.execute { client.assumeIsolated { $0.close() } }
    }
    for listener in self.stateListeners.values { listener.finish() }
    for listener in self.eventListeners.values { listener.finish() }
  }

  // MARK: - Reading

  /// The current state: the last one received, also while reconnecting.
  public var state: State {
    // Set before the initializer returns, and never cleared.
    self.current!
  }

  /// Runs a closure with the current state.
  ///
  /// - Parameter body: Reads the state.
  /// - Returns: What `body` returns.
  public func withState<R>(_ body: (State) -> R) -> R {
    body(self.state)
  }

  /// The current state as the host's JSON.
  public var stateJSON: JSON { self.mirror.state }

  /// The root revision of the last snapshot or patch received for this scope. An action that
  /// does not change this scope's state produces no patch, so this may lag the host's root
  /// revision; the state is nonetheless current.
  public var revision: Revision { self.mirror.revision }

  /// The state, first as it is now, then after each change, until the store stops for good.
  ///
  /// Like `Store.stateChanges()`, it coalesces: a slow reader gets the newest state rather
  /// than a backlog; when `State` is `Equatable`, consecutive equal states are skipped.
  ///
  /// - Returns: An async sequence of states.
  public nonisolated func stateChanges() -> AsyncStream<State> {
    AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
      self.configuration.loop.execute {
        self.assumeIsolated { $0.addStateListener(continuation) }
      }
    }
  }

  /// Everything that happens to the store, as JSON: the current snapshot first, then every
  /// patch with the states before and after it, snapshots after a reconnection or a resync,
  /// connection losses, refused fire-and-forget actions, and the end.
  ///
  /// Nothing is skipped, so a reader that falls behind buffers events.
  ///
  /// - Returns: An async sequence of events.
  public nonisolated func events() -> AsyncStream<RemoteEvent> {
    AsyncStream(bufferingPolicy: .unbounded) { continuation in
      self.configuration.loop.execute {
        self.assumeIsolated { $0.addEventListener(continuation) }
      }
    }
  }

  // MARK: - Sending

  /// Sends an action and waits for the host to acknowledge it.
  ///
  /// When it returns, ``state`` already reflects the action (and anything reduced before it).
  ///
  /// - Parameter action: The action.
  /// - Returns: The root revision right after the host reduced it.
  /// - Throws: ``RemoteError/rejected(code:message:)`` (`bad_action`, `forbidden`, …),
  ///   ``RemoteError/scopeUnavailable(message:)``, the connection error while reconnecting,
  ///   ``RemoteError/disconnected(reason:)`` if the connection ended before the
  ///   acknowledgement (the action may or may not have been reduced), or the reason the store
  ///   stopped.
  @discardableResult
  public func send(_ action: Action) async throws(RemoteError) -> Revision {
    let json = try self.encode(action)
    let client = try self.connectedClient()
    return try await client.send(json, to: self.scope)
  }

  /// Sends an action without waiting: fire and forget. Actions sent this way leave in the
  /// order of the calls. A refusal by the host, or a send while disconnected, is reported as
  /// ``RemoteEvent/rejected(_:)``.
  ///
  /// - Parameter action: The action.
  public nonisolated func sendWithoutWaiting(_ action: Action) {
    let result = Result { () throws(RemoteError) -> JSON in try self.encode(action) }
    self.configuration.loop.execute {
      self.assumeIsolated { store in
        switch result {
        case .success(let json): store.post(json)
        case .failure(let error): store.emit(.rejected(error))
        }
      }
    }
  }

  /// Stops the store: closes the connection and ends ``stateChanges()`` and ``events()``.
  /// Sends then fail with ``RemoteError/closed``.
  public func close() {
    self.fail(.closed)
  }

  // MARK: - Connection

  private func attach() async throws(RemoteError) {
    self.generation += 1
    let generation = self.generation
    self.attachFailure = nil
    let client = try await HostClient.connect(
      via: self.configuration.resolvedTransport, client: self.configuration.clientName,
      loop: self.configuration.loop, timeout: self.configuration.connectTimeout)
    await client.onClose { [weak self] reason in
      self?.assumeIsolated { $0.connectionEnded(reason, generation: generation) }
    }
    await client.onError { [weak self] error in
      self?.assumeIsolated { $0.emit(.rejected(error)) }
    }
    do {
      try await client.subscribe(self.scope, handler: self.subscriptionHandler(generation))
    } catch {
      await client.close()
      throw error
    }
    if let failure = self.attachFailure {
      await client.close()
      throw failure
    }
    self.client = client
  }

  private func subscriptionHandler(
    _ generation: Int
  ) -> @Sendable (SubscriptionEvent) -> Void {
    { [weak self] event in
      self?.assumeIsolated { $0.handle(event, generation: generation) }
    }
  }

  private func handle(_ event: SubscriptionEvent, generation: Int) {
    guard generation == self.generation, !self.isFailed else { return }
    switch event {
    case .subscribed(let sub, let snapshot):
      self.sub = sub
      self.mirror = ScopeMirror(snapshot)
      do {
        try self.publish(self.decode(snapshot.state))
      } catch {
        // During attach the initializer (or reconnection) reports it; later it is fatal.
        if self.client == nil { self.attachFailure = error } else { self.fail(error) }
        return
      }
      self.emit(.snapshot(snapshot, reason: self.snapshotReason))
    case .patch(let sub, let base, let rev, let ops):
      guard sub == self.sub else { return }
      switch self.mirror.apply(
        base: base, rev: rev, ops: ops, keepingBefore: !self.eventListeners.isEmpty)
      {
      case .applied(let before):
        do {
          try self.publish(self.decode(self.mirror.state))
        } catch {
          self.fail(error)
          return
        }
        self.emit(.patch(base: base, rev: rev, ops: ops, before: before, after: self.mirror.state))
      case .baseMismatch, .invalid:
        self.resync()
      }
    case .unsubscribed(let sub, _):
      guard sub == self.sub else { return }
      self.fail(.scopeGone(scope: self.scope))
    }
  }

  private func resync() {
    guard let client = self.client, let sub = self.sub else { return }
    self.resyncCount += 1
    self.sub = nil
    client.assumeIsolated { $0.unsubscribeWithoutWaiting(sub) }
    let generation = self.generation
    Task {
      self.snapshotReason = .resynced
      do throws(RemoteError) {
        try await client.subscribe(self.scope, handler: self.subscriptionHandler(generation))
      } catch where !error.isTransient {
        if generation == self.generation { self.fail(error) }
      } catch {
        // The connection is ending; its close handler reconnects.
      }
    }
  }

  private func connectionEnded(_ reason: RemoteError, generation: Int) {
    // Before `attach` has finished (no client yet), the attach itself fails and its caller —
    // the initializer or the reconnection loop — decides what happens next.
    guard generation == self.generation, !self.isFailed, self.client != nil else { return }
    self.client = nil
    self.sub = nil
    guard self.configuration.reconnects else {
      self.fail(reason)
      return
    }
    // The task holds the store weakly: a store nobody uses any more stops reconnecting.
    self.reconnectTask = Task { [weak self] in
      var attempt = 1
      var lastError = reason
      while !Task.isCancelled {
        guard let delay = await self?.beginAttempt(attempt, after: lastError) else { return }
        do {
          try await Task.sleep(for: delay)
        } catch {
          return  // cancelled: the store stopped
        }
        guard case .retry(let failure)? = await self?.attemptReconnection() else { return }
        lastError = failure
        attempt += 1
      }
    }
  }

  /// Announces reconnection attempt `attempt` and returns the delay before it, or `nil` when
  /// the store has stopped or gives up (then it fails with `lastError`).
  private func beginAttempt(_ attempt: Int, after lastError: RemoteError) -> Duration? {
    guard !self.isFailed else { return nil }
    if let limit = self.configuration.maxReconnectAttempts, attempt > limit {
      self.fail(lastError)
      return nil
    }
    let delay = self.configuration.backoff.delay(forAttempt: attempt, using: &self.random)
    self.status = .reconnecting(attempt: attempt, lastError: lastError)
    self.emit(
      attempt == 1
        ? .disconnected(lastError, retryIn: delay)
        : .reconnectFailed(lastError, attempt: attempt - 1, retryIn: delay))
    return delay
  }

  private enum ReconnectOutcome {
    /// Reconnected, or the store stopped: no more attempts.
    case done
    /// The attempt failed in a way worth retrying.
    case retry(RemoteError)
  }

  /// Tries once to reconnect and resubscribe; fails the store on an error not worth retrying
  /// (the scope is unknown or unavailable on the restarted host).
  private func attemptReconnection() async -> ReconnectOutcome {
    guard !self.isFailed else { return .done }
    self.snapshotReason = .reconnected
    do {
      try await self.attach()
      self.reconnectCount += 1
      self.status = .connected
      return .done
    } catch where error.isTransient {
      return .retry(error)
    } catch {
      self.fail(error)
      return .done
    }
  }

  private func connectedClient() throws(RemoteError) -> HostClient {
    switch self.status {
    case .failed(let error): throw error
    case .reconnecting(_, let lastError): throw lastError
    case .connected:
      guard let client = self.client else { throw .disconnected(reason: nil) }
      return client
    }
  }

  private func post(_ json: JSON) {
    let scope = self.scope
    let result = Result { () throws(RemoteError) in try self.connectedClient() }
      .flatMap { client in
        client.assumeIsolated { client in
          Result { () throws(RemoteError) in try client.sendWithoutWaiting(json, to: scope) }
        }
      }
    if case .failure(let error) = result { self.emit(.rejected(error)) }
  }

  private var isFailed: Bool {
    if case .failed = self.status { true } else { false }
  }

  private func fail(_ error: RemoteError) {
    guard !self.isFailed else { return }
    self.status = .failed(error)
    self.generation += 1
    self.reconnectTask?.cancel()
    self.reconnectTask = nil
    if let client = self.client {
      client.assumeIsolated { $0.close() }
    }
    self.client = nil
    self.emit(.ended(error))
    for listener in self.stateListeners.values { listener.finish() }
    for listener in self.eventListeners.values { listener.finish() }
    self.stateListeners.removeAll()
    self.eventListeners.removeAll()
  }

  // MARK: - Listeners

  private func publish(_ state: State) {
    if let isEqual = self.isEqual, let current = self.current, isEqual(current, state) {
      self.current = state
      return
    }
    self.current = state
    for listener in self.stateListeners.values { listener.yield(state) }
  }

  private func emit(_ event: RemoteEvent) {
    for listener in self.eventListeners.values { listener.yield(event) }
  }

  private func makeListenerID() -> Int {
    defer { self.nextListenerID += 1 }
    return self.nextListenerID
  }

  private func addStateListener(_ continuation: AsyncStream<State>.Continuation) {
    guard !self.isFailed, let current = self.current else {
      if let current = self.current { continuation.yield(current) }
      continuation.finish()
      return
    }
    let id = self.makeListenerID()
    self.stateListeners[id] = continuation
    continuation.onTermination = { [weak self, loop = self.configuration.loop] _ in
      guard let self else { return }
      loop.execute { self.assumeIsolated { _ = $0.stateListeners.removeValue(forKey: id) } }
    }
    continuation.yield(current)
  }

  private func addEventListener(_ continuation: AsyncStream<RemoteEvent>.Continuation) {
    if case .failed(let error) = self.status {
      continuation.yield(.ended(error))
      continuation.finish()
      return
    }
    let id = self.makeListenerID()
    self.eventListeners[id] = continuation
    continuation.onTermination = { [weak self, loop = self.configuration.loop] _ in
      guard let self else { return }
      loop.execute { self.assumeIsolated { _ = $0.eventListeners.removeValue(forKey: id) } }
    }
    continuation.yield(.snapshot(self.mirror.snapshot, reason: .initial))
  }

  /// `==` for `State` when it is `Equatable` at run time.
  private static func equalityFunction() -> (@Sendable (State, State) -> Bool)? {
    guard State.self is any Equatable.Type else { return nil }
    return { lhs, rhs in
      guard let lhs = lhs as? any Equatable else { return false }
      return equal(lhs, rhs)
    }
  }
}

private func equal<E: Equatable>(_ lhs: E, _ rhs: Any) -> Bool {
  (rhs as? E) == lhs
}
