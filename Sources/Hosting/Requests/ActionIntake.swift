import Wire

/// The one place where a client's action enters the root store: its scope is resolved, the
/// action decoded, reduced, and acknowledged.
///
/// ```
///   send{id, scope, action} ─▶ target ─▶ decode ─▶ reduce ─▶ acknowledge ─▶ ack{id, rev}
///                              (the session's send cache       (a reply: it waits for the
///                               skips both for a repeat)        pushes it must follow)
/// ```
///
/// Reducing and acknowledging are separate steps, so that whatever must happen between them
/// (an action written down before its `ack` leaves) has one place to go.
@usableFromInline
struct ActionIntake<State: Sendable, Action: Sendable> {
  @usableFromInline let store: LoopStore<State, Action>
  @usableFromInline let registry: ScopeRegistry<State, Action>
  @usableFromInline let revision: RevisionCounter
  @usableFromInline let statistics: HostStatistics
  @usableFromInline let output: SessionOutput
  /// A durable host's gate: sends are refused while the journal cannot be written, and a
  /// reduced action's ack waits for its record (`nil` in memory).
  @usableFromInline let gate: AckGate?

  /// Handles `send{id, scope, action}`: reduces the action and acknowledges it, or answers
  /// the error that stopped it (nothing is reduced then).
  ///
  /// The hot path (a client repeating a send to the same scope) stays in this one function:
  /// the lookup and the decoding are taken from the session's send cache, and only a miss
  /// calls out to ``target(_:id:scope:)`` or ``decode(_:for:session:id:)``.
  @inlinable
  func send(_ session: Session<State, Action>, id: Int64?, scope name: String, action json: JSON) {
    guard self.maySend(session, id: id) else { return }
    let bound: BoundScope<State, Action>
    if let cache = session.sendCache, cache.name == name {
      bound = cache.bound
    } else {
      guard let found = self.target(session, id: id, scope: name) else { return }
      bound = found
    }
    // No copy of the root state is held across the reduce (it would make the reduce copy the
    // state it mutates: a whole collection per element action).
    if let exists = bound.exists, !exists(self.store.state) {
      self.replyMissing(session, id: id, scope: name)
      return
    }
    let action: Action
    if let cached = session.sendCache?.action, session.sendCache?.actionJSON == json {
      action = cached
    } else {
      guard let decoded = self.decode(json, for: bound, session: session, id: id) else { return }
      action = decoded
    }
    if let gate = self.gate {
      // Nothing is reduced that could not be journaled: no ack for an unwritten action, and
      // no hole in the journal's revisions.
      guard gate.admitsActions else {
        self.refuseUnjournaled(session, id: id)
        return
      }
      self.reduce(action, from: session, scope: name, json: json)
      gate.holdReplies(of: session)
    } else {
      self.reduce(action, from: session, scope: name, json: json)
    }
    self.acknowledge(session, id: id)
  }

  /// The writable scope `name` names, remembered in the session's send cache; `nil` once the
  /// error is answered.
  @inlinable
  func target(
    _ session: Session<State, Action>, id: Int64?, scope name: String
  ) -> BoundScope<State, Action>? {
    switch self.registry.lookup(name) {
    case .host:
      self.output.reply(session, .error(id: id, code: .forbidden, message: "'_host' is read-only"))
    case .unknown:
      self.output.replyUnknownScope(session, id: id, scope: name)
    case .unavailable(let scope):
      guard scope.isWritable else {
        self.output.reply(
          session, .error(id: id, code: .forbidden, message: "'\(scope.pattern)' is read-only"))
        return nil
      }
      self.output.replyNoElement(
        session, id: id, scope: name, of: scope, isMalformed: true, root: self.store.state)
    case .scope(let scope, let found):
      guard scope.isWritable, found.embed != nil else {
        self.output.reply(
          session, .error(id: id, code: .forbidden, message: "'\(scope.pattern)' is read-only"))
        return nil
      }
      session.sendCache = Session.SendCache(name: name, bound: found)
      return found
    }
    return nil
  }

  /// The root action for `json`, remembered in the session's send cache; `nil` once the
  /// error is answered.
  @inlinable
  func decode(
    _ json: JSON, for bound: BoundScope<State, Action>, session: Session<State, Action>,
    id: Int64?
  ) -> Action? {
    let action: Action
    do {
      action = try bound.embed!(json)
    } catch {
      self.replyBadAction(session, id: id, error)
      return nil
    }
    session.sendCache?.remember(action, decodedFrom: json)
    return action
  }

  /// Answers a send whose scope exists no more (an element removed, an optional child gone).
  @usableFromInline
  func replyMissing(_ session: Session<State, Action>, id: Int64?, scope name: String) {
    if case .scope(let scope, _) = self.registry.lookup(name), scope.elementIDs != nil {
      self.output.replyNoElement(
        session, id: id, scope: name, of: scope, isMalformed: false, root: self.store.state)
    } else {
      self.output.reply(
        session,
        .error(id: id, code: .scopeUnavailable, message: "'\(name)' does not exist right now"))
    }
  }

  /// Answers an action that does not decode: where and why, and — at an enum — its cases, and
  /// where to see the JSON each takes.
  @usableFromInline
  func replyBadAction(_ session: Session<State, Action>, id: Int64?, _ error: any Error) {
    var message = (error as? ActionDecodingFailure)?.message ?? "action: \(error)"
    if let scope = session.sendCache?.name, (error as? ActionDecodingFailure)?.listsCases == true {
      message += " ('storeclient actions \(scope)' shows the JSON each takes)"
    }
    self.output.reply(session, .error(id: id, code: .badAction, message: message))
  }

  /// Answers a send the journal cannot take now.
  @usableFromInline
  func refuseUnjournaled(_ session: Session<State, Action>, id: Int64?) {
    self.output.reply(
      session,
      .error(
        id: id, code: .unavailable,
        message: "the host cannot write its journal right now, so it accepts no actions; "
          + "nothing was changed; retry later"))
  }

  /// Reduces a client's action in the root store, now.
  @inline(__always)
  @inlinable
  func reduce(
    _ action: Action, from session: Session<State, Action>, scope: String, json: JSON
  ) {
    self.store.send(
      action,
      origin: .client(
        session: session.id, client: session.clientName, pid: session.processID,
        uid: session.userID, role: session.role),
      scope: scope, json: json)
    self.statistics.actionsFromClients += 1
  }

  /// Acknowledges the reduced action with the revision it produced (when the client asked).
  @inline(__always)
  @inlinable
  func acknowledge(_ session: Session<State, Action>, id: Int64?) {
    if let id { self.output.reply(session, .ack(id: id, rev: self.revision.value)) }
  }
}
