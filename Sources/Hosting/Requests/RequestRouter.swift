import Wire

/// Reads one request frame of a session and answers it: the handshake, `scopes`, `get`,
/// `subscribe`, `unsubscribe` and `ping` here; `send` goes to the ``ActionIntake``.
///
/// Replies are queued with ``SessionOutput/reply(_:_:)``, behind the pushes they must follow;
/// errors that end the connection with ``SessionOutput/fail(_:code:id:_:)``.
@usableFromInline
struct RequestRouter<State: Sendable, Action: Sendable> {
  let store: LoopStore<State, Action>
  @usableFromInline let registry: ScopeRegistry<State, Action>
  let revision: RevisionCounter
  let configuration: HostConfiguration
  let appName: String
  let log: HostLogger
  @usableFromInline let output: SessionOutput
  let statistics: HostStatistics
  let pushes: PushEngine<State, Action>
  @usableFromInline let intake: ActionIntake<State, Action>
  /// Answers `history`, `tail` and `get` with `at`; `nil` when the host keeps no history.
  @usableFromInline let history: HistoryService<State, Action>?
  /// The optional parts of the protocol this host offers, listed in `welcome`.
  let features: [String]

  /// Handles one frame's payload.
  @inlinable
  func handle(frame: ArraySlice<UInt8>, from session: Session<State, Action>) {
    // The most frequent request, a `send` as clients write it, skips building its envelope;
    // the general path below reads the same message from it.
    if session.phase != .awaitingHello,
      case .send(let id, let scope, let action)? =
        ClientMessage(compactSend: frame)
    {
      self.intake.send(session, id: id, scope: scope, action: action)
      return
    }
    guard let message = self.message(in: frame, from: session) else { return }
    switch message {
    case .hello(let version, let client):
      self.hello(session, version: version, client: client)
    case .scopes(let id):
      self.output.reply(session, .scopes(id: id, scopes: self.registry.listing))
    case .get(let id, let scope, nil):
      self.get(session, id: id, scope: scope)
    case .get(let id, let scope, let at?):
      guard let history else {
        self.output.reply(
          session,
          .error(
            id: id, code: .revisionUnavailable,
            message: "this host keeps no history, so it cannot read revision \(at)"))
        return
      }
      history.get(session, id: id, scope: scope, at: at)
    case .subscribe(let id, let scope):
      self.subscribe(session, id: id, scope: scope)
    case .unsubscribe(let id, let sub):
      self.unsubscribe(session, id: id, sub: sub)
    case .send(let id, let scope, let action):
      self.intake.send(session, id: id, scope: scope, action: action)
    case .ping(let id):
      self.output.reply(session, .pong(id: id))
    case .history(let id, let since, let limit, let scope) where self.history != nil:
      self.history?.history(session, id: id, since: since, limit: limit, scope: scope)
    case .tail(let id, let since, let scope) where self.history != nil:
      self.history?.tail(session, id: id, since: since, scope: scope)
    case .history(let id, _, _, _), .tail(let id, _, _):
      // Unknown to a host without the "history" feature (§8).
      self.output.reply(
        session,
        .error(
          id: id, code: .badMessage,
          message: "unknown message type '\(message.type)'; this host keeps no history"))
    }
  }

  /// The request in `frame`, or `nil` once the error it deserves is answered.
  @usableFromInline
  func message(
    in frame: ArraySlice<UInt8>, from session: Session<State, Action>
  ) -> ClientMessage? {
    let json: JSON
    do {
      json = try JSON(parsing: frame)
    } catch {
      if session.phase == .awaitingHello {
        self.output.fail(
          session, code: .helloRequired, id: nil,
          "the first frame must be a hello; it is not valid JSON")
      } else if !isValidUTF8(frame) {
        self.output.fail(session, code: .badFrame, id: nil, "the payload is not valid UTF-8")
      } else {
        self.output.reply(
          session,
          .error(id: nil, code: .badJSON, message: "the payload is not valid JSON: \(error)"))
      }
      return nil
    }
    guard case .object(let object) = json else {
      if session.phase == .awaitingHello {
        self.output.fail(
          session, code: .helloRequired, id: nil, "the first frame must be a hello object")
      } else {
        self.output.reply(
          session,
          .error(id: nil, code: .badJSON, message: "the top level of a frame must be a JSON object")
        )
      }
      return nil
    }
    if session.phase == .awaitingHello, object["type"] != .string("hello") {
      let type: String
      if case .string(let name)? = object["type"] {
        type = "'\(name)'"
      } else {
        type = "a frame without a string 'type'"
      }
      self.output.fail(
        session, code: .helloRequired, id: nil, "the first frame must be a hello, not \(type)")
      return nil
    }
    do {
      return try ClientMessage(json: json)
    } catch {
      if session.phase == .awaitingHello {
        self.output.fail(session, code: error.code, id: error.id, error.message)
      } else {
        self.output.reply(session, .error(id: error.id, code: error.code, message: error.message))
      }
      return nil
    }
  }

  // MARK: - Requests

  @usableFromInline
  func hello(_ session: Session<State, Action>, version: Int64?, client: String?) {
    guard session.phase == .awaitingHello else {
      self.output.reply(
        session, .error(id: nil, code: .badMessage, message: "hello: the handshake is already done")
      )
      return
    }
    guard let version else {
      self.output.fail(
        session, code: .unsupportedProtocol, id: nil,
        "hello: missing integer member 'protocol'; this host speaks protocol 1")
      return
    }
    guard version == 1 else {
      self.output.fail(
        session, code: .unsupportedProtocol, id: nil,
        "hello: protocol \(version) is not supported; this host speaks protocol 1")
      return
    }
    session.phase = .open
    session.clientName = client
    self.log(.debug, "hello session=\(session.id) client=\(client ?? "-")")
    self.output.reply(
      session,
      .welcome(
        protocol: 1, host: self.configuration.hostName, app: self.appName,
        session: String(session.id), features: self.features))
  }

  @usableFromInline
  func get(_ session: Session<State, Action>, id: Int64, scope name: String) {
    switch self.resolve(session, id: id, scope: name, root: self.store.state) {
    case nil:
      return
    case .host:
      self.output.reply(
        session,
        .state(id: id, scope: name, rev: self.revision.value, state: self.statistics.json()))
    case .scope(_, let state)?:
      guard let json = self.encode(state, session: session, id: id, scope: name) else { return }
      self.output.reply(session, .state(id: id, scope: name, rev: self.revision.value, state: json))
    }
  }

  @usableFromInline
  func subscribe(_ session: Session<State, Action>, id: Int64, scope name: String) {
    guard
      self.output.admitsAnotherSubscription(
        session, limit: self.configuration.maxSubscriptionsPerConnection, id: id)
    else { return }
    let target: Subscription<State, Action>.Target
    let state: any ScopeState
    let json: JSON
    var tracked: TrackedBase?
    switch self.resolve(session, id: id, scope: name, root: self.store.state) {
    case nil:
      return
    case .host:
      let figures = self.statistics.figures()
      target = .host
      state = TypedScopeState(figures)
      json = self.statistics.json(figures)
    case .scope(let bound, let current)?:
      // Shared with the other subscribers of this scope at this revision, unless the state
      // holds identified arrays: then the subscription keeps cursors into their change logs.
      do {
        (json, tracked) = try self.pushes.snapshot(of: current, scope: name)
      } catch {
        self.output.reply(
          session,
          .error(
            id: id, code: .scopeUnavailable,
            message: "the state of '\(name)' cannot be written as JSON: \(error)"))
        return
      }
      target = .scope(bound)
      state = current
    }
    // The snapshot must follow every push already owed to this connection, and every later
    // patch for the new subscription must follow the snapshot.
    self.pushes.releaseHeldReplies(session)
    let sub = Subscription(
      id: session.nextSubscriptionID, scopeName: name, target: target, state: state, json: json,
      tracked: tracked, revision: self.revision.value)
    let message = HostMessage.subscribed(
      id: id, sub: sub.id, scope: name, rev: sub.lastRevision, state: json)
    guard self.output.append(message, to: &session.output, id: id, scope: name) else { return }
    session.nextSubscriptionID += 1
    session.subscriptions[sub.id] = sub
    self.log(.debug, "subscribe session=\(session.id) sub=\(sub.id) scope=\(name)")
  }

  @usableFromInline
  func unsubscribe(_ session: Session<State, Action>, id: Int64, sub: Int64) {
    if let history, history.unsubscribe(session, id: id, sub: sub) { return }
    guard session.subscriptions[sub] != nil else {
      self.output.reply(
        session,
        .error(
          id: id, code: .notSubscribed,
          message: "unsubscribe: this connection has no subscription \(sub)"))
      return
    }
    // Pushes owed for earlier replies go out while the subscription still exists; after the
    // `ok`, nothing names it again.
    self.pushes.releaseHeldReplies(session)
    session.subscriptions[sub] = nil
    self.output.reply(session, .ok(id: id))
  }

  // MARK: - Scopes

  private enum Resolution {
    case host
    case scope(BoundScope<State, Action>, any ScopeState)
  }

  /// Looks a scope up for `get` and `subscribe`, answering the error when it fails.
  private func resolve(
    _ session: Session<State, Action>, id: Int64?, scope name: String, root: State
  ) -> Resolution? {
    switch self.registry.lookup(name) {
    case .host:
      return .host
    case .unknown:
      self.output.replyUnknownScope(session, id: id, scope: name)
      return nil
    case .unavailable(let scope):
      self.output.replyNoElement(
        session, id: id, scope: name, of: scope, isMalformed: true, root: root)
      return nil
    case .scope(let scope, let bound):
      guard let state = bound.state(root) else {
        if scope.elementIDs != nil {
          self.output.replyNoElement(
            session, id: id, scope: name, of: scope, isMalformed: false, root: root)
        } else {
          self.output.reply(
            session,
            .error(id: id, code: .scopeUnavailable, message: "'\(name)' does not exist right now"))
        }
        return nil
      }
      return .scope(bound, state)
    }
  }

  private func encode(
    _ state: any ScopeState, session: Session<State, Action>, id: Int64, scope: String
  ) -> JSON? {
    do {
      return try state.json()
    } catch {
      self.output.reply(
        session,
        .error(
          id: id, code: .scopeUnavailable,
          message: "the state of '\(scope)' cannot be written as JSON: \(error)"))
      return nil
    }
  }
}

/// Whether bytes are well-formed UTF-8 (only asked once a frame already failed to parse).
func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
  String(validating: bytes, as: UTF8.self) != nil
}
