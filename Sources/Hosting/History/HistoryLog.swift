import Wire

/// The host's history in memory (PROTOCOL.md §8): the most recent reduced actions, and root
/// states at a few checkpoints among them, from which any retained revision's state is
/// reconstructed by replay.
///
/// ```
///   checkpoints:  C0 ─────────── C1 ─────────── C2 ─────────── C3
///   records:         r₀₊₁ … r₁      r₁₊₁ … r₂      r₂₊₁ … r₃      r₃₊₁ … now
///                 └──────────────────── at least `capacity` records ────────────┘
/// ```
///
/// - A record is appended for every reduced action, in revision order, by the
///   ``ReductionRecorder`` (to the ``RecordLog``, whose records are not generic, so that
///   appending costs no generic metadata lookup): revisions in ``records`` are contiguous.
/// - Every ``checkpointInterval`` records, the host copies the live root state (a copy-on-write
///   copy: the next reduce that mutates a shared part copies that part once) at the revision it
///   is at, outside any reduce (``takeCheckpoint(_:revision:)``).
/// - A checkpoint is also taken once the records since the last one hold a quarter of
///   ``byteLimit`` (each record's bytes are estimated as it is appended: its action's JSON and
///   decoded value), so that large actions do not wait for a quarter of ``capacity``.
/// - Records are dropped a checkpoint interval at a time, oldest first, with the checkpoint that
///   began them, while at least ``capacity`` records remain after the drop, or while the
///   records hold more than ``byteLimit``. The first checkpoint is therefore always the base of
///   the first record: every revision from it to now can be rebuilt from one checkpoint and at
///   most one interval of records.
///
/// Memory is bounded by `capacity + checkpointInterval` records and by `byteLimit` plus a
/// quarter of it (plus the actions of one event-loop batch, since checkpoints are taken
/// between batches), and about five checkpoints (which share whatever parts of the state did
/// not change between them), whoever reads the history and however slowly: tails are cursors
/// into these records, not queues.
///
/// Confined to the host's event loop. It implements ``HistorySource``, the seam through which a
/// durable host's journal can serve what memory no longer holds.
final class HistoryLog<State: Sendable, Action: Sendable> {
  /// A root state the history keeps, at the revision it was copied at.
  struct Checkpoint {
    let revision: Int64
    let state: State
  }

  /// The fewest recent records kept (unless they hold more than ``byteLimit``).
  let capacity: Int
  /// The most bytes the records may hold (estimated) once a checkpoint interval is dropped.
  let byteLimit: Int
  /// The records, appended by the recorder on every reduce.
  let log: RecordLog
  /// Their root actions, in the same order.
  let actions: ActionStore<Action>
  /// The retained checkpoints, oldest first; the first is the state before the first record.
  private(set) var checkpoints: [Checkpoint]

  /// A history that starts at `revision` with `state`, keeping at least `capacity` records.
  init(capacity: Int, byteLimit: Int = .max, initialState state: State, revision: Int64) {
    precondition(capacity > 0, "a history keeps at least one record")
    self.capacity = capacity
    self.byteLimit = byteLimit
    let interval = max(1, capacity / 4)
    self.log = RecordLog(
      checkpointInterval: interval, checkpointBytes: max(1, byteLimit / 4),
      reserving: min(capacity + interval, 1 << 16))
    self.actions = ActionStore(capacity: min(capacity + interval, 1 << 16))
    self.checkpoints = [Checkpoint(revision: revision, state: state)]
  }

  /// Records between two checkpoints: a quarter of the capacity (at least 1).
  var checkpointInterval: Int { self.log.checkpointInterval }

  /// The tails open on all connections.
  var tailCount: Int {
    get { self.log.tailCount }
    set { self.log.tailCount = newValue }
  }

  /// Who is told, from inside a reduce, that the history needs work outside it.
  var scheduler: (any HistoryScheduler)? {
    get { self.log.scheduler }
    set { self.log.scheduler = newValue }
  }

  // MARK: - Checkpoints

  /// Whether a checkpoint is due; clears the pending request for attention.
  func attend() -> Bool {
    self.log.attend()
    return self.log.isCheckpointDue
  }

  /// Keeps `state`, the live root state at `revision` (the revision of the last record), as a
  /// checkpoint, then drops what is no longer needed. Called on the loop, outside any reduce.
  func takeCheckpoint(_ state: State, revision: Int64) {
    precondition(
      revision == self.newestRevision, "a checkpoint must be taken at the newest record's revision")
    self.log.sinceCheckpoint = 0
    self.log.bytesSinceCheckpoint = 0
    guard revision > self.checkpoints[self.checkpoints.count - 1].revision else { return }
    self.checkpoints.append(Checkpoint(revision: revision, state: state))
    self.trim()
  }

  /// Drops the oldest interval of records (and the checkpoint it starts from) while at least
  /// `capacity` records remain after it, or while the records hold more than `byteLimit`.
  private func trim() {
    while self.checkpoints.count >= 2 {
      let next = self.checkpoints[1].revision
      let remaining = Int(self.newestRevision - next)
      guard remaining >= self.capacity || self.log.bytes > self.byteLimit else { return }
      let before = self.log.bytes
      self.log.dropFirst(Int(next - self.checkpoints[0].revision))
      self.droppedBytes &+= before - self.log.bytes
      self.actions.dropFirst(Int(next - self.checkpoints[0].revision))
      self.checkpoints.removeFirst()
    }
  }

  // MARK: - Reading

  /// The bytes the retained records hold (estimated).
  var bytes: Int { self.log.bytes }
  /// The bytes of all records dropped so far (estimated; it only grows), so that the host
  /// can give their memory back to the system (``MemoryReclaimer``).
  private(set) var droppedBytes = 0

  /// The retained records, oldest first; their revisions are contiguous.
  var records: [HistoryRecord] { self.log.records }

  /// The revision of the newest record (or of the base checkpoint when there is none).
  var newestRevision: Int64 {
    self.log.records.last?.revision ?? self.checkpoints[0].revision
  }

  /// The first revision whose entry is still kept (one past the newest when none is).
  var oldestEntryRevision: Int64 { self.checkpoints[0].revision + 1 }

  /// The oldest revision whose state can be reconstructed.
  var oldestStateRevision: Int64 { self.checkpoints[0].revision }

  /// The record of revision `revision`, which must be retained.
  func record(at revision: Int64) -> Reduction<Action> {
    let index = Int(revision - self.oldestEntryRevision)
    return self.log.records[index].reduction(self.actions[index])
  }

  /// The retained records that pass `filter`: those after `since` (oldest first), or without
  /// `since` the newest ones; at most `limit`.
  func records(
    since: Int64?, limit: Int, matching filter: ScopeFilter?
  ) -> ArraySlice<Reduction<Action>> {
    let all = self.log.records
    var found: [Reduction<Action>] = []
    if let since {
      var index = max(0, min(all.count, Int(since + 1 - self.oldestEntryRevision)))
      while index < all.count && found.count < limit {
        if filter?.matches(all[index].scope) ?? true {
          found.append(all[index].reduction(self.actions[index]))
        }
        index += 1
      }
      return found[...]
    }
    var index = all.count - 1
    while index >= 0 && found.count < limit {
      if filter?.matches(all[index].scope) ?? true {
        found.append(all[index].reduction(self.actions[index]))
      }
      index -= 1
    }
    return found.reversed()[...]
  }
}

/// What a ``HistoryLog`` asks of its host: to call it back on the loop, outside the reduce
/// that is running.
protocol HistoryScheduler: AnyObject, Sendable {
  /// Called inside a reduce: schedule the history's work (a checkpoint, tail pushes) on the
  /// loop, after it.
  func historyNeedsAttention()
}
