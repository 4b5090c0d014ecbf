import Wire

/// A durable host's storage while it runs: the locked data directory, the journal every
/// reduced action goes into, the gate that holds acknowledgements until their records are
/// written, and the snapshots.
///
/// ```
///   Durability
///   ├── DataDirectory      DIR, 0700, locked (flock) against a second host
///   ├── Journal            records → write(2) once per loop iteration; fdatasync per policy
///   ├── AckGate            a session's output waits until its acked records are confirmed
///   ├── Snapshotter        state copied on the loop, written in the background; old files pruned
///   └── JournalArchive     reads records and snapshots back, off the loop (for history)
/// ```
///
/// ``HostCore`` drives it: ``writePending()`` before pushes, ``tick()`` every second,
/// ``finish()`` at shutdown. The snapshot trigger runs after each journal write.
///
/// `@unchecked Sendable`: confined to the host's event loop, like the journal; the snapshot's
/// completion is sent back to the loop before it touches any state here. Its properties read
/// after every journal write are `@exclusivity(unchecked)`, as the journal's are (loop thread
/// only, no overlapping access).
@usableFromInline
final class Durability<State: Sendable, Action>: @unchecked Sendable {
  let directory: DataDirectory
  @usableFromInline let journal: Journal
  /// The root action's JSON, for the records of effect and host actions; `nil` when it cannot
  /// be encoded.
  @usableFromInline let encodeRoot: (Action) -> JSON?
  @usableFromInline let gate: AckGate
  /// Read access to the journal and snapshots, for the history.
  let archive: JournalArchive
  /// What recovery found at start (`nil` for a new directory).
  let recovery: Recovery?
  /// Past states rebuilt from the files, for the history.
  let pastStates: PastStates<State, Action>
  private let snapshotter: Snapshotter<State>
  private let policy: SnapshotPolicy
  private let loop: EventLoop
  private let log: HostLogger
  @exclusivity(unchecked) private var lastSnapshotBytes: Int64
  @exclusivity(unchecked) private var lastSnapshotRevision: Int64
  @exclusivity(unchecked) private var isSnapshotting = false
  @exclusivity(unchecked) private var isFinished = false
  /// Called on the loop after a snapshot was written and older files pruned (the history
  /// reads what the directory keeps again).
  var onSnapshot: (() -> Void)?
  /// The root state and its revision now (set by the host before it reduces anything).
  @exclusivity(unchecked) var currentState: (() -> (state: State, revision: Int64))?

  init(
    directory: DataDirectory, journal: Journal, encodeRoot: @escaping (Action) -> JSON?,
    codec: StateCodec<State>,
    policy: SnapshotPolicy, recovery: Recovery?, snapshotRevision: Int64, snapshotBytes: Int64,
    pastStates: PastStates<State, Action>, loop: EventLoop, log: HostLogger
  ) {
    self.directory = directory
    self.journal = journal
    self.encodeRoot = encodeRoot
    self.gate = AckGate(journal: journal)
    self.archive = pastStates.archive
    self.pastStates = pastStates
    self.recovery = recovery
    self.snapshotter = Snapshotter(directory: directory.path, codec: codec)
    self.policy = policy
    self.loop = loop
    self.log = log
    self.lastSnapshotBytes = snapshotBytes
    self.lastSnapshotRevision = snapshotRevision
    journal.onConfirmed = { [unowned(unsafe) gate = self.gate] position in
      // The gate lives as long as this object, which owns the journal.
      gate.confirm(position)
    }
    journal.snapshotThreshold = policy.threshold(snapshotBytes: snapshotBytes)
    journal.onSnapshotDue = { [unowned(unsafe) self] in
      // The journal is owned by this object, so it never calls back after it is gone.
      self.snapshotIfDue()
    }
  }

  /// Writes the buffered records now (before pushes leave, so that no client sees a state
  /// whose record was not handed to the operating system).
  @inline(__always)
  func writePending() {
    self.journal.writePending()
  }

  /// Retries a failed journal write or flush; called every second.
  func tick() {
    self.journal.retry()
  }

  // MARK: - Snapshots

  /// Starts a snapshot if the journal grew enough since the last one (or an action could not
  /// be journaled) and none is being written.
  private func snapshotIfDue() {
    guard !self.isSnapshotting, !self.isFinished, self.journal.isAcceptingActions,
      self.journal.needsSnapshot
        || self.policy.isDue(
          journalBytes: self.journal.bytesSinceSnapshot, snapshotBytes: self.lastSnapshotBytes),
      let (state, revision) = self.currentState?(), revision > self.lastSnapshotRevision
    else { return }
    do {
      try self.journal.rotate(after: revision)
    } catch {
      self.log(
        .error, "cannot start a new journal segment for a snapshot: \(error); retrying later")
      return
    }
    self.isSnapshotting = true
    self.log(.debug, "snapshot of revision \(revision) started")
    self.snapshotter.write(state, revision: revision) { [self] result in
      self.loop.execute { self.didSnapshot(result) }
    }
  }

  private func didSnapshot(_ result: Result<Snapshotter<State>.Written, SnapshotFailure>) {
    self.isSnapshotting = false
    switch result {
    case .success(let written):
      self.lastSnapshotBytes = written.bytes
      self.journal.snapshotThreshold = self.policy.threshold(snapshotBytes: written.bytes)
      self.lastSnapshotRevision = max(self.lastSnapshotRevision, written.revision)
      self.onSnapshot?()
      self.log(
        .info,
        "snapshot of revision \(written.revision) written (\(written.bytes) bytes, "
          + "\(Int((written.seconds * 1000).rounded())) ms)")
    case .failure(let failure):
      // The journal since the last snapshot is intact, so nothing is lost: the next write
      // tries again.
      self.log(.error, "cannot write a snapshot: \(failure); the journal keeps everything")
    }
  }

  /// Waits until no snapshot is being written (any thread but the loop's: a snapshot's last
  /// step is on the loop).
  func waitUntilSnapshotsAreWritten() {
    self.snapshotter.waitUntilIdle()
  }

  // MARK: - Shutdown

  /// Writes and flushes the journal (releasing every held acknowledgement), then writes a
  /// final snapshot so that the next start replays nothing; called once, at shutdown.
  func finish() {
    guard !self.isFinished else { return }
    self.journal.finish()
    self.isFinished = true
  }

  /// Gives the directory up when the host could not start after opening it.
  @usableFromInline
  func abandon() {
    self.finish()
    self.gate.output = nil
    self.directory.unlock()
  }

  /// Writes the final snapshot and releases the directory's lock (after ``finish()``, once
  /// nothing is reduced any more). Blocks until the snapshot is on the device.
  func close() {
    self.gate.output = nil
    self.snapshotter.waitUntilIdle()
    if let (state, revision) = self.currentState?(), revision > self.lastSnapshotRevision {
      // The segment the next start appends to, so that recovery reads no older one.
      let segment = self.directory.file(DataLayout.segmentName(after: revision))
      if let file = try? SegmentFile(appendingTo: segment) { file.close() }
      switch self.snapshotter.writeAndWait(state, revision: revision) {
      case .success(let written):
        self.log(.info, "final snapshot of revision \(revision) written (\(written.bytes) bytes)")
      case .failure(let failure):
        self.log(
          .error, "cannot write the final snapshot: \(failure); the journal keeps everything")
      }
    }
    self.directory.unlock()
  }
}
