import Wire

/// A `history` request or a tail's backfill waiting for entries read from disk.
struct PendingHistoryRead {
  /// The `history` request's id (unused for a backfill).
  let id: Int64
  /// Entries after this revision (`nil`: the newest).
  let since: Int64?
  let limit: Int
  /// Bytes of actions read from disk past which the read stops (after one entry at least).
  let byteLimit: Int
  let filter: ScopeFilter?
  /// The tail being backfilled, or `nil` for a `history` request.
  let tail: Tail?
}

/// A durable host's history reaches back past memory to the oldest snapshot on disk (see
/// ``JournalHistory``). The entries only the disk holds are read on the history's thread while
/// the connection's later requests wait, then joined with memory's on the loop.
extension HistoryService {
  /// Entries read from disk per step of a tail's backfill: a bounded read, handed to the socket
  /// before the next.
  static var backfillChunk: Int { 1_000 }
  /// The most bytes of actions (estimated) one step of a backfill reads: a chunk of large
  /// actions stops early, so that a backfill holds a few MiB, not a thousand large entries.
  static var backfillChunkBytes: Int { 4 << 20 }

  /// Starts reading from disk what `request` needs, if memory cannot answer it alone.
  ///
  /// - Returns: Whether a read started (the reply follows when it completes).
  func readFromDisk(_ request: PendingHistoryRead, session: Session<State, Action>) -> Bool {
    guard
      let load = self.source.entryLoad(
        since: request.since, limit: request.limit, byteLimit: request.byteLimit,
        matching: request.filter)
    else { return false }
    session.pendingHistoryRead = request
    self.output.updateBackpressure(session)
    self.builder.read(load, for: session.id)
    return true
  }

  /// Called on the loop with the entries read for `session`'s pending request, up to
  /// `through`: answers it (or reads again if memory dropped entries meanwhile).
  func entriesDidLoad(
    _ result: Result<[HistoryEntry], any Error>, through: Int64,
    session: Session<State, Action>
  ) {
    guard let request = session.pendingHistoryRead else { return }
    session.pendingHistoryRead = nil
    if let tail = request.tail {
      self.continueBackfill(tail, result, through: through, session: session)
      return
    }
    let disk: [HistoryEntry]
    switch result {
    case .success(let entries):
      disk = entries
    case .failure(let error):
      if case JournalArchive.ArchiveError.unavailable = error {
        // A snapshot pruned what was planned: plan again with what the directory keeps now.
        self.source.snapshotsDidChange()
        if self.readFromDisk(request, session: session) { return }
        disk = []
        break
      }
      self.hostLog(.error, "cannot read the history from the journal: \(error)")
      self.output.reply(
        session,
        .error(
          id: request.id, code: .unavailable,
          message: "the history cannot be read from the data directory: \(error)"))
      return
    }
    if self.log.oldestEntryRevision - 1 != through {
      // Memory dropped entries while the disk was read: read up to its new oldest.
      if self.readFromDisk(request, session: session) { return }
    }
    var entries: [HistoryEntry]
    if request.since != nil {
      entries = disk
      if entries.count < request.limit {
        entries += self.log.records(
          since: through, limit: request.limit - entries.count, matching: request.filter
        ).map(HistoryEntry.init)
      }
    } else {
      let newest = self.log.records(since: nil, limit: request.limit, matching: request.filter)
      entries = disk.suffix(request.limit - newest.count) + newest.map(HistoryEntry.init)
    }
    self.output.reply(
      session,
      .history(
        id: request.id, oldest: self.source.oldestEntryRevision, rev: self.source.newestRevision,
        entries: entries))
  }

  /// Sends a new tail the entries after its `since` that only the disk holds, a chunk at a
  /// time (an `entry_gap` first for what not even the disk keeps); the memory's follow through
  /// the tail pump once it is done.
  func backfill(_ tail: Tail, session: Session<State, Action>) {
    let oldest = self.source.oldestEntryRevision
    if tail.next < oldest, tail.next <= self.source.newestRevision {
      self.tails.gap(tail, through: oldest - 1, in: session)
    }
    let request = PendingHistoryRead(
      id: 0, since: tail.next - 1, limit: Self.backfillChunk,
      byteLimit: Self.backfillChunkBytes, filter: tail.filter, tail: tail)
    tail.isBackfilling = self.readFromDisk(request, session: session)
  }

  private func continueBackfill(
    _ tail: Tail, _ result: Result<[HistoryEntry], any Error>, through: Int64,
    session: Session<State, Action>
  ) {
    tail.isBackfilling = false
    guard session.tails.contains(where: { $0 === tail }) else { return }
    switch result {
    case .success(let entries):
      for entry in entries { self.tails.append(entry, for: tail, in: session) }
      // The read covered everything up to its last entry: a chunk cut by its count or its
      // bytes goes on from there, one that got everything up to `through` after it. (A read
      // with a filter whose last match is before `through` goes on from that match too; the
      // next read then finds the rest, if any.)
      if let last = entries.last, last.rev < through {
        tail.next = last.rev + 1
      } else {
        tail.next = through + 1
      }
    case .failure(let error):
      if case JournalArchive.ArchiveError.unavailable = error {
        // A snapshot pruned what was planned: plan again with what the directory keeps now.
        self.source.snapshotsDidChange()
        self.backfill(tail, session: session)
        if tail.isBackfilling { return }
      } else {
        self.hostLog(.error, "cannot read the history from the journal: \(error)")
        self.tails.gap(tail, through: through, in: session)
      }
    }
    self.output.flush(session)
    // More on disk: the next chunk, unless the client is not reading (then the pump gives it
    // an `entry_gap` up to memory's entries, as to any reader that falls behind).
    if tail.next < self.log.oldestEntryRevision, !session.channel.isBackedUp {
      self.backfill(tail, session: session)
      if tail.isBackfilling { return }
    }
    self.tails.pump(session, beforeReplies: false)
    self.output.flush(session)
  }
}
