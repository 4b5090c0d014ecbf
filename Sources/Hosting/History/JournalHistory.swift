import Wire

/// The history of a durable host (PROTOCOL.md §8): the newest entries from memory, as an
/// ephemeral host keeps them (``HistoryLog``), and everything older back to the oldest snapshot
/// kept on disk from the data directory (``JournalArchive``, ``PastStates``).
///
/// ```
///   oldest snapshot kept             memory's oldest entry                       now
///        │◀──────── journal on disk ────────▶│◀──────── HistoryLog (--history N) ──▶│
///        │   read off the loop               │   read on the loop                   │
/// ```
///
/// What only the disk holds is read off the event loop: ``entryLoad(since:limit:byteLimit:matching:)``
/// and ``replayPlan(to:)`` describe the read, the host runs it on the history's thread, and the
/// connection's later requests wait for it (as they wait for a past state). The journal holds
/// every record up to the one before memory's oldest (those were handed to the operating
/// system long before: the journal writes each batch's records before its replies), so a read
/// joins memory without a hole; if memory dropped entries while the read ran, the host reads
/// again (see ``HistoryService``).
///
/// Confined to the host's event loop, like ``HistoryLog``; the loads it returns run anywhere.
final class JournalHistory<State: Sendable, Action: Sendable>: HistorySource {
  /// The newest entries, in memory.
  let memory: HistoryLog<State, Action>
  private let archive: JournalArchive
  private let pastStates: PastStates<State, Action>
  /// The revision of the oldest snapshot kept on disk (`nil` before the first is written):
  /// refreshed at start and after each snapshot (older files are deleted only then).
  private var diskOldest: Int64?

  init(memory: HistoryLog<State, Action>, pastStates: PastStates<State, Action>) {
    self.memory = memory
    self.archive = pastStates.archive
    self.pastStates = pastStates
    self.diskOldest = pastStates.archive.oldestRevision()
  }

  /// Reads again which snapshots the directory keeps (after a snapshot was written and older
  /// files pruned). A directory listing: once per snapshot.
  func snapshotsDidChange() {
    self.diskOldest = self.archive.oldestRevision()
  }

  /// The oldest revision after which the journal on disk holds every entry, if older than
  /// memory's.
  private var diskStart: Int64? {
    guard let diskOldest, diskOldest < self.memory.oldestStateRevision else { return nil }
    return diskOldest
  }

  var oldestEntryRevision: Int64 {
    min(self.memory.oldestEntryRevision, (self.diskStart ?? .max - 1) + 1)
  }

  var oldestStateRevision: Int64 {
    min(self.memory.oldestStateRevision, self.diskStart ?? .max)
  }

  var newestRevision: Int64 { self.memory.newestRevision }

  func record(at revision: Int64) -> Reduction<Action> {
    self.memory.record(at: revision)
  }

  func records(
    since: Int64?, limit: Int, matching filter: ScopeFilter?
  ) -> ArraySlice<Reduction<Action>> {
    self.memory.records(since: since, limit: limit, matching: filter)
  }

  func entryLoad(
    since: Int64?, limit: Int, byteLimit: Int, matching filter: ScopeFilter?
  ) -> EntryLoad? {
    guard let start = self.diskStart else { return nil }
    // Everything from the journal is older than memory's first entry.
    let through = self.memory.oldestEntryRevision - 1
    let archive = self.archive
    if let since {
      guard since < through else { return nil }
      let after = max(since, start)
      return EntryLoad(through: through) {
        try archive.entries(
          after: after, through: through, limit: limit, byteLimit: byteLimit, matching: filter)
      }
    }
    // The newest entries: from disk only what memory lacks.
    let inMemory = self.memory.records(since: nil, limit: limit, matching: filter).count
    guard inMemory < limit else { return nil }
    return EntryLoad(through: through) {
      try archive.newestEntries(
        after: start, through: through, limit: limit - inMemory, byteLimit: byteLimit,
        matching: filter)
    }
  }

  func replayPlan(to revision: Int64) -> ReplayPlan<State, Action>? {
    if revision >= self.memory.oldestStateRevision {
      return self.memory.replayPlan(to: revision)
    }
    guard let start = self.diskStart, revision >= start else { return nil }
    let pastStates = self.pastStates
    // The snapshot at or before it, and the journal up to it, replayed off the loop.
    return ReplayPlan(revision: revision, recordCount: max(1, Int(revision - start))) {
      (try pastStates.state(at: revision), [])
    }
  }
}

/// Entries a `history` request needs from disk: read by ``load`` off the event loop, up to
/// ``through`` (the revision before memory's oldest entry when the read was planned).
struct EntryLoad: Sendable {
  let through: Int64
  let load: @Sendable () throws -> [HistoryEntry]
}

extension JournalArchive {
  /// The entries after `revision`, up to `through`, that pass `filter`, oldest first; at most
  /// `limit`, and no more once their actions hold `byteLimit` bytes (estimated).
  func entries(
    after revision: Int64, through: Int64, limit: Int, byteLimit: Int = .max,
    matching filter: ScopeFilter?
  ) throws -> [HistoryEntry] {
    var found: [HistoryEntry] = []
    var bytes = 0
    guard revision < through else { return found }
    try self.forEachRecord(after: revision, through: through) { record in
      if filter?.matches(record.scope) ?? true {
        found.append(HistoryEntry(record))
        bytes += record.action.map(ByteEstimate.heap(of:)) ?? 0
      }
      return found.count < limit && bytes < byteLimit
    }
    return found
  }

  /// The newest `limit` entries after `revision`, up to `through`, that pass `filter`, oldest
  /// first (a scan from `revision`: the journal is read forwards only).
  ///
  /// Fewer when their actions hold more than `byteLimit` bytes (estimated): the newest that
  /// fit, one at least.
  func newestEntries(
    after revision: Int64, through: Int64, limit: Int, byteLimit: Int = .max,
    matching filter: ScopeFilter?
  ) throws -> [HistoryEntry] {
    var found: [(entry: HistoryEntry, bytes: Int)] = []
    var bytes = 0
    var first = 0
    guard revision < through, limit > 0 else { return [] }
    // Without a filter, the newest `limit` are the last `limit` revisions.
    let start = filter == nil ? max(revision, through - Int64(limit)) : revision
    try self.forEachRecord(after: start, through: through) { record in
      guard filter?.matches(record.scope) ?? true else { return true }
      let size = record.action.map(ByteEstimate.heap(of:)) ?? 0
      found.append((HistoryEntry(record), size))
      bytes += size
      // Bounded: the oldest go past `limit` entries or `byteLimit` bytes (lazily: compacted
      // whenever half the array is gone).
      while found.count - first > limit || (bytes > byteLimit && found.count - first > 1) {
        bytes -= found[first].bytes
        first += 1
      }
      if first >= 64 && first * 2 >= found.count {
        found.removeFirst(first)
        first = 0
      }
      return true
    }
    return found[first...].map(\.entry)
  }
}

extension HistoryEntry {
  /// The entry of a journaled action, as the history shows it (the same as for the action
  /// while it was in memory: the journal keeps its time, origin, scope and action JSON).
  init(_ record: JournalRecord) {
    let origin: Origin
    switch record.origin {
    case .client(let session, let client, let pid, let uid, let role):
      origin = .client(
        session: String(session), client: client, pid: Int64(pid), uid: Int64(uid),
        role: role.rawValue)
    case .effect:
      origin = .effect
    case .host:
      origin = .host
    }
    self.init(
      rev: record.revision, time: WallClock.rfc3339(milliseconds: record.time), origin: origin,
      scope: record.scope, action: record.action)
  }
}
