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
  /// The bytes this record and its root action hold, estimated when it was appended (see
  /// ``HistoryLog``'s byte bound).
  let bytes: Int

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
  /// The bytes of the retained records (estimated), and of those appended since the last
  /// checkpoint.
  @exclusivity(unchecked) private(set) var bytes = 0
  @exclusivity(unchecked) var bytesSinceCheckpoint = 0
  /// Bytes between two checkpoints: a quarter of the history's byte bound.
  let checkpointBytes: Int
  /// The tails open on all connections: entries are pushed only while there are some.
  @exclusivity(unchecked) var tailCount = 0
  @exclusivity(unchecked) private var attentionRequested = false
  /// Told (from inside a reduce) that the history needs work outside it.
  weak var scheduler: (any HistoryScheduler)?

  init(checkpointInterval: Int, checkpointBytes: Int, reserving capacity: Int) {
    self.checkpointInterval = checkpointInterval
    self.checkpointBytes = checkpointBytes
    self.records.reserveCapacity(capacity)
  }

  /// Appends one reduced action. Called inside the root reduce: it must not read the store.
  func append(_ record: HistoryRecord) {
    self.records.append(record)
    self.sinceCheckpoint += 1
    self.bytes += record.bytes
    self.bytesSinceCheckpoint += record.bytes
    if self.isCheckpointDue || self.tailCount > 0,
      !self.attentionRequested
    {
      self.attentionRequested = true
      self.scheduler?.historyNeedsAttention()
    }
  }

  /// Whether enough records, or bytes, were appended since the last checkpoint for the next.
  var isCheckpointDue: Bool {
    self.sinceCheckpoint >= self.checkpointInterval
      || self.bytesSinceCheckpoint >= self.checkpointBytes
  }

  /// Clears the pending request for attention (the host is attending to it now).
  func attend() {
    self.attentionRequested = false
  }

  /// Drops the oldest `count` records.
  func dropFirst(_ count: Int) {
    for record in self.records[..<count] { self.bytes -= record.bytes }
    self.records.removeFirst(count)
  }
}
