import Remote
import Wire

/// A scripted stand-in for a host, for the client's unit tests only — NOT the real
/// `storehost`. It speaks just enough of the protocol over a real Unix socket (hello, scopes,
/// get, subscribe, unsubscribe, send, ping) on its own event loop, keeps a root revision and
/// JSON scopes, and lets a test misbehave on purpose: inject patches with a wrong `base`,
/// make a scope disappear, crash (close without `bye`) or shut down (with `bye`).
///
/// The end-to-end tests in storeclientTests use the real daemon.
actor FakeHost {
  /// How an action changes the scopes; throw ``Rejection`` to answer with an `error`.
  typealias Reducer = @Sendable (_ scope: String, _ action: JSON, _ scopes: inout [String: JSON])
    throws(Rejection) -> Void

  struct Rejection: Error {
    var code: ErrorCode
    var message: String
  }

  nonisolated let loop: EventLoop
  nonisolated let path: String
  nonisolated var unownedExecutor: UnownedSerialExecutor { self.loop.asUnownedSerialExecutor() }

  private(set) var scopes: [String: JSON]
  private(set) var revision: Revision
  private let reducer: Reducer
  private var listener: UnixListener?
  private var sessions: [ObjectIdentifier: Session] = [:]
  private var nextSession = 1
  /// Every client message received, in order, as compact JSON.
  private(set) var received: [String] = []
  /// Whether to answer `hello` at all (a peer that never answers, for timeout tests).
  var answersHello = true

  private final class Session {
    let connection: UnixConnection
    var decoder = FrameDecoder()
    var greeted = false
    var subscriptions: [Int64: (scope: String, rev: Revision, state: JSON)] = [:]
    var nextSub: Int64 = 1
    init(connection: UnixConnection) { self.connection = connection }
  }

  init(path: String, scopes: [String: JSON], revision: Revision = 0, reducer: @escaping Reducer) {
    self.loop = EventLoop(name: "fakehost")
    self.path = path
    self.scopes = scopes
    self.revision = revision
    self.reducer = reducer
  }

  /// A fake with a counter scope (`{"count":N,"isTimerRunning":false}`) that understands
  /// `incrementButtonTapped`, `decrementButtonTapped` and `set`, and a read-only `info` scope.
  static func counter(path: String, count: Int64 = 0, revision: Revision = 0) -> FakeHost {
    FakeHost(
      path: path,
      scopes: [
        "counter": J(#"{"count":\#(count),"isTimerRunning":false}"#),
        "info": J(#"{"version":"1"}"#),
      ],
      revision: revision
    ) { scope, action, scopes throws(Rejection) in
      guard scope == "counter" else {
        throw Rejection(code: .forbidden, message: "scope '\(scope)' is read-only")
      }
      guard case .object(var state) = scopes["counter"], case .int(let count) = state["count"]
      else { return }
      switch action {
      case J(#"{"incrementButtonTapped":{}}"#): state["count"] = .int(count + 1)
      case J(#"{"decrementButtonTapped":{}}"#): state["count"] = .int(count - 1)
      case .object(let object) where object["set"] != nil:
        guard case .object(let payload) = object["set"], case .int(let value) = payload["_0"]
        else { throw Rejection(code: .badAction, message: "action.set._0: expected integer") }
        state["count"] = .int(value)
      default:
        throw Rejection(code: .badAction, message: "action: unknown case of Counter.Action")
      }
      scopes["counter"] = .object(state)
    }
  }

  // MARK: - Lifecycle

  func start() throws(SocketError) {
    self.listener = try UnixListener.listen(
      path: self.path, replaceStaleSocket: true, loop: self.loop
    ) { connection in
      self.accept(connection)
    }
  }

  /// Serves a client over a stream made elsewhere (one end of a socketpair) instead of one
  /// accepted from the listener.
  func serve(fileDescriptor: Int32) {
    self.accept(UnixConnection.adopt(fileDescriptor: fileDescriptor, loop: self.loop))
  }

  /// Closes the listener and every connection without `bye`, like a crash.
  func crash() {
    self.listener?.close()
    self.listener = nil
    for session in self.sessions.values { session.connection.close() }
    self.sessions.removeAll()
  }

  /// Sends `bye{reason:"shutdown"}` to every client, then closes everything.
  func shutDown() {
    for session in self.sessions.values { self.write(.bye(reason: "shutdown"), to: session) }
    self.crash()
  }

  /// Stops the fake and its loop.
  nonisolated func stop() async {
    await self.crash()
    self.loop.shutdownGracefully()
  }

  // MARK: - Test controls

  var connectionCount: Int { self.sessions.count }

  func setAnswersHello(_ answers: Bool) { self.answersHello = answers }

  var subscriptionCount: Int { self.sessions.values.reduce(0) { $0 + $1.subscriptions.count } }

  /// Replaces a scope's state as an effect would: one revision, patches to subscribers.
  func setScope(_ scope: String, to state: JSON) {
    self.revision += 1
    self.scopes[scope] = state
    self.pushPatches()
  }

  /// Removes a scope's state: subscribers get `unsubscribed{reason:"scope_gone"}`.
  func removeScope(_ scope: String) {
    self.revision += 1
    self.scopes[scope] = nil
    for session in self.sessions.values {
      for (sub, subscription) in session.subscriptions where subscription.scope == scope {
        session.subscriptions[sub] = nil
        self.write(.unsubscribed(sub: sub, reason: "scope_gone"), to: session)
      }
    }
  }

  /// Sends a raw `patch` to every subscriber of `scope`, without updating the bookkeeping.
  func injectPatch(scope: String, base: Revision, rev: Revision, ops: [JSON]) {
    for session in self.sessions.values {
      for (sub, subscription) in session.subscriptions where subscription.scope == scope {
        self.write(.patch(sub: sub, base: base, rev: rev, ops: ops), to: session)
      }
    }
  }

  /// Sends raw bytes to every connection (to test protocol violations).
  func injectBytes(_ bytes: [UInt8]) {
    for session in self.sessions.values { session.connection.write(bytes) }
  }

  // MARK: - Protocol

  private func accept(_ connection: UnixConnection) {
    let session = Session(connection: connection)
    let key = ObjectIdentifier(session)
    self.sessions[key] = session
    connection.onRead = { bytes in
      let chunk = Array(bytes)
      self.received(chunk, session: session)
    }
    connection.onClose = { _ in
      self.assumeIsolated { _ = $0.sessions.removeValue(forKey: key) }
    }
  }

  private func received(_ chunk: [UInt8], session: Session) {
    var frames: [[UInt8]] = []
    try? session.decoder.decode(chunk) { frames.append(Array($0)) }
    for frame in frames { self.handle(frame, session: session) }
  }

  private func write(_ message: HostMessage, to session: Session) {
    session.connection.withOutboundBuffer { message.encodeFrame(into: &$0) }
  }

  private func handle(_ frame: [UInt8], session: Session) {
    guard let json = try? JSON(parsing: frame) else {
      self.write(.error(id: nil, code: .badJSON, message: "not JSON"), to: session)
      return
    }
    self.received.append(json.compactString)
    let message: ClientMessage
    do {
      message = try ClientMessage(json: json)
    } catch {
      self.write(.error(error), to: session)
      return
    }
    guard session.greeted else {
      guard case .hello = message else {
        self.write(.error(id: nil, code: .helloRequired, message: "hello first"), to: session)
        session.connection.close()
        return
      }
      if self.answersHello {
        session.greeted = true
        self.write(.welcome(protocol: 1, host: "fakehost/0", app: "fake", session: "\(self.nextSession)"), to: session)
        self.nextSession += 1
      }
      return
    }
    switch message {
    case .hello:
      self.write(.error(id: nil, code: .badMessage, message: "hello twice"), to: session)
    case .scopes(let id):
      let infos = self.scopes.keys.sorted().map {
        ScopeInfo(pattern: $0, writable: $0 == "counter", description: "The \($0) scope.")
      }
      self.write(.scopes(id: id, scopes: infos), to: session)
    case .get(let id, let scope, _):
      guard let state = self.lookUp(scope, id: id, session: session) else { return }
      self.write(.state(id: id, scope: scope, rev: self.revision, state: state), to: session)
    case .subscribe(let id, let scope):
      guard let state = self.lookUp(scope, id: id, session: session) else { return }
      let sub = session.nextSub
      session.nextSub += 1
      session.subscriptions[sub] = (scope, self.revision, state)
      self.write(
        .subscribed(id: id, sub: sub, scope: scope, rev: self.revision, state: state), to: session)
    case .unsubscribe(let id, let sub):
      guard session.subscriptions.removeValue(forKey: sub) != nil else {
        self.write(.error(id: id, code: .notSubscribed, message: "no subscription \(sub)"), to: session)
        return
      }
      self.write(.ok(id: id), to: session)
    case .send(let id, let scope, let action):
      guard self.lookUp(scope, id: id, session: session) != nil else { return }
      do {
        try self.reducer(scope, action, &self.scopes)
      } catch {
        self.write(.error(id: id, code: error.code, message: error.message), to: session)
        return
      }
      self.revision += 1
      self.pushPatches()
      if let id { self.write(.ack(id: id, rev: self.revision), to: session) }
    case .ping(let id):
      self.write(.pong(id: id), to: session)
    case .history(let id, _, _, _), .tail(let id, _, _):
      self.write(.error(id: id, code: .badMessage, message: "no history here"), to: session)
    }
  }

  private func lookUp(_ scope: String, id: Int64?, session: Session) -> JSON? {
    if let state = self.scopes[scope] { return state }
    self.write(
      .error(id: id, code: .unknownScope, message: "unknown scope '\(scope)'"), to: session)
    return nil
  }

  /// Diffs every subscription against the current state and sends the patches.
  private func pushPatches() {
    for session in self.sessions.values {
      for (sub, subscription) in session.subscriptions {
        guard let state = self.scopes[subscription.scope] else { continue }
        let ops = JSONPatch.diff(from: subscription.state, to: state)
        guard !ops.isEmpty else { continue }
        session.subscriptions[sub] = (subscription.scope, self.revision, state)
        self.write(
          .patch(sub: sub, base: subscription.rev, rev: self.revision, ops: ops.map(\.json)),
          to: session)
      }
    }
  }
}

/// A short, unique socket path in /tmp (Unix socket paths are limited to ~107 bytes).
func temporarySocketPath(_ tag: String = "rt") -> String {
  "/tmp/\(tag)-\(UInt32.random(in: 0...UInt32.max)).sock"
}
