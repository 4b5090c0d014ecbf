import Architecture
import Synchronization
import Wire

/// The heart of a host: owns the root store's bookkeeping and every client session.
///
/// The core is an actor whose executor is the host's event loop, and the root ``Store`` runs on
/// the same loop. A batch of frames read from a socket is therefore decoded, reduced and
/// answered on the loop thread with no hop at all (`assumeIsolated`), and actions sent by
/// effects reach the store as ordinary jobs on that same thread. Everything here runs one
/// batch at a time, so actions from all connections and effects are reduced one at a time, in
/// arrival order per connection.
@usableFromInline
final actor HostCore<State: Sendable, Action: Sendable>: RevisionObserver {
  @usableFromInline nonisolated let loop: EventLoop
  @usableFromInline nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

  @usableFromInline let store: Store<State, Action>
  @usableFromInline let revision: RevisionCounter
  @usableFromInline let registry: ScopeRegistry<State, Action>
  @usableFromInline let configuration: HostConfiguration
  @usableFromInline let appName: String
  @usableFromInline let log: HostLogger

  @usableFromInline var sessions: [Int: Session<State, Action>] = [:]
  /// Subscriptions over all sessions: with none, reduced actions schedule no sync.
  @usableFromInline nonisolated let subscriptionTally = SubscriptionTally()
  private var nextSessionID = 1
  private var syncedRevision: Int64 = 0
  private var isShuttingDown = false
  /// Per scope name: when an expensive scope may be pushed again (see `sync`).
  private var scopeNotBefore: [String: Double] = [:]
  private var deferredSyncScheduled = false
  private var deferredSyncDue = false
  /// A push that took longer than this (seconds) is costly (see `costlyPushWaitFactor`).
  private static var costlySync: Double { 0.000_5 }
  @usableFromInline var listener: UnixListener?
  var isStopped = false
  var stopWaiters: [CheckedContinuation<Void, Never>] = []

  // Figures for `_host`.
  private let startedAt = Platform.monotonicSeconds()
  @usableFromInline var actionsFromClients: Int64 = 0
  @usableFromInline var bytesIn: Int64 = 0
  @usableFromInline var bytesOut: Int64 = 0
  private var actionsPerSecond: Int64 = 0
  private var revisionAtLastTick: Int64 = 0

  @usableFromInline
  init(
    loop: EventLoop,
    store: Store<State, Action>,
    revision: RevisionCounter,
    scopes: ScopeRegistry<State, Action>,
    configuration: HostConfiguration,
    appName: String
  ) {
    self.loop = loop
    self.store = store
    self.revision = revision
    self.registry = scopes
    self.configuration = configuration
    self.appName = appName
    self.log = HostLogger(level: configuration.logLevel)
  }

  var sessionCount: Int { sessions.count }

  // MARK: - Connection events

  /// Admits a new connection, or refuses it (answered, then closed) when over a limit or
  /// from another user. Returns the session to route later events to.
  @usableFromInline
  func accept(
    channel: any ClientChannel, processID: Int32, userID: UInt32
  ) -> Session<State, Action>? {
    let session = Session<State, Action>(
      id: nextSessionID, channel: channel, processID: processID, userID: userID,
      maxFrameSize: configuration.maxFrameSize, tally: subscriptionTally)
    nextSessionID += 1
    if isShuttingDown {
      refuse(session, HostMessage.bye(reason: "shutdown"), because: "host is shutting down")
      return nil
    }
    if userID != Platform.userID && !configuration.allowOtherUsers {
      refuse(
        session,
        .error(
          id: nil, code: .forbidden,
          message: "connections from uid \(userID) are not allowed; this host serves uid "
            + "\(Platform.userID) only (start it with --allow-other-users to change that)"),
        because: "peer uid \(userID) is another user")
      return nil
    }
    if sessions.count >= configuration.maxConnections {
      refuse(
        session,
        .error(
          id: nil, code: .overloaded,
          message: "the host already serves \(configuration.maxConnections) connections "
            + "(its --max-connections limit); try again later"),
        because: "connection limit \(configuration.maxConnections) reached")
      return nil
    }
    sessions[session.id] = session
    log(.info, "connect session=\(session.id) pid=\(processID) uid=\(userID)")
    return session
  }

  private func refuse(_ session: Session<State, Action>, _ message: HostMessage, because: String) {
    log(.warning, "refused pid=\(session.processID) uid=\(session.userID): \(because)")
    message.encodeFrame(into: &session.output)
    flush(session)
    session.channel.close()
  }

  /// Forgets a closed connection and its subscriptions.
  @usableFromInline
  func didClose(session id: Int, reason: String) {
    guard let session = sessions.removeValue(forKey: id) else { return }
    session.phase = .closing
    log(
      .info,
      "disconnect session=\(session.id) subscriptions=\(session.subscriptions.count) (\(reason))")
    session.subscriptions.removeAll()
  }

  /// Handles every complete frame in `bytes`, then answers the whole batch in one write.
  @inlinable
  func didRead(session id: Int, _ bytes: UnsafeRawBufferPointer) {
    guard let session = sessions[id], session.phase != .closing else { return }
    bytesIn += Int64(bytes.count)
    session.decoder.append(bytes)
    let revisionBefore = revision.value
    do {
      while session.phase != .closing, let frame = try session.decoder.nextFrame() {
        handle(frame: frame, from: session)
      }
    } catch {
      switch error {
      case .emptyFrame:
        fail(session, code: .badFrame, id: nil, "a frame's length prefix is 0; frames carry a JSON object")
      case .frameTooLarge(let length, let limit):
        fail(
          session, code: .frameTooLarge, id: nil,
          "a frame announces \(length) bytes; this host accepts at most \(limit)")
      }
    }
    finishBatch(session)
    if revision.value != revisionBefore { scheduleSync() }
  }

  /// A backed-up client drained its queue: resume reading and send what it missed.
  @usableFromInline
  func didDrain(session id: Int) {
    guard let session = sessions[id], session.phase == .open else { return }
    if session.needsSync {
      session.needsSync = false
      syncPushes(session)
      flush(session)
    }
    updateBackpressure(session)
  }

  // MARK: - Requests

  @inlinable
  func handle(frame: ArraySlice<UInt8>, from session: Session<State, Action>) {
    // The most frequent request, a `send` as clients write it, skips building its envelope;
    // the general path below reads the same message from it.
    if session.phase != .awaitingHello, case .send(let id, let scope, let action)? =
      ClientMessage(compactSend: frame)
    {
      send(session, id: id, scope: scope, action: action)
      return
    }
    let json: JSON
    do {
      json = try JSON(parsing: frame)
    } catch {
      if session.phase == .awaitingHello {
        fail(session, code: .helloRequired, id: nil, "the first frame must be a hello; it is not valid JSON")
      } else if !isValidUTF8(frame) {
        fail(session, code: .badFrame, id: nil, "the payload is not valid UTF-8")
      } else {
        reply(session, .error(id: nil, code: .badJSON, message: "the payload is not valid JSON: \(error)"))
      }
      return
    }
    guard case .object(let object) = json else {
      if session.phase == .awaitingHello {
        fail(session, code: .helloRequired, id: nil, "the first frame must be a hello object")
      } else {
        reply(session, .error(id: nil, code: .badJSON, message: "the top level of a frame must be a JSON object"))
      }
      return
    }
    if session.phase == .awaitingHello, object["type"] != .string("hello") {
      let type: String
      if case .string(let name)? = object["type"] { type = "'\(name)'" } else { type = "a frame without a string 'type'" }
      fail(session, code: .helloRequired, id: nil, "the first frame must be a hello, not \(type)")
      return
    }
    let message: ClientMessage
    do {
      message = try ClientMessage(json: json)
    } catch {
      if session.phase == .awaitingHello {
        fail(session, code: error.code, id: error.id, error.message)
      } else {
        reply(session, .error(id: error.id, code: error.code, message: error.message))
      }
      return
    }
    switch message {
    case .hello(let version, let client):
      hello(session, version: version, client: client)
    case .scopes(let id):
      reply(session, .scopes(id: id, scopes: registry.listing))
    case .get(let id, let scope):
      get(session, id: id, scope: scope)
    case .subscribe(let id, let scope):
      subscribe(session, id: id, scope: scope)
    case .unsubscribe(let id, let sub):
      unsubscribe(session, id: id, sub: sub)
    case .send(let id, let scope, let action):
      send(session, id: id, scope: scope, action: action)
    case .ping(let id):
      reply(session, .pong(id: id))
    }
  }

  @usableFromInline
  func hello(_ session: Session<State, Action>, version: Int64?, client: String?) {
    guard session.phase == .awaitingHello else {
      reply(session, .error(id: nil, code: .badMessage, message: "hello: the handshake is already done"))
      return
    }
    guard let version else {
      fail(session, code: .unsupportedProtocol, id: nil, "hello: missing integer member 'protocol'; this host speaks protocol 1")
      return
    }
    guard version == 1 else {
      fail(session, code: .unsupportedProtocol, id: nil, "hello: protocol \(version) is not supported; this host speaks protocol 1")
      return
    }
    session.phase = .open
    session.clientName = client
    log(.debug, "hello session=\(session.id) client=\(client ?? "-")")
    reply(
      session,
      .welcome(protocol: 1, host: configuration.hostName, app: appName, session: String(session.id)))
  }

  private enum Resolution {
    case host
    case scope(HostedScope<State, Action>, BoundScope<State, Action>, any ScopeState)
  }

  /// Looks a scope up for `get`/`subscribe`/`send`, answering the error when it fails.
  private func resolve(
    _ session: Session<State, Action>, id: Int64?, scope name: String, root: State
  ) -> Resolution? {
    switch registry.lookup(name) {
    case .host:
      return .host
    case .unknown:
      reply(session, .error(id: id, code: .unknownScope, message: "no scope matches '\(name)'; 'scopes' lists the patterns"))
      return nil
    case .unavailable(let scope):
      reply(session, .error(id: id, code: .scopeUnavailable, message: "'\(name)' names no element of '\(scope.pattern)'"))
      return nil
    case .scope(let scope, let bound):
      guard let state = bound.state(root) else {
        reply(session, .error(id: id, code: .scopeUnavailable, message: "'\(name)' does not exist right now"))
        return nil
      }
      return .scope(scope, bound, state)
    }
  }

  @usableFromInline
  func get(_ session: Session<State, Action>, id: Int64, scope name: String) {
    let root = currentState()
    switch resolve(session, id: id, scope: name, root: root) {
    case nil:
      return
    case .host:
      reply(session, .state(id: id, scope: name, rev: revision.value, state: hostFiguresJSON()))
    case .scope(_, _, let state)?:
      guard let json = encode(state, session: session, id: id, scope: name) else { return }
      reply(session, .state(id: id, scope: name, rev: revision.value, state: json))
    }
  }

  @usableFromInline
  func subscribe(_ session: Session<State, Action>, id: Int64, scope name: String) {
    guard session.subscriptions.count < configuration.maxSubscriptionsPerConnection else {
      reply(
        session,
        .error(
          id: id, code: .overloaded,
          message: "this connection already holds \(session.subscriptions.count) subscriptions, "
            + "the limit; unsubscribe from one first"))
      return
    }
    let root = currentState()
    let target: Subscription<State, Action>.Target
    let state: any ScopeState
    let json: JSON
    switch resolve(session, id: id, scope: name, root: root) {
    case nil:
      return
    case .host:
      let figures = hostFigures()
      target = .host
      state = TypedScopeState(figures)
      json = hostFiguresJSON(figures)
    case .scope(_, let bound, let current)?:
      guard let encoded = encode(current, session: session, id: id, scope: name) else { return }
      target = .scope(bound)
      state = current
      json = encoded
    }
    // The snapshot must follow every push already owed to this connection, and every later
    // patch for the new subscription must follow the snapshot.
    releaseHeldReplies(session)
    let sub = Subscription(
      id: session.nextSubscriptionID, scopeName: name, target: target, state: state, json: json,
      revision: revision.value)
    let message = HostMessage.subscribed(id: id, sub: sub.id, scope: name, rev: sub.lastRevision, state: json)
    guard append(message, to: &session.output, id: id, scope: name) else { return }
    session.nextSubscriptionID += 1
    session.subscriptions[sub.id] = sub
    log(.debug, "subscribe session=\(session.id) sub=\(sub.id) scope=\(name)")
  }

  @usableFromInline
  func unsubscribe(_ session: Session<State, Action>, id: Int64, sub: Int64) {
    guard session.subscriptions[sub] != nil else {
      reply(session, .error(id: id, code: .notSubscribed, message: "unsubscribe: this connection has no subscription \(sub)"))
      return
    }
    // Pushes owed for earlier replies go out while the subscription still exists; after the
    // `ok`, nothing names it again.
    releaseHeldReplies(session)
    session.subscriptions[sub] = nil
    reply(session, .ok(id: id))
  }

  @inlinable
  func send(_ session: Session<State, Action>, id: Int64?, scope name: String, action json: JSON) {
    let bound: BoundScope<State, Action>
    if let cache = session.sendCache, cache.name == name {
      bound = cache.bound
    } else {
      switch registry.lookup(name) {
      case .host:
        reply(session, .error(id: id, code: .forbidden, message: "'_host' is read-only"))
        return
      case .unknown:
        reply(session, .error(id: id, code: .unknownScope, message: "no scope matches '\(name)'; 'scopes' lists the patterns"))
        return
      case .unavailable(let scope):
        guard scope.isWritable else {
          reply(session, .error(id: id, code: .forbidden, message: "'\(scope.pattern)' is read-only"))
          return
        }
        reply(session, .error(id: id, code: .scopeUnavailable, message: "'\(name)' names no element of '\(scope.pattern)'"))
        return
      case .scope(let scope, let found):
        guard scope.isWritable, found.embed != nil else {
          reply(session, .error(id: id, code: .forbidden, message: "'\(scope.pattern)' is read-only"))
          return
        }
        bound = found
        session.sendCache = Session.SendCache(name: name, bound: found)
      }
    }
    // No copy of the root state is held across the reduce (it would make the reduce copy the
    // state it mutates: a whole collection per element action).
    if let exists = bound.exists, !exists(currentState()) {
      reply(session, .error(id: id, code: .scopeUnavailable, message: "'\(name)' does not exist right now"))
      return
    }
    let action: Action
    if let cached = session.sendCache?.action, session.sendCache?.actionJSON == json {
      action = cached
    } else {
      do {
        action = try bound.embed!(json)
      } catch {
        let message = (error as? ActionDecodingFailure)?.message ?? "action: \(error)"
        reply(session, .error(id: id, code: .badAction, message: message))
        return
      }
      session.sendCache?.actionJSON = json
      session.sendCache?.action = action
    }
    store.assumeIsolated(on: loop) { store in _ = store.send(action) }
    actionsFromClients += 1
    if let id { reply(session, .ack(id: id, rev: revision.value)) }
  }

  // MARK: - Pushes

  @inlinable
  func scheduleSync() {
    guard subscriptionTally.value > 0, revision.markSyncScheduled() else { return }
    loop.execute { [self] in
      self.assumeIsolated(on: loop) { core in core.syncAll() }
    }
  }

  /// Called by the revision counter when an effect's action changed the state.
  @usableFromInline
  nonisolated func stateDidChange() {
    guard subscriptionTally.value > 0, revision.markSyncScheduled() else { return }
    loop.execute { [self] in
      self.assumeIsolated(on: loop) { core in core.syncAll() }
    }
  }

  /// Brings every session's subscriptions up to the current revision (coalescing whatever
  /// happened since their last push), skipping clients that are not reading.
  @usableFromInline
  func syncAll() {
    revision.clearSyncScheduled()
    let current = revision.value
    guard current != syncedRevision || deferredSyncDue else { return }
    deferredSyncDue = false
    syncedRevision = current
    let root = currentState()
    // Watchers of the same scope share one child state, one encoding and one patch frame.
    let cache = SyncCache(now: Platform.monotonicSeconds())
    for session in sessions.values where session.phase == .open && !session.subscriptions.isEmpty {
      // A client whose socket is full is behind: rather than queue patches it would read
      // stale, remember to push once, coalesced, when it has drained.
      if session.channel.isBackedUp {
        session.needsSync = true
        continue
      }
      syncPushes(session, root: root, cache: cache)
      // Sent now rather than at the end of the loop iteration: with many watchers, the first
      // ones read their patch while the host is still writing to the others.
      flush(session)
      session.channel.flush()
    }
    if let deferredUntil = cache.deferredUntil { scheduleDeferredSync(at: deferredUntil) }
  }

  /// Runs ``syncAll()`` again when the scopes it put off may be synced, even if no action
  /// arrives in between (the last change must still reach their watchers).
  private func scheduleDeferredSync(at time: Double) {
    guard !deferredSyncScheduled else { return }
    deferredSyncScheduled = true
    let delay = max(0, time - Platform.monotonicSeconds())
    Task { [self] in
      try? await Task.sleep(for: .seconds(delay))
      self.runDeferredSync()
    }
  }

  private func runDeferredSync() {
    deferredSyncScheduled = false
    deferredSyncDue = true
    syncAll()
  }

  /// What one ``syncAll()`` computed once for all the sessions watching the same scope: the
  /// scope's state and JSON at the current revision, and each patch frame by its base. A
  /// class, so that a watcher's lookup copies nothing out of it.
  @usableFromInline
  final class SyncCache {
    /// One scope's share of a sync.
    final class Scope {
      /// The scope's state now; `nil` when it no longer exists.
      let state: (any ScopeState)?
      /// Its JSON, once a watcher needed it.
      var json: JSON?
      /// Encoded patch frames by subscription id and base revision (usually one entry: the
      /// watchers of a scope share both); empty when the diff had no operations.
      var frames: [(sub: Int64, base: Int64, frame: [UInt8])] = []

      init(state: (any ScopeState)?) { self.state = state }

      func frame(sub: Int64, base: Int64) -> [UInt8]? {
        for entry in frames where entry.sub == sub && entry.base == base { return entry.frame }
        return nil
      }
    }

    var scopes: [String: Scope] = [:]
    /// When this sync started (monotonic seconds).
    let now: Double
    /// The earliest time a scope put off by its cost may be synced, if any was.
    var deferredUntil: Double?

    init(now: Double) { self.now = now }
  }

  /// Pushes the `_host` figures to their watchers and drops connections that never said
  /// hello; run once a second.
  func tick() {
    let now = Platform.monotonicSeconds()
    for session in sessions.values
    where session.phase == .awaitingHello && now - session.acceptedAt > configuration.helloTimeout {
      fail(
        session, code: .helloRequired, id: nil,
        "no hello within \(Int(configuration.helloTimeout)) s of connecting")
      finishBatch(session)
    }
    let current = revision.value
    actionsPerSecond = current - revisionAtLastTick
    revisionAtLastTick = current
    let figures = hostFigures()
    let state = TypedScopeState(figures)
    for session in sessions.values where session.phase == .open {
      var wrote = false
      for sub in session.subscriptions.values {
        // Only with a new revision: a patch's `rev` always moves past its `base`.
        guard case .host = sub.target, sub.lastRevision != revision.value,
          !sub.lastState.isEqual(to: state)
        else { continue }
        if session.channel.isBackedUp {
          session.needsSync = true
          break
        }
        push(sub, state: state, json: hostFiguresJSON(figures), in: session, cache: nil)
        wrote = true
      }
      if wrote { flush(session) }
    }
  }

  /// Appends a patch (or `unsubscribed`) for every subscription of `session` whose state
  /// changed since its last message. Without a `cache` (replies: read your writes) every
  /// scope is computed afresh and nothing waits for its cost.
  @inlinable
  func syncPushes(
    _ session: Session<State, Action>, root: State? = nil, cache: SyncCache? = nil
  ) {
    guard !session.subscriptions.isEmpty else { return }
    let root = root ?? currentState()
    var figures: HostFigures?
    for sub in session.orderedSubscriptions {
      sync(sub, in: session, root: root, figures: &figures, cache: cache)
    }
  }

  /// Appends a patch (or `unsubscribed`) for `sub` if its state changed since its last message.
  @usableFromInline
  func sync(
    _ sub: Subscription<State, Action>, in session: Session<State, Action>, root: State,
    figures: inout HostFigures?, cache: SyncCache?
  ) {
    switch sub.target {
    case .host:
      // The figures change without actions (uptime); they are pushed with the next revision,
      // so that a patch's `rev` always moves past its `base`.
      guard sub.lastRevision != revision.value else { return }
      let current = figures ?? hostFigures()
      figures = current
      let state = TypedScopeState(current)
      if !sub.lastState.isEqual(to: state) {
        push(sub, state: state, json: hostFiguresJSON(current), in: session, cache: nil)
      }
    case .scope(let bound):
      let shared = cache?.scopes[sub.scopeName]
      if let shared, let state = shared.state,
        let frame = shared.frame(sub: sub.id, base: sub.lastRevision)
      {
        // The hot path of a fan-out: another watcher of this scope at the same base already
        // got this exact patch (or found nothing to send).
        sub.lastState = state
        guard !frame.isEmpty, let json = shared.json else { return }
        session.output.append(contentsOf: frame)
        sub.lastJSON = json
        sub.lastRevision = revision.value
        return
      }
      // A scope whose last push was expensive (a whole large collection re-encoded) waits a
      // few times that cost before the next one, so that its watchers cannot make the host
      // spend most of its time encoding: coalescing by cost, not only by batch. Replies
      // (read your writes) never wait: they sync without a cache.
      if let cache, let notBefore = scopeNotBefore[sub.scopeName], cache.now < notBefore {
        cache.deferredUntil = min(cache.deferredUntil ?? notBefore, notBefore)
        return
      }
      let started = cache == nil ? 0 : Platform.monotonicSeconds()
      defer {
        if cache != nil {
          let cost = Platform.monotonicSeconds() - started
          if cost > Self.costlySync {
            scopeNotBefore[sub.scopeName] = started + cost * configuration.costlyPushWaitFactor
          } else if scopeNotBefore[sub.scopeName] != nil {
            scopeNotBefore[sub.scopeName] = nil
          }
        }
      }
      let scope = shared ?? SyncCache.Scope(state: bound.state(root))
      if shared == nil { cache?.scopes[sub.scopeName] = scope }
      guard let state = scope.state else {
        session.subscriptions[sub.id] = nil
        HostMessage.unsubscribed(sub: sub.id, reason: "scope_gone").encodeFrame(into: &session.output)
        log(.debug, "scope_gone session=\(session.id) sub=\(sub.id) scope=\(sub.scopeName)")
        return
      }
      guard !sub.lastState.isEqual(to: state) else {
        // Every watcher at this base has the same state: none of them needs anything.
        if cache != nil { scope.frames.append((sub.id, sub.lastRevision, [])) }
        return
      }
      let json: JSON
      if let encoded = scope.json {
        json = encoded
      } else {
        guard let encoded = try? state.json() else { return }
        json = encoded
        scope.json = encoded
      }
      push(sub, state: state, json: json, in: session, cache: scope)
    }
  }

  /// Appends the patch from `sub`'s last JSON to `json`, and records its frame in `cache` for
  /// the other watchers of the scope at the same base.
  private func push(
    _ sub: Subscription<State, Action>, state: any ScopeState, json: JSON,
    in session: Session<State, Action>, cache: SyncCache.Scope?
  ) {
    let rev = revision.value
    let ops = JSONPatch.diff(from: sub.lastJSON, to: json)
    sub.lastState = state
    guard !ops.isEmpty else {
      cache?.frames.append((sub.id, sub.lastRevision, []))
      return
    }
    let start = session.output.count
    HostMessage.patch(sub: sub.id, base: sub.lastRevision, rev: rev, ops: ops.map(\.json))
      .encodeFrame(into: &session.output)
    if session.output.count - start - 4 > configuration.maxFrameSize {
      // A patch this large cannot be sent; the subscription ends rather than diverge.
      session.output.removeSubrange(start...)
      session.subscriptions[sub.id] = nil
      HostMessage.unsubscribed(sub: sub.id, reason: "frame_too_large").encodeFrame(into: &session.output)
      log(.warning, "session=\(session.id) sub=\(sub.id) ended: patch over the frame limit")
      return
    }
    cache?.frames.append((sub.id, sub.lastRevision, Array(session.output[start...])))
    sub.lastJSON = json
    sub.lastRevision = rev
  }

  // MARK: - Output

  /// Queues a reply behind the pushes it must follow.
  @inlinable
  func reply(_ session: Session<State, Action>, _ message: HostMessage) {
    if case .error(_, let code, let text) = message {
      log(.warning, "session=\(session.id) \(code.rawValue): \(text)")
    }
    var id: Int64?
    switch message {
    case .state(let replyID, _, _, _), .scopes(let replyID, _): id = replyID
    default: id = nil
    }
    _ = append(message, to: &session.heldReplies, id: id, scope: nil)
  }

  /// Encodes `message`, answering `frame_too_large` instead when it would exceed the limit.
  @inlinable
  func append(
    _ message: HostMessage, to buffer: inout [UInt8], id: Int64?, scope: String?
  ) -> Bool {
    let start = buffer.count
    message.encodeFrame(into: &buffer)
    let length = buffer.count - start - 4
    guard length > configuration.maxFrameSize else { return true }
    buffer.removeSubrange(start...)
    let what = scope.map { "the state of '\($0)'" } ?? "the reply"
    HostMessage.error(
      id: id, code: .frameTooLarge,
      message: "\(what) would take \(length) bytes, over this host's \(configuration.maxFrameSize)-byte frame limit"
    ).encodeFrame(into: &buffer)
    return false
  }

  /// Sends owed pushes, then the replies that waited for them.
  private func releaseHeldReplies(_ session: Session<State, Action>) {
    syncPushes(session)
    if !session.heldReplies.isEmpty {
      session.output.append(contentsOf: session.heldReplies)
      session.heldReplies.removeAll(keepingCapacity: true)
    }
  }

  @inlinable
  func finishBatch(_ session: Session<State, Action>) {
    if session.phase != .closing || !session.heldReplies.isEmpty {
      if session.phase == .open { syncPushes(session) }
      session.output.append(contentsOf: session.heldReplies)
      session.heldReplies.removeAll(keepingCapacity: true)
    }
    flush(session)
    if session.phase == .closing {
      session.channel.close()
    } else {
      updateBackpressure(session)
    }
  }

  @inlinable
  func flush(_ session: Session<State, Action>) {
    guard !session.output.isEmpty else { return }
    bytesOut += Int64(session.output.count)
    session.channel.write(session.output)
    session.output.removeAll(keepingCapacity: true)
  }

  @inlinable
  func updateBackpressure(_ session: Session<State, Action>) {
    let backedUp = session.channel.outboundBytes > configuration.outboundHighWaterMark
    if backedUp != session.isReadingPaused {
      session.isReadingPaused = backedUp
      session.channel.setReadingPaused(backedUp)
      log(.debug, "session=\(session.id) reading \(backedUp ? "paused: client is not reading" : "resumed")")
    }
  }

  /// Answers a fatal protocol error and closes the connection after this batch.
  @usableFromInline
  func fail(_ session: Session<State, Action>, code: ErrorCode, id: Int64?, _ message: String) {
    log(.warning, "session=\(session.id) \(code.rawValue): \(message); closing")
    HostMessage.error(id: id, code: code, message: message).encodeFrame(into: &session.heldReplies)
    session.phase = .closing
  }

  // MARK: - Shutdown

  /// Says `bye` to every client and closes their connections.
  func shutdown(reason: String) {
    isShuttingDown = true
    for session in sessions.values {
      finishBatch(session)
      HostMessage.bye(reason: reason).encodeFrame(into: &session.output)
      flush(session)
      session.phase = .closing
      session.channel.close()
    }
    log(.info, "shutdown: said bye to \(sessions.count) client(s)")
    sessions.removeAll()
  }

  // MARK: - State

  @inlinable
  func currentState() -> State {
    store.assumeIsolated(on: loop) { $0.state }
  }

  private func encode(
    _ state: any ScopeState, session: Session<State, Action>, id: Int64, scope: String
  ) -> JSON? {
    do {
      return try state.json()
    } catch {
      reply(session, .error(id: id, code: .scopeUnavailable, message: "the state of '\(scope)' cannot be written as JSON: \(error)"))
      return nil
    }
  }

  private func hostFigures() -> HostFigures {
    HostFigures(
      connections: sessions.count,
      subscriptions: sessions.values.reduce(0) { $0 + $1.subscriptions.count },
      revision: revision.value,
      actionsReduced: revision.value,
      actionsFromClients: actionsFromClients,
      actionsPerSecond: actionsPerSecond,
      bytesIn: bytesIn,
      bytesOut: bytesOut,
      uptimeSeconds: Int64(Platform.monotonicSeconds() - startedAt))
  }

  private func hostFiguresJSON(_ figures: HostFigures? = nil) -> JSON {
    (try? JSONValueEncoder().encode(figures ?? hostFigures())) ?? .null
  }
}

/// Whether bytes are well-formed UTF-8 (only asked once a frame already failed to parse).
@usableFromInline
func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
  String(validating: bytes, as: UTF8.self) != nil
}

/// Told when an action changed the root state.
@usableFromInline
protocol RevisionObserver: AnyObject, Sendable {
  /// Called on the event loop, inside the reduce that bumped the revision.
  func stateDidChange()
}

/// The root revision: bumped by the host's wrapper reducer each time an action is reduced.
///
/// Written only on the event loop (where the store reduces) but read by the loop's callers
/// too, so it is an atomic rather than actor state.
@usableFromInline
final class RevisionCounter: Sendable {
  private let revision = Atomic<Int64>(0)
  private let syncScheduled = Atomic<Bool>(false)
  /// Set once, by ``StoreHost/start``, before the store can reduce anything (the store is not
  /// reachable by any client or effect until the host listens, and the actor hop to start
  /// listening orders this write before every read); never written again.
  nonisolated(unsafe) private weak var observer: (any RevisionObserver)?

  @usableFromInline var value: Int64 { revision.load(ordering: .relaxed) }

  @usableFromInline init() {}

  @usableFromInline
  func setObserver(_ observer: any RevisionObserver) {
    self.observer = observer
  }

  /// Counts one reduced action and tells the observer.
  @usableFromInline
  func didReduce() {
    revision.add(1, ordering: .relaxed)
    observer?.stateDidChange()
  }

  /// Returns `true` when this call scheduled the sync (it was not scheduled already).
  @usableFromInline
  func markSyncScheduled() -> Bool {
    !syncScheduled.exchange(true, ordering: .acquiringAndReleasing)
  }

  func clearSyncScheduled() {
    syncScheduled.store(false, ordering: .releasing)
  }
}

/// Wraps the app's root reducer to count revisions.
@usableFromInline
struct RevisionCountingReducer<Base: Reducer>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let counter: RevisionCounter

  @usableFromInline
  init(base: Base, counter: RevisionCounter) {
    self.base = base
    self.counter = counter
  }

  @inlinable
  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let effect = base.reduce(into: &state, action: action)
    counter.didReduce()
    return effect
  }

  /// The store's reduce function: the base's, with its `body` evaluated once here rather
  /// than on every action, then counted.
  @inlinable
  func _makeReduce() -> _ReduceFunction<Base.State, Base.Action> {
    let reduce = base._makeReduce()
    let counter = self.counter
    return { state, action in
      let effect = reduce(&state, action)
      counter.didReduce()
      return effect
    }
  }
}
