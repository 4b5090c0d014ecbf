/// Where the host's history (PROTOCOL.md §8) reads entries and past states from.
///
/// The host answers `history`, `tail` and `get` with `at` through this protocol only, so the
/// source can change without touching how requests are answered:
///
/// - ``HistoryLog`` (an ephemeral host) keeps the last `--history` records in memory, with
///   checkpoints of the root state among them.
/// - ``JournalHistory`` (a durable host) reaches further back — everything since the oldest snapshot it
///   keeps on disk — by answering for revisions older than its in-memory log from its journal
///   and snapshots. Its reads may block on the disk, so they happen in the ``ReplayPlan``'s
///   `load`, which the host runs off the event loop; the other requirements are answered on the
///   loop and must stay cheap.
///
/// All requirements are called on the host's event loop.
protocol HistorySource<State, Action>: AnyObject {
  associatedtype State: Sendable
  associatedtype Action: Sendable

  /// The first revision whose entry can still be read (one past ``newestRevision`` when no
  /// entry is kept): a history reader that asks for older entries has missed some.
  var oldestEntryRevision: Int64 { get }
  /// The oldest revision whose state can be reconstructed.
  var oldestStateRevision: Int64 { get }
  /// The revision of the newest entry: the root revision now.
  var newestRevision: Int64 { get }

  /// The entry of `revision`, which must be between ``oldestEntryRevision`` and
  /// ``newestRevision``.
  func record(at revision: Int64) -> Reduction<Action>

  /// The entries that pass `filter`, oldest first: those after `since`, or without `since`
  /// the newest ones; at most `limit`.
  func records(
    since: Int64?, limit: Int, matching filter: ScopeFilter?
  ) -> ArraySlice<Reduction<Action>>

  /// How to read, off the loop, the entries of a `history` request (or a tail's backfill) that
  /// only the disk holds — those up to the revision before the oldest that
  /// ``records(since:limit:matching:)`` reads from memory; `nil` when memory answers alone.
  /// The read stops past `byteLimit` bytes of actions (estimated; after one entry at least):
  /// a reply larger than a frame could not be sent anyway.
  func entryLoad(
    since: Int64?, limit: Int, byteLimit: Int, matching filter: ScopeFilter?
  ) -> EntryLoad?

  /// Reads again what the disk keeps (after a read found files gone: a snapshot pruned them).
  func snapshotsDidChange()

  /// How to rebuild the root state at `revision`, or `nil` when it is older than
  /// ``oldestStateRevision`` or newer than ``newestRevision``.
  func replayPlan(to revision: Int64) -> ReplayPlan<State, Action>?
}

/// How to rebuild a past root state: a base state and the records to reduce onto it, loaded
/// off the event loop (from memory, or from disk for a durable host).
struct ReplayPlan<State: Sendable, Action: Sendable>: Sendable {
  /// The revision the state is rebuilt at.
  let revision: Int64
  /// How many records ``load`` gives to replay (for the decision to replay on the loop or off
  /// it).
  let recordCount: Int
  /// The base state, at the revision just before the first record, and the records in order.
  /// Runs on a background thread.
  let load: @Sendable () throws -> (base: State, records: [Reduction<Action>])
}

extension HistoryLog: HistorySource {
  /// Nothing is on disk: memory answers every request.
  func entryLoad(
    since: Int64?, limit: Int, byteLimit: Int, matching filter: ScopeFilter?
  ) -> EntryLoad? {
    nil
  }

  /// Nothing is on disk.
  func snapshotsDidChange() {}

  func replayPlan(to revision: Int64) -> ReplayPlan<State, Action>? {
    guard revision >= self.oldestStateRevision, revision <= self.newestRevision else {
      return nil
    }
    // The newest checkpoint at or before the revision: at most one interval to replay.
    var index = self.checkpoints.count - 1
    while self.checkpoints[index].revision > revision { index -= 1 }
    let base = self.checkpoints[index]
    // Copied out now (at most one checkpoint interval): the worker must not share the live
    // array, which the loop keeps appending to.
    let start = Int(base.revision + 1 - self.oldestEntryRevision)
    let range = start..<(start + Int(revision - base.revision))
    let records = Array(self.records[range])
    let actions = self.actions.copy(range)
    let state = base.state
    return ReplayPlan(revision: revision, recordCount: records.count) {
      (state, zip(records, actions).map { $0.reduction($1) })
    }
  }
}
