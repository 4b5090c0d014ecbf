import Architecture
import Wire

/// The heart of a host: holds every client session and routes each event to the part of the
/// host that handles it.
///
/// ```
///   accept ─────▶ AdmissionPolicy ─▶ a Session, or refused
///   read ───────▶ FrameDecoder ─▶ RequestRouter ─┬─▶ replies ────────┐
///                                                └─▶ ActionIntake ───┤ (reduce, then ack)
///   end of batch, effects, drain ─▶ PushEngine ─▶ patches ──────────┤
///                                                                   ▼
///                                            SessionOutput ─▶ the client's channel
///   after each read ─▶ InputBudget: over it, the largest holders are closed (`overloaded`)
///   tick (1 s) ─▶ hello and frame timeouts, HostStatistics, `_host` pushes, MemoryReclaimer
/// ```
///
/// The core is an actor whose executor is the host's event loop, and the root ``Store`` runs
/// on the same loop. A batch of frames read from a socket is therefore decoded, reduced and
/// answered on the loop thread with no hop at all (`assumeIsolated`), and actions sent by
/// effects reach the store as ordinary jobs on that same thread. Everything here runs one
/// batch at a time, so actions from all connections and effects are reduced one at a time,
/// in arrival order per connection. The parts the core routes to are plain values and
/// classes confined to the loop with it.
@usableFromInline
final actor HostCore<State: Sendable, Action: Sendable>: RevisionObserver, HistoryScheduler,
  PastStateReceiver
{
  @usableFromInline nonisolated let loop: EventLoop
  @usableFromInline nonisolated var unownedExecutor: UnownedSerialExecutor {
    loop.asUnownedSerialExecutor()
  }

  @usableFromInline let store: LoopStore<State, Action>
  @usableFromInline let revision: RevisionCounter
  @usableFromInline let configuration: HostConfiguration
  @usableFromInline let appName: String
  @usableFromInline let log: HostLogger

  let admission: AdmissionPolicy
  @usableFromInline let budget: InputBudget
  @usableFromInline let reclaimer: MemoryReclaimer
  /// The holders bounded in bytes, for the `_host` figures and the reclaimer.
  let retention: RetainedMemory
  @usableFromInline let statistics: HostStatistics
  @usableFromInline let output: SessionOutput
  @usableFromInline let pushes: PushEngine<State, Action>
  @usableFromInline let router: RequestRouter<State, Action>
  /// The journal, snapshots and acknowledgement gate of a durable host (`nil` in memory).
  @usableFromInline nonisolated let durability: Durability<State, Action>?
  /// The history (PROTOCOL.md §8); `nil` when the host keeps none (`historyLimit` 0).
  let history: HistoryService<State, Action>?
  /// Notifications to systemd (`READY=1`, `STATUS=`, `WATCHDOG=1`…); `nil` outside it.
  @usableFromInline let systemd: SystemdLink?

  /// Every connection, from its admission until the loop reports it closed (``didClose``). A
  /// session the host closes stays here meanwhile, its phase `.closing`: the loop reports a
  /// close after the work that made it has returned, so that no walk over these sessions, or
  /// over one session's subscriptions and tails, sees one removed under it.
  @usableFromInline var sessions: [Int: Session<State, Action>] = [:]
  /// Subscriptions over all sessions: with none, reduced actions schedule no sync.
  @usableFromInline nonisolated let subscriptionTally = SubscriptionTally()
  private var nextSessionID = 1
  private var isShuttingDown = false
  private var deferredSyncScheduled = false
  @usableFromInline var listener: UnixListener?
  var isStopped = false
  /// The pending once-a-second ``tick()`` on the loop's timer (see ``startTicking()``).
  private var tickTimer: UInt64?
  /// Opened by ``stop(reason:)``: waiting for it needs no call into the core (see ``StopLatch``).
  nonisolated let stopLatch = StopLatch()

  @usableFromInline
  init(
    loop: EventLoop,
    store: StoreActor<State, Action>,
    revision: RevisionCounter,
    recorder: ReductionRecorder<Action>,
    scopes: ScopeRegistry<State, Action>,
    configuration: HostConfiguration,
    appName: String,
    durability: Durability<State, Action>? = nil,
    history parts: HistoryParts<State, Action>? = nil
  ) {
    let store = LoopStore(store: store, loop: loop, recorder: recorder)
    let log = HostLogger(level: configuration.logLevel)
    let statistics = HostStatistics(revision: revision, subscriptions: self.subscriptionTally)
    let reclaimer = MemoryReclaimer()
    let output = SessionOutput(
      maxFrameSize: configuration.maxFrameSize,
      highWaterMark: configuration.outboundHighWaterMark, log: log, statistics: statistics,
      reclaimer: reclaimer, gate: durability?.gate)
    let pushes = PushEngine(
      store: store, revision: revision, output: output, statistics: statistics, log: log,
      configuration: configuration)
    var history: HistoryService<State, Action>?
    if let historyLog = parts?.log, let pastStates = parts?.builder {
      let tails = TailPump(
        source: historyLog, output: output, maxFrameSize: configuration.maxFrameSize)
      pushes.tails = tails
      // A durable host's history reaches back to its oldest snapshot on disk; tails read
      // memory's entries (their backfill from disk is the service's).
      var source: any HistorySource<State, Action> = historyLog
      if let durability {
        let journalHistory = JournalHistory(memory: historyLog, pastStates: durability.pastStates)
        durability.onSnapshot = { journalHistory.snapshotsDidChange() }
        source = journalHistory
      }
      history = HistoryService(
        store: store, source: source, log: historyLog, builder: pastStates, tails: tails,
        registry: scopes, revision: revision, configuration: configuration, output: output,
        pushes: pushes, hostLog: log)
    }
    self.history = history
    self.systemd = SystemdLink(configuration: configuration, loop: loop, log: log, app: appName)
    self.loop = loop
    self.store = store
    self.revision = revision
    self.configuration = configuration
    self.appName = appName
    self.log = log
    self.admission = AdmissionPolicy(configuration: configuration)
    self.budget = InputBudget(
      limit: configuration.maxBufferedBytes, frameTimeout: configuration.frameTimeout)
    self.reclaimer = reclaimer
    let retention = RetainedMemory(
      changeLogs: pushes.changeLogBudget,
      history: parts.map { parts in
        let log = parts.log
        return ({ log.records.count }, { log.bytes }, { log.droppedBytes })
      },
      unfinishedFrames: { [budget = self.budget] in budget.buffered })
    statistics.memory = { retention.figures }
    self.retention = retention
    self.statistics = statistics
    self.output = output
    self.pushes = pushes
    self.durability = durability
    self.router = RequestRouter(
      store: store, registry: scopes, revision: revision, configuration: configuration,
      appName: appName, log: log, output: output, statistics: statistics, pushes: pushes,
      intake: ActionIntake(
        store: store, registry: scopes, revision: revision, statistics: statistics,
        output: output, gate: durability?.gate),
      history: history,
      features: (durability == nil ? [] : ["durable"])
        + (history == nil ? [] : [HistoryService<State, Action>.feature]))
    durability?.currentState = { [store, revision] in (store.state, revision.value) }
    durability?.gate.output = output
  }

  @usableFromInline var sessionCount: Int { sessions.count }

  // MARK: - Connection events

  /// Admits a new connection from `client` (`nil` when its credentials are unknown), or
  /// refuses it (answered, then closed) when the admission policy says so. Returns the session
  /// to route later events to.
  @usableFromInline
  func accept(channel: any ClientChannel, client: ConnectingClient?) -> Session<State, Action>? {
    let session = Session<State, Action>(
      id: nextSessionID, channel: channel, processID: client?.processID ?? 0,
      userID: client?.userID ?? UInt32.max, maxFrameSize: configuration.maxFrameSize,
      tally: subscriptionTally)
    nextSessionID += 1
    let decision = admission.decide(
      client: client, connections: sessions.count, isShuttingDown: isShuttingDown)
    guard case .admit(let role) = decision else {
      if case .refuse(let message, let reason) = decision {
        output.refuse(session, message, because: reason)
      }
      return nil
    }
    session.role = role
    sessions[session.id] = session
    statistics.connections = sessions.count
    statistics.didConnect(userID: session.userID, role: role)
    log(.info, "connect session=\(session.id) pid=\(session.processID) uid=\(session.userID) role=\(role)")
    return session
  }

  /// Forgets a closed connection and its subscriptions; called by the loop, never from inside
  /// the host's own work (see ``sessions``).
  @usableFromInline
  func didClose(session id: Int, reason: String) {
    guard let session = sessions.removeValue(forKey: id) else { return }
    statistics.connections = sessions.count
    statistics.didDisconnect(userID: session.userID, role: session.role)
    session.phase = .closing
    log(
      .info,
      "disconnect session=\(session.id) subscriptions=\(session.subscriptions.count) (\(reason))")
    session.subscriptions.removeAll()
    history?.sessionDidClose(session)
    // Its unfinished frame and its largest write (the channel's buffer) are freed with it.
    reclaimer.noteRelease(budget.release(session) + session.largestWrite)
  }

  /// Handles every complete frame in `bytes`, then answers the whole batch in one write.
  @inlinable
  func didRead(session id: Int, _ bytes: UnsafeRawBufferPointer) {
    guard let session = sessions[id], session.phase != .closing else { return }
    statistics.bytesIn += Int64(bytes.count)
    session.bytesReceived += Int64(bytes.count)
    session.decoder.append(bytes)
    let revisionBefore = revision.value
    handleFrames(session)
    endBatch(session, revisionBefore: revisionBefore)
  }

  /// After a batch of frames was handled: ends the journal's batch (its records are written
  /// before the batch's replies leave), accounts the bytes still buffered, answers the batch,
  /// closes the largest holders of unfinished frames if the budget is overdrawn, and schedules
  /// the pushes of the revisions reduced.
  @inlinable
  func endBatch(_ session: Session<State, Action>, revisionBefore: Int64) {
    if let durability {
      durability.journal.isInBatch = false
      if revision.value != revisionBefore { durability.journal.endBatch() }
    }
    let finished = budget.account(session)
    if finished >= 1 << 20 { reclaimer.noteRelease(finished) }
    finishBatch(session)
    if budget.isOverdrawn { closeLargestHolders() }
    if revision.value != revisionBefore { scheduleSync() }
  }

  /// Handles the complete frames buffered for `session`, in order — until one of them must be
  /// answered before the next is read (a `get` with `at` being rebuilt off the loop). The
  /// journal holds the records of the actions they send until ``endBatch(_:revisionBefore:)``.
  @inlinable
  func handleFrames(_ session: Session<State, Action>) {
    durability?.journal.isInBatch = true
    do {
      while session.phase != .closing, !session.isAwaitingPastState,
        let frame = try session.decoder.nextFrame()
      {
        router.handle(frame: frame, from: session)
      }
    } catch {
      switch error {
      case .emptyFrame:
        output.fail(
          session, code: .badFrame, id: nil,
          "a frame's length prefix is 0; frames carry a JSON object")
      case .frameTooLarge(let length, let limit):
        output.fail(
          session, code: .frameTooLarge, id: nil,
          "a frame announces \(length) bytes; this host accepts at most \(limit)")
      }
    }
  }

  /// Closes the connections holding the most unfinished frames until the clients' buffered
  /// bytes are back under the budget.
  @usableFromInline
  func closeLargestHolders() {
    let total = budget.buffered
    for session in budget.evictions(sessions.values) {
      output.fail(
        session, code: .overloaded, id: nil,
        "the host holds \(total) bytes of unfinished frames from its clients, over its limit of "
          + "\(budget.limit) (--max-buffered); this connection held \(session.bufferedBytes) of "
          + "them, among the most, so it is closed; send each frame whole, without pausing")
      finishBatch(session)
    }
  }

  /// A backed-up client drained its queue: resume reading and send what it missed.
  @usableFromInline
  func didDrain(session id: Int) {
    guard let session = sessions[id], session.phase == .open else { return }
    if session.needsSync {
      session.needsSync = false
      pushes.syncPushes(session)
      output.flush(session)
    }
    if session.needsTailPump {
      pushes.tails?.pump(session, beforeReplies: false)
      output.flush(session)
    }
    output.updateBackpressure(session)
  }

  /// Ends a batch: owed pushes, then the held replies, leave in one write; a failed session
  /// closes, others are paused or resumed by their back-pressure.
  @inlinable
  func finishBatch(_ session: Session<State, Action>) {
    if session.phase != .closing || !session.heldReplies.isEmpty {
      if session.phase == .open {
        pushes.syncPushes(session)
        // Only with tails open: reaching the tail pump costs metadata lookups in generic code.
        if session.hasTails {
          pushes.pumpTails(session, beforeReplies: !session.heldReplies.isEmpty)
        }
      }
      output.appendHeldReplies(session)
    }
    output.flush(session)
    if session.phase == .closing {
      // Its unfinished frame will never be read: it leaves the budget now, not when the loop
      // reports the close (``didClose``), after the connections read in the same round — they
      // must not be closed for bytes nobody holds any more.
      let unread = budget.release(session)
      if unread > 0 { reclaimer.noteRelease(unread) }
      // A session whose last acks wait for the journal closes once they have left.
      if !session.isParked { session.channel.close() }
    } else {
      output.updateBackpressure(session)
    }
  }

  /// Runs ``tick()`` once a second on the loop's own timer until the host stops.
  ///
  /// On the loop, not in a task: a program whose cooperative threads are all busy or blocked
  /// (a test that reads a socket synchronously, an app doing heavy work) must still retry a
  /// failed journal write, drop stalled frames and release held acknowledgements.
  func startTicking() {
    guard !isStopped else { return }
    tickTimer = loop.scheduleTimer(after: .seconds(1)) { [weak self] in
      // The timer runs on the loop, the core's executor.
      guard let self else { return }
      self.assumeIsolated(on: self.loop) { core in
        core.tickTimer = nil
        guard !core.isStopped else { return }
        core.tick()
        core.startTicking()
      }
    }
  }

  /// Cancels the pending tick.
  func stopTicking() {
    if let tickTimer { loop.cancelTimer(tickTimer) }
    tickTimer = nil
  }

  /// Drops connections that never said hello and frames that stopped arriving, pushes the
  /// `_host` figures to their watchers, and gives freed memory back; run once a second.
  func tick() {
    let now = Platform.monotonicSeconds()
    for session in sessions.values where admission.isHelloOverdue(session, now: now) {
      output.fail(
        session, code: .helloRequired, id: nil,
        "no hello within \(Int(configuration.helloTimeout)) s of connecting")
      finishBatch(session)
    }
    for session in sessions.values where budget.isStalled(session, now: now) {
      output.fail(
        session, code: .badFrame, id: nil,
        "a frame stalled: \(session.bufferedBytes) bytes of it arrived, then none for "
          + "\(Int(budget.frameTimeout)) s (--frame-timeout); send each frame whole, without pausing")
      finishBatch(session)
    }
    statistics.tick()
    systemd?.update(revision: revision.value, clients: sessions.count)
    durability?.tick()
    pushes.pushHostFigures(sessions.values)
    pushes.dropStaleVersions(sessions.values)
    reclaimer.noteRelease(retention.releaseUnwatched())
    let trimStarted = Platform.monotonicSeconds()
    if reclaimer.trimIfDue(now: trimStarted) {
      let milliseconds = Int((Platform.monotonicSeconds() - trimStarted) * 1000)
      log(.debug, "gave freed memory back to the system (\(milliseconds) ms)")
    }
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

  /// Brings every session's subscriptions up to the current revision.
  @usableFromInline
  func syncAll(force: Bool = false) {
    // No push shows a state whose journal record is not handed to the operating system.
    durability?.writePending()
    revision.clearSyncScheduled()
    if let deferredUntil = pushes.syncAll(sessions.values, force: force) {
      scheduleDeferredSync(at: deferredUntil)
    }
  }

  /// Runs ``syncAll(force:)`` again when the scopes it put off may be synced, even if no
  /// action arrives in between (the last change must still reach their watchers).
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
    syncAll(force: true)
  }

  // MARK: - Shutdown

  /// Says `bye` to every client and closes their connections.
  func shutdown(reason: String) {
    isShuttingDown = true
    // Written and flushed first: the acknowledgements it held leave before the byes.
    durability?.finish()
    let count = sessions.count
    for session in sessions.values {
      finishBatch(session)
      HostMessage.bye(reason: reason).encodeFrame(into: &session.output)
      output.flush(session)
      session.phase = .closing
      session.channel.close()
    }
    log(.info, "shutdown: said bye to \(count) client\(count == 1 ? "" : "s")")
    sessions.removeAll()
  }
}
