import Remote
import Wire

/// The inspector's connection to the host, and every protocol call the inspector makes — in
/// this one file, so that a change in the client API touches nothing else.
///
/// It reconnects by itself with backoff when the host goes away, and reports what happens on
/// ``events``, in order: the connection's ups and downs, and the pushes of the subscriptions
/// and the tail opened through it. Each connection has a `generation`, so that pushes still
/// in flight from a previous one can be told apart.
actor HostLink {
  /// What the link reports.
  enum Event: Sendable {
    /// Connected (again): the host's `welcome`.
    case connected(HostInfo, generation: Int)
    /// The connection is lost or cannot be made; another attempt follows after `retryIn`.
    case disconnected(RemoteError, retryIn: Duration)
    /// A push of the subscription to `scope` (its first is ``SubscriptionEvent/subscribed(sub:snapshot:)``).
    case scope(String, SubscriptionEvent, generation: Int)
    /// A push of the history tail.
    case tail(TailEvent, generation: Int)
  }

  /// The events, in the order they happened.
  nonisolated let events: AsyncStream<Event>
  private let continuation: AsyncStream<Event>.Continuation
  private let socketPath: String
  private let clientName: String
  private let backoff = Backoff(
    initial: .milliseconds(100), multiplier: 2, maximum: .seconds(2), jitter: 0.2)
  private var client: HostClient?
  private var generation = 0
  private var stopped = false

  init(socketPath: String, clientName: String) {
    self.socketPath = socketPath
    self.clientName = clientName
    (self.events, self.continuation) = AsyncStream.makeStream()
  }

  /// Connects for the first time, then keeps the connection up until ``stop()``.
  ///
  /// - Returns: The host's `welcome`.
  /// - Throws: Why the first connection failed (``RemoteError/noHost(path:)`` when nothing
  ///   listens): the inspector does not start without a host.
  func start() async throws(RemoteError) -> HostInfo {
    let info = try await self.connect()
    Task { await self.supervise() }
    return info
  }

  /// Closes the connection and stops reconnecting.
  func stop() async {
    self.stopped = true
    await self.client?.close()
    self.continuation.finish()
  }

  private func connect() async throws(RemoteError) -> HostInfo {
    let client = try await HostClient.connect(to: self.socketPath, client: self.clientName)
    self.client = client
    self.generation += 1
    let info = await client.host
    self.continuation.yield(.connected(info, generation: self.generation))
    return info
  }

  /// Waits for the connection to end, then reconnects with backoff, for as long as it runs.
  private func supervise() async {
    var generator = SystemRandomNumberGenerator()
    while !self.stopped, let client = self.client {
      var reason = await client.closed()
      self.client = nil
      var attempt = 0
      while !self.stopped {
        attempt += 1
        let delay = self.backoff.delay(forAttempt: attempt, using: &generator)
        self.continuation.yield(.disconnected(reason, retryIn: delay))
        try? await Task.sleep(for: delay)
        guard !self.stopped else { return }
        do {
          _ = try await self.connect()
          break
        } catch {
          reason = error
        }
      }
    }
  }

  private func connected() throws(RemoteError) -> HostClient {
    guard let client = self.client else { throw .disconnected(reason: nil) }
    return client
  }

  // MARK: - Requests

  /// The scopes the host serves.
  func scopes() async throws(RemoteError) -> [ScopeInfo] {
    try await self.connected().scopes()
  }

  /// A scope's state now, or at a past revision (the host's "history" feature).
  func state(of scope: String, at revision: Revision? = nil) async throws(RemoteError) -> Snapshot {
    let client = try self.connected()
    if let revision { return try await client.get(scope, at: revision) }
    return try await client.get(scope)
  }

  /// Sends an action and waits for its acknowledgement.
  func send(_ action: JSON, to scope: String) async throws(RemoteError) -> Revision {
    try await self.connected().send(action, to: scope)
  }

  /// A page of the host's history.
  func history(since: Revision?, limit: Int) async throws(RemoteError) -> HistoryPage {
    try await self.connected().history(since: since, limit: limit)
  }

  /// Subscribes to `scope`; its pushes arrive on ``events`` (the snapshot first).
  ///
  /// - Returns: The subscription's number, for ``unsubscribe(_:)``.
  func subscribe(_ scope: String) async throws(RemoteError) -> Int64 {
    let client = try self.connected()
    let continuation = self.continuation
    let generation = self.generation
    return try await client.subscribe(scope) { event in
      continuation.yield(.scope(scope, event, generation: generation))
    }.sub
  }

  /// Ends a subscription (nothing to do once the connection that held it is gone).
  func unsubscribe(_ sub: Int64, generation: Int) async {
    guard generation == self.generation, let client = self.client else { return }
    await client.unsubscribeWithoutWaiting(sub)
  }

  /// Follows the history after `since`; the entries arrive on ``events``.
  func tail(since: Revision) async throws(RemoteError) {
    let client = try self.connected()
    let continuation = self.continuation
    let generation = self.generation
    try await client.tail(since: since) { event in
      continuation.yield(.tail(event, generation: generation))
    }
  }
}
