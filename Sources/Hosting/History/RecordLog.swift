import Wire

/// One reduced action as the history keeps it, but for its root action (kept in an
/// ``ActionStore``). Not generic, so that appending one — on every reduce, in the host's
/// unspecialized generic code — looks up no generic metadata (see bench/HISTORY.md).
struct HistoryRecord: Sendable {
  let revision: Int64
  /// Milliseconds since 1970 (UTC).
  let time: Int64
  let origin: ReductionOrigin
  let scope: String?
  let scopeAction: JSON?
  let draws: [Draw]

  /// The record as a ``Reduction``, with its root action.
  func reduction<Action>(_ action: Action) -> Reduction<Action> {
    Reduction(
      revision: self.revision, time: self.time, origin: self.origin, scope: self.scope,
      scopeAction: self.scopeAction, action: action, draws: self.draws)
  }
}

/// The records of the history in memory, appended by the ``ReductionRecorder`` on every reduce,
/// in revision order (so their revisions are contiguous). ``HistoryLog`` trims them and reads
/// them. Confined to the host's event loop.
///
/// The properties ``append(_:)`` touches are `@exclusivity(unchecked)`: only the loop thread
/// touches them, from synchronous code that never holds an `inout` access to one across a call
/// that could reach it again, so the dynamic check could never fire (it cost a tenth of the
/// history's instructions per action).
final class RecordLog {
  /// The retained records, oldest first.
  @exclusivity(unchecked) private(set) var records: [HistoryRecord] = []
  /// Records between two checkpoints (see ``HistoryLog``).
  let checkpointInterval: Int
  /// Records appended since the last checkpoint.
  @exclusivity(unchecked) var sinceCheckpoint = 0
  /// The tails open on all connections: entries are pushed only while there are some.
  @exclusivity(unchecked) var tailCount = 0
  @exclusivity(unchecked) private var attentionRequested = false
  /// Told (from inside a reduce) that the history needs work outside it.
  weak var scheduler: (any HistoryScheduler)?

  init(checkpointInterval: Int, reserving capacity: Int) {
    self.checkpointInterval = checkpointInterval
    self.records.reserveCapacity(capacity)
  }

  /// Appends one reduced action. Called inside the root reduce: it must not read the store.
  func append(_ record: HistoryRecord) {
    self.records.append(record)
    self.sinceCheckpoint += 1
    if self.sinceCheckpoint >= self.checkpointInterval || self.tailCount > 0,
      !self.attentionRequested
    {
      self.attentionRequested = true
      self.scheduler?.historyNeedsAttention()
    }
  }

  /// Clears the pending request for attention (the host is attending to it now).
  func attend() {
    self.attentionRequested = false
  }

  /// Drops the oldest `count` records.
  func dropFirst(_ count: Int) {
    self.records.removeFirst(count)
  }
}
