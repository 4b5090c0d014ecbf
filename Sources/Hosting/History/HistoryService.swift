import Wire

/// Answers the history requests of PROTOCOL.md §8 — `history`, `tail` and `get` with `at` — from
/// a ``HistorySource``, for a host whose `welcome` lists `"history"`.
///
/// ```
///   history{since, limit, scope} ──▶ source.records ──▶ history{oldest, rev, entries}
///   tail{since, scope} ───────────▶ tailing{sub, rev}, then a Tail cursor ─▶ TailPump
///   get{scope, at} ──▶ source.replayPlan ──▶ PastStateBuilder (its own thread) ──▶ state{rev: at}
///                       (nothing to replay: answered at once)    (the connection's later
///                                                                 requests wait for it)
/// ```
@usableFromInline
struct HistoryService<State: Sendable, Action: Sendable> {
  let store: LoopStore<State, Action>
  let source: any HistorySource<State, Action>
  let log: HistoryLog<State, Action>
  let builder: PastStateBuilder<State, Action>
  let tails: TailPump<State, Action>
  let registry: ScopeRegistry<State, Action>
  let revision: RevisionCounter
  let configuration: HostConfiguration
  let output: SessionOutput
  let pushes: PushEngine<State, Action>
  let hostLog: HostLogger

  /// The feature name `welcome` lists.
  @usableFromInline static var feature: String { "history" }

  /// The entries a `history` request gets when it gives no `limit`.
  static var defaultLimit: Int { 100 }

  // MARK: - history

  /// Answers `history{id, since, limit, scope}`.
  @usableFromInline
  func history(
    _ session: Session<State, Action>, id: Int64, since: Int64?, limit: Int64?, scope: String?
  ) {
    var filter: ScopeFilter?
    if let scope {
      guard let resolved = self.filter(scope, session: session, id: id) else { return }
      filter = resolved
    }
    let count = Int(min(limit ?? Int64(Self.defaultLimit), ClientMessage.historyLimitMaximum))
    let request = PendingHistoryRead(
      id: id, since: since.map(self.clamp), limit: count,
      byteLimit: self.configuration.maxFrameSize, filter: filter, tail: nil)
    if self.readFromDisk(request, session: session) { return }
    let records = self.source.records(since: request.since, limit: count, matching: filter)
    self.output.reply(
      session,
      .history(
        id: id, oldest: self.source.oldestEntryRevision, rev: self.source.newestRevision,
        entries: records.map(HistoryEntry.init)))
  }

  /// A client's `since` within `0...now`: revisions start at 1, and nothing is after now (so
  /// that no arithmetic on it can overflow, whatever integer a client sends).
  func clamp(_ since: Int64) -> Int64 {
    min(max(since, 0), self.source.newestRevision)
  }

  /// The filter for a `scope` member: a declared pattern matches every scope it covers, any
  /// other name only itself. Answers `unknown_scope` for a name no pattern matches.
  private func filter(
    _ scope: String, session: Session<State, Action>, id: Int64
  ) -> ScopeFilter? {
    if self.registry.scopes.contains(where: { $0.pattern == scope }) {
      return ScopeFilter(pattern: scope)
    }
    if case .unknown = self.registry.lookup(scope) {
      self.output.replyUnknownScope(session, id: id, scope: scope)
      return nil
    }
    return ScopeFilter(name: scope)
  }

  // MARK: - tail

  /// Answers `tail{id, since, scope}`: `tailing`, then the entries after `since` (or after
  /// now) as the tail's pushes.
  @usableFromInline
  func tail(_ session: Session<State, Action>, id: Int64, since: Int64?, scope: String?) {
    guard
      self.output.admitsAnotherSubscription(
        session, limit: self.configuration.maxSubscriptionsPerConnection, id: id)
    else { return }
    var filter: ScopeFilter?
    if let scope {
      guard let resolved = self.filter(scope, session: session, id: id) else { return }
      filter = resolved
    }
    // `tailing` follows every push owed for earlier requests; the tail's entries follow it.
    self.pushes.releaseHeldReplies(session)
    let now = self.source.newestRevision
    let tail = Tail(
      id: session.nextSubscriptionID, filter: filter, next: (since.map(self.clamp) ?? now) + 1)
    HostMessage.tailing(id: id, sub: tail.id, rev: now).encodeFrame(into: &session.output)
    session.nextSubscriptionID += 1
    session.tails.append(tail)
    self.log.tailCount += 1
    self.hostLog(.debug, "tail session=\(session.id) sub=\(tail.id) since=\(tail.next - 1)")
    if since != nil { self.backfill(tail, session: session) }
  }

  /// Ends the tail `sub` of `session`, if it has one: its last entries go first, then `ok`.
  ///
  /// - Returns: Whether `sub` was a tail.
  @usableFromInline
  func unsubscribe(_ session: Session<State, Action>, id: Int64, sub: Int64) -> Bool {
    guard session.tails.contains(where: { $0.id == sub }) else { return false }
    self.pushes.releaseHeldReplies(session)
    // Found again, not by an index kept across the release: nothing is held across a call.
    session.tails.removeAll { $0.id == sub }
    self.log.tailCount -= 1
    self.output.reply(session, .ok(id: id))
    return true
  }

  /// Forgets the tails of a closed connection.
  func sessionDidClose(_ session: Session<State, Action>) {
    self.log.tailCount -= session.tails.count
    session.tails.removeAll()
    session.pendingPastState = nil
    session.pendingHistoryRead = nil
  }

  // MARK: - get with at

  /// Answers `get{id, scope, at}`: the scope's state at revision `at`, rebuilt off the loop
  /// when actions must be replayed (the connection's later requests wait for it).
  @usableFromInline
  func get(_ session: Session<State, Action>, id: Int64, scope name: String, at revision: Int64) {
    let bound: BoundScope<State, Action>
    switch self.registry.lookup(name) {
    case .host:
      self.output.reply(
        session,
        .error(
          id: id, code: .revisionUnavailable,
          message: "'_host' has no past states: its figures are not part of the history; "
            + "read it without 'at'"))
      return
    case .unknown:
      self.output.replyUnknownScope(session, id: id, scope: name)
      return
    case .unavailable(let scope):
      self.output.replyNoElement(
        session, id: id, scope: name, of: scope, isMalformed: true, root: self.store.state)
      return
    case .scope(_, let found):
      bound = found
    }
    if revision == self.revision.value {
      // Now: the live state, as a `get` without `at` reads it.
      let pending = PendingPastState(id: id, scope: name, bound: bound, revision: revision)
      self.answer(pending, .success(self.store.state), session: session)
      return
    }
    guard let plan = self.source.replayPlan(to: revision) else {
      let oldest = self.source.oldestStateRevision
      let newest = self.source.newestRevision
      let why =
        revision > newest
        ? "revision \(revision) does not exist yet (the host is at \(newest))"
        : "revision \(revision) is no longer kept"
      self.output.reply(
        session,
        .error(
          id: id, code: .revisionUnavailable,
          message: "\(why); the oldest available revision is \(oldest), the newest \(newest)"))
      return
    }
    let pending = PendingPastState(id: id, scope: name, bound: bound, revision: revision)
    guard plan.recordCount > 0 else {
      self.answer(pending, self.builder.rebuildNow(plan), session: session)
      return
    }
    session.pendingPastState = pending
    self.output.updateBackpressure(session)
    self.builder.rebuild(plan, for: session.id)
  }

  /// Answers a `get` with `at` with the rebuilt root state.
  func answer(
    _ pending: PendingPastState<State, Action>, _ result: Result<State, PastStateFailure>,
    session: Session<State, Action>
  ) {
    let root: State
    switch result {
    case .success(let state):
      root = state
    case .failure(let failure):
      self.output.reply(
        session,
        .error(id: pending.id, code: .revisionUnavailable, message: failure.description))
      return
    }
    guard let state = pending.bound.state(root) else {
      self.output.reply(
        session,
        .error(
          id: pending.id, code: .scopeUnavailable,
          message: "'\(pending.scope)' did not exist at revision \(pending.revision)"))
      return
    }
    let json: JSON
    do {
      json = try state.json()
    } catch {
      self.output.reply(
        session,
        .error(
          id: pending.id, code: .scopeUnavailable,
          message: "the state of '\(pending.scope)' cannot be written as JSON: \(error)"))
      return
    }
    self.output.reply(
      session, .state(id: pending.id, scope: pending.scope, rev: pending.revision, state: json))
  }
}

/// A `get` with `at` waiting for its past state.
struct PendingPastState<State, Action> {
  let id: Int64
  let scope: String
  let bound: BoundScope<State, Action>
  let revision: Int64
}
