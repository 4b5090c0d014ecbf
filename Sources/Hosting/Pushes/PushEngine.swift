@_spi(ChangeTracking) import Architecture
import Wire

/// Keeps every subscription's client up to date: computes the patches owed since each
/// subscription's last message and queues them in its session's output.
///
/// Pushes are coalesced: the engine runs after a batch of requests (``syncAll(_:force:)``,
/// scheduled by ``HostCore``), after effects, and before replies that must follow them
/// (``releaseHeldReplies(_:)``: read your writes), each time from the last state sent to the
/// current one. Watchers of the same scope share one child state, one encoding and one patch
/// frame per sync (``SyncCache``). Clients that are not reading are skipped and catch up with
/// one coalesced patch when they drain. A scope whose pushes are expensive waits a few times
/// their cost before its next one.
@usableFromInline
final class PushEngine<State: Sendable, Action: Sendable> {
  @usableFromInline let store: LoopStore<State, Action>
  let revision: RevisionCounter
  let output: SessionOutput
  let statistics: HostStatistics
  let log: HostLogger
  /// The most bytes one frame may have.
  let maxFrameSize: Int
  /// How many times a costly push's duration its scope waits before the next push.
  let costlyPushWaitFactor: Double
  /// Sends tails their entries, when the host keeps a history (set once, at start).
  var tails: TailPump<State, Action>?

  /// The latest JSON made of each scope, with the revision it is of. Every subscription sent a
  /// scope's state at that revision holds this one value, so the subscribers of a scope share
  /// its JSON instead of holding a copy each (see ``sharedJSON(of:scope:)``).
  private var versions: [String: ScopeVersion] = [:]
  /// The revision the last ``syncAll(_:force:)`` brought everyone to.
  private var syncedRevision: Int64 = 0
  /// Per scope name: when an expensive scope may be pushed again (see `sync`).
  private var scopeNotBefore: [String: Double] = [:]
  /// The bytes the change logs of the identified arrays watched through this host may keep
  /// together (``HostConfiguration/changeLogMemoryLimit``): a watcher whose position was
  /// dropped gets the whole collection once.
  let changeLogBudget: IdentifiedArrayChangeBudget
  /// A push that took longer than this (seconds) is costly (see `costlyPushWaitFactor`).
  private static var costlySync: Double { 0.000_5 }

  init(
    store: LoopStore<State, Action>, revision: RevisionCounter,
    output: SessionOutput, statistics: HostStatistics, log: HostLogger,
    configuration: HostConfiguration
  ) {
    self.store = store
    self.revision = revision
    self.output = output
    self.statistics = statistics
    self.log = log
    self.maxFrameSize = configuration.maxFrameSize
    self.costlyPushWaitFactor = configuration.costlyPushWaitFactor
    self.changeLogBudget = IdentifiedArrayChangeBudget(
      limit: configuration.changeLogMemoryLimit, estimatingSizeWith: ByteEstimate.of(any:))
  }

  /// A scope's JSON at a revision.
  private struct ScopeVersion {
    let revision: Int64
    let json: JSON
  }

  // MARK: - Shared versions

  /// The JSON of `state`, the state of scope `name` now: the one already made at this
  /// revision, for a snapshot or a push, when there is one.
  ///
  /// - Throws: What encoding the state throws.
  func sharedJSON(of state: any ScopeState, scope name: String) throws -> JSON {
    let current = self.revision.value
    if let version = self.versions[name], version.revision == current { return version.json }
    let json = try state.json()
    self.versions[name] = ScopeVersion(revision: current, json: json)
    return json
  }

  /// What a new subscription to `state`, the state of scope `name` now, starts from: the
  /// snapshot's JSON and, for a state with identified arrays, what the subscription keeps
  /// instead of a copy of it (see ``TrackedBase``). A state without them shares its JSON with
  /// the other subscribers at this revision, as ``sharedJSON(of:scope:)`` does.
  ///
  /// - Throws: What encoding the state throws.
  func snapshot(
    of state: any ScopeState, scope name: String
  ) throws -> (json: JSON, tracked: TrackedBase?) {
    let current = self.revision.value
    if let version = self.versions[name], version.revision == current { return (version.json, nil) }
    let encoded = try state.trackedJSON()
    guard encoded.collections.isEmpty else {
      return (try encoded.fullJSON(), encoded.base(budget: self.changeLogBudget))
    }
    self.versions[name] = ScopeVersion(revision: current, json: encoded.skeleton)
    return (encoded.skeleton, nil)
  }

  /// Forgets the versions no later subscriber can share (run once a second): those older than
  /// the current revision, and those of scopes nobody watches any more. A version still in use
  /// is held by its subscriptions; one nobody holds is freed.
  func dropStaleVersions(_ sessions: [Int: Session<State, Action>].Values) {
    guard !self.versions.isEmpty else { return }
    let current = self.revision.value
    self.versions = self.versions.filter { name, version in
      version.revision == current
        && sessions.contains { session in
          session.orderedSubscriptions.contains { $0.scopeName == name }
        }
    }
  }

  // MARK: - Syncing everyone

  /// Brings every session's subscriptions up to the current revision (coalescing whatever
  /// happened since their last push), skipping clients that are not reading.
  ///
  /// - Parameters:
  ///   - sessions: Every session of the host.
  ///   - force: Sync even if the revision did not move (scopes put off by their cost are due).
  /// - Returns: When scopes put off by their cost may be synced, if any were: call again then,
  ///   with `force`, even if no action arrives in between.
  func syncAll(_ sessions: [Int: Session<State, Action>].Values, force: Bool) -> Double? {
    let current = self.revision.value
    guard current != self.syncedRevision || force else { return nil }
    self.syncedRevision = current
    let root = self.store.state
    // Watchers of the same scope share one child state, one encoding and one patch frame.
    let cache = SyncCache(now: Platform.monotonicSeconds())
    for session in sessions where session.phase == .open && !session.subscriptions.isEmpty {
      // A client whose socket is full is behind: rather than queue patches it would read
      // stale, remember to push once, coalesced, when it has drained.
      if session.channel.isBackedUp {
        if !session.needsSync { self.releaseOldValues(of: session) }
        session.needsSync = true
        continue
      }
      self.syncPushes(session, root: root, cache: cache)
      // Sent now rather than at the end of the loop iteration: with many watchers, the first
      // ones read their patch while the host is still writing to the others.
      self.output.flush(session)
      session.channel.flush()
    }
    return cache.deferredUntil
  }

  /// Lets go of what `session`'s subscriptions keep of the states they last sent, once the
  /// client stops reading and the states move on: the old values would otherwise stay alive
  /// for as long as it does not read (one per subscription; with large values and many
  /// stalled clients, the host's memory). Its next patch, once it reads again, replaces each
  /// whole state instead. Subscriptions with identified arrays hold no old elements (their
  /// change logs are bounded by ``changeLogBudget``).
  func releaseOldValues(of session: Session<State, Action>) {
    for sub in session.subscriptions.values where sub.tracked == nil {
      guard case .scope = sub.target else { continue }
      sub.lastState = nil
      sub.lastJSON = .null
      sub.isReleased = true
    }
  }

  /// Pushes the `_host` figures to their watchers; run once a second (the figures change
  /// without actions).
  func pushHostFigures(_ sessions: [Int: Session<State, Action>].Values) {
    let figures = self.statistics.figures()
    let state = TypedScopeState(figures)
    for session in sessions where session.phase == .open {
      var wrote = false
      for sub in session.subscriptions.values {
        // Only with a new revision: a patch's `rev` always moves past its `base`.
        guard case .host = sub.target, sub.lastRevision != self.revision.value,
          sub.lastState?.isEqual(to: state) != true
        else { continue }
        if session.channel.isBackedUp {
          session.needsSync = true
          break
        }
        self.push(sub, state: state, json: self.statistics.json(figures), in: session, cache: nil)
        wrote = true
      }
      if wrote { self.output.flush(session) }
    }
  }

  // MARK: - Syncing one session

  /// Sends `session`'s tails the entries they are owed (see ``TailPump``), if the host keeps a
  /// history.
  @usableFromInline
  func pumpTails(_ session: Session<State, Action>, beforeReplies: Bool) {
    self.tails?.pump(session, beforeReplies: beforeReplies)
  }

  /// Sends owed pushes (patches, and the entries owed to tails), then the replies that waited
  /// for them.
  func releaseHeldReplies(_ session: Session<State, Action>) {
    self.syncPushes(session)
    self.tails?.pump(session, beforeReplies: true)
    self.output.appendHeldReplies(session)
  }

  /// Appends a patch (or `unsubscribed`) for every subscription of `session` whose state
  /// changed since its last message. Without a `cache` (replies: read your writes) every
  /// scope is computed afresh and nothing waits for its cost.
  @inlinable
  func syncPushes(
    _ session: Session<State, Action>, root: State? = nil, cache: SyncCache? = nil
  ) {
    guard !session.subscriptions.isEmpty else { return }
    let root = root ?? self.store.state
    var figures: HostFigures?
    for sub in session.orderedSubscriptions {
      self.sync(sub, in: session, root: root, figures: &figures, cache: cache)
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
      guard sub.lastRevision != self.revision.value else { return }
      let current = figures ?? self.statistics.figures()
      figures = current
      let state = TypedScopeState(current)
      if sub.lastState?.isEqual(to: state) != true {
        self.push(sub, state: state, json: self.statistics.json(current), in: session, cache: nil)
      }
    case .scope(let bound):
      let shared = cache?.scopes[sub.scopeName]
      if let shared, let state = shared.state,
        (sub.tracked == nil) == (shared.trackedBase == nil),
        let frame = shared.frame(sub: sub.id, base: sub.lastRevision)
      {
        // The hot path of a fan-out: another watcher of this scope at the same base already
        // got this exact patch (or found nothing to send).
        // (A frame computed for a watcher of the other kind, tracked or not, is not taken: its
        // base to adopt is not in the cache.)
        if let base = shared.trackedBase {
          sub.tracked = base
          guard !frame.isEmpty else { return }
          session.output.append(contentsOf: frame)
          sub.lastRevision = self.revision.value
          return
        }
        sub.lastState = state
        guard !frame.isEmpty, let json = shared.json else { return }
        session.output.append(contentsOf: frame)
        sub.lastJSON = json
        sub.isReleased = false
        sub.lastRevision = self.revision.value
        return
      }
      // A scope whose last push was expensive (a whole large collection re-encoded) waits a
      // few times that cost before the next one, so that its watchers cannot make the host
      // spend most of its time encoding: coalescing by cost, not only by batch. Replies
      // (read your writes) never wait: they sync without a cache.
      if let cache, let notBefore = self.scopeNotBefore[sub.scopeName], cache.now < notBefore {
        cache.deferredUntil = min(cache.deferredUntil ?? notBefore, notBefore)
        return
      }
      let started = cache == nil ? 0 : Platform.monotonicSeconds()
      defer {
        if cache != nil {
          let cost = Platform.monotonicSeconds() - started
          if cost > Self.costlySync {
            self.scopeNotBefore[sub.scopeName] = started + cost * self.costlyPushWaitFactor
          } else if self.scopeNotBefore[sub.scopeName] != nil {
            self.scopeNotBefore[sub.scopeName] = nil
          }
        }
      }
      let scope = shared ?? SyncCache.Scope(state: bound.state(root))
      if shared == nil { cache?.scopes[sub.scopeName] = scope }
      guard let state = scope.state else {
        session.subscriptions[sub.id] = nil
        HostMessage.unsubscribed(sub: sub.id, reason: "scope_gone").encodeFrame(
          into: &session.output)
        self.log(.debug, "scope_gone session=\(session.id) sub=\(sub.id) scope=\(sub.scopeName)")
        return
      }
      if let base = sub.tracked {
        self.pushTracked(sub, base: base, state: state, in: session, cache: scope)
        return
      }
      guard sub.lastState?.isEqual(to: state) != true else {
        // Every watcher at this base has the same state: none of them needs anything.
        if cache != nil { scope.frames.append((sub.id, sub.lastRevision, [])) }
        return
      }
      let json: JSON
      if let encoded = scope.json {
        json = encoded
      } else {
        guard let encoded = try? self.sharedJSON(of: state, scope: sub.scopeName) else { return }
        json = encoded
        scope.json = encoded
      }
      self.push(sub, state: state, json: json, in: session, cache: scope)
    }
  }

  /// Appends the patch from what a subscription to a scope with identified arrays last got to
  /// `state`: O(changes), from the arrays' change logs (see ``TrackedJSON``).
  private func pushTracked(
    _ sub: Subscription<State, Action>, base: TrackedBase, state: any ScopeState,
    in session: Session<State, Action>, cache: SyncCache.Scope
  ) {
    let now: TrackedJSON
    if let encoded = cache.tracked {
      now = encoded
    } else {
      guard let encoded = try? state.trackedJSON() else { return }
      now = encoded
      cache.tracked = encoded
    }
    guard let ops = try? now.operations(from: base) else { return }
    let next = cache.trackedBase ?? now.base(budget: self.changeLogBudget)
    cache.trackedBase = next
    guard !ops.isEmpty else {
      sub.tracked = next
      cache.frames.append((sub.id, sub.lastRevision, []))
      return
    }
    guard self.appendPatch(sub, ops: ops, in: session, cache: cache) else { return }
    sub.tracked = next
    sub.lastRevision = self.revision.value
  }

  /// Appends the patch from `sub`'s last JSON to `json`, and records its frame in `cache` for
  /// the other watchers of the scope at the same base.
  private func push(
    _ sub: Subscription<State, Action>, state: any ScopeState, json: JSON,
    in session: Session<State, Action>, cache: SyncCache.Scope?
  ) {
    let ops =
      sub.isReleased
      ? [JSONPatchOperation.replace(path: .root, value: json)]
      : JSONPatch.diff(from: sub.lastJSON, to: json)
    sub.lastState = state
    guard !ops.isEmpty else {
      cache?.frames.append((sub.id, sub.lastRevision, []))
      return
    }
    guard self.appendPatch(sub, ops: ops, in: session, cache: cache) else { return }
    sub.lastJSON = json
    sub.isReleased = false
    sub.lastRevision = self.revision.value
  }

  /// Appends a patch of `ops` to `sub`'s session and records its frame in `cache`; ends the
  /// subscription instead, and returns false, when the patch is over the frame limit.
  private func appendPatch(
    _ sub: Subscription<State, Action>, ops: [JSONPatchOperation],
    in session: Session<State, Action>, cache: SyncCache.Scope?
  ) -> Bool {
    let rev = self.revision.value
    let start = session.output.count
    HostMessage.patch(sub: sub.id, base: sub.lastRevision, rev: rev, ops: ops.map(\.json))
      .encodeFrame(into: &session.output)
    if session.output.count - start - 4 > self.maxFrameSize {
      // A patch this large cannot be sent; the subscription ends rather than diverge.
      session.output.removeSubrange(start...)
      session.subscriptions[sub.id] = nil
      HostMessage.unsubscribed(sub: sub.id, reason: "frame_too_large").encodeFrame(
        into: &session.output)
      self.log(.warning, "session=\(session.id) sub=\(sub.id) ended: patch over the frame limit")
      return false
    }
    cache?.frames.append((sub.id, sub.lastRevision, Array(session.output[start...])))
    return true
  }
}
