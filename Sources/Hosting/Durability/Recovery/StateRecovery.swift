import Wire

/// Rebuilds the root state from a data directory when a host starts: the newest snapshot,
/// then every journaled action after it, reduced again exactly (with the values its reducer
/// drew, and without running effects).
///
/// ```
///   snapshot-R.snap ──decode──▶ State at R ──▶ journal records R+1, R+2, … ──Replayer──▶ State
///                                              (checksum, revision order, the scope + JSON a
///                                               client sent resolved as the live send did)
/// ```
///
/// Whatever it cannot trust it refuses, naming the file, the offset and what to do: a
/// snapshot that is damaged or no longer decodes, damage in the middle of the journal, a
/// record the app can no longer decode or replay. The one damage it repairs is a torn tail —
/// bytes at the end of the last segment that do not form a valid record, with nothing valid
/// after them (a write cut short by a crash): they are moved aside into a file it names, and
/// the state is the one of the last intact record.
struct StateRecovery<State, Action> {
  let directory: DataDirectory
  let codec: StateCodec<State>
  let resolver: ActionResolver<Action>
  let replayer: Replayer<State, Action>

  /// What recovery found.
  struct Outcome {
    var state: State
    var revision: Int64
    /// The revision of the snapshot it started from.
    var snapshotRevision: Int64
    /// How many journaled actions it reduced again.
    var replayed: Int
    /// Where a torn tail was moved, if there was one.
    var setAside: String?
    /// Whether the directory held no state yet (the initial state was written as snapshot 0).
    var isFresh: Bool
    /// The size of the snapshot's state JSON, in bytes (for the next snapshot's trigger).
    var snapshotBytes: Int64
  }

  /// Recovers the state, or writes `initialState` as the first snapshot of an empty directory.
  func run(initialState: State) throws(DurabilityFailure) -> Outcome {
    let listing: DataLayout.Listing
    do {
      listing = try DataLayout.list(self.directory.path)
    } catch {
      throw DurabilityFailure("cannot read the data directory: \(error)")
    }
    // A snapshot interrupted by a crash never got its final name: what is left is garbage.
    for name in listing.temporaries { try? FileSystem.remove(self.directory.file(name)) }
    guard let latest = listing.snapshots.last else {
      guard listing.segments.isEmpty else {
        throw DurabilityFailure(
          "\(self.directory.path) holds journal files but no snapshot, so there is no state to "
            + "replay them onto; restore the snapshot files from a backup, or start with "
            + "--reset to move the directory aside and begin empty")
      }
      let bytes = try self.writeFirstSnapshot(initialState)
      return Outcome(
        state: initialState, revision: 0, snapshotRevision: 0, replayed: 0, setAside: nil,
        isFresh: true, snapshotBytes: bytes)
    }
    var (state, snapshotBytes) = try self.loadSnapshot(
      latest, olderSnapshot: listing.snapshots.dropLast().last)
    // Replay from the last segment that starts at or before the snapshot.
    let first = listing.segments.lastIndex { $0.revision <= latest.revision } ?? 0
    let segments = Array(listing.segments[first...])
    if let start = segments.first?.revision, start > latest.revision {
      throw DurabilityFailure(
        "the journal of \(self.directory.path) starts after revision \(start), but its newest "
          + "snapshot is at revision \(latest.revision): the records in between are missing; "
          + "restore the directory from a backup, or start with --reset")
    }
    let cursor = JournalCursor(directory: self.directory.path, segments: segments)
    var replayed = 0
    var setAside: String?
    var cache = ResolvedActionCache<Action>()
    do {
      try self.replayer.replay(into: &state) {
        while let record = try self.nextRecord(cursor, setAside: &setAside) {
          guard record.revision > latest.revision else { continue }
          replayed += 1
          let action = try cache.action(for: record, resolver: self.resolver)
          return (record.revision, action, record.draws)
        }
        return nil
      }
    } catch let failure as DurabilityFailure {
      throw failure
    } catch let divergence as ReplayDivergence {
      throw DurabilityFailure(
        "cannot rebuild the state of \(self.directory.path): \(divergence); the app's reducer "
          + "is not the one that journaled it (or draws from a source the host does not "
          + "record); run the version that wrote the directory and stop it cleanly, or start "
          + "with --reset to move the directory aside and begin empty")
    } catch {
      throw DurabilityFailure("cannot rebuild the state of \(self.directory.path): \(error)")
    }
    // A segment a crash left with the zeros it had allocated ahead ends with its records.
    for (segment, offset) in cursor.zeroTails {
      let path = self.directory.file(segment)
      do {
        let fd = try FileSystem.openForWriting(path)
        defer { FileSystem.closeFile(fd) }
        try FileSystem.truncate(fd, to: offset, path: path)
        try FileSystem.synchronizeData(fd, path: path)
      } catch {
        throw DurabilityFailure("cannot cut the unused end of \(path): \(error)")
      }
    }
    return Outcome(
      state: state, revision: max(cursor.position, latest.revision),
      snapshotRevision: latest.revision, replayed: replayed, setAside: setAside, isFresh: false,
      snapshotBytes: snapshotBytes)
  }

  /// The next record of the journal; a torn tail is moved aside (and ends the journal).
  private func nextRecord(
    _ cursor: JournalCursor, setAside: inout String?
  ) throws(DurabilityFailure) -> JournalDecoder.ActionView? {
    do {
      return try cursor.next()
    } catch {
      switch error {
      case .damaged(let segment, let offset, let isCutShort, let isLastSegment):
        let path = self.directory.file(segment)
        if isLastSegment,
          try !JournalDamage.hasValidRecords(path: path, after: offset, position: cursor.position)
        {
          setAside = try JournalDamage.setTailAside(
            path: path, at: offset, directory: self.directory.path)
          return nil
        }
        throw JournalDamage.middle(
          path: path, offset: offset, isCutShort: isCutShort, position: cursor.position,
          later: cursor.laterSegments.map(\.name), directory: self.directory.path)
      default:
        throw JournalDamage.failure(error, directory: self.directory.path)
      }
    }
  }

  private func writeFirstSnapshot(_ state: State) throws(DurabilityFailure) -> Int64 {
    let bytes: [UInt8]
    do {
      bytes = try self.codec.encode(state)
    } catch {
      throw DurabilityFailure("cannot write the initial state as JSON: \(error)")
    }
    do {
      try SnapshotFile.write(
        state: bytes, revision: 0, time: WallClock.milliseconds(),
        name: DataLayout.snapshotName(at: 0), in: self.directory.path)
    } catch {
      throw DurabilityFailure(
        "cannot write the first snapshot in \(self.directory.path): \(error)")
    }
    return Int64(bytes.count)
  }

  /// Reads, checks and decodes a snapshot.
  private func loadSnapshot(
    _ snapshot: (revision: Int64, name: String),
    olderSnapshot: (revision: Int64, name: String)?
  ) throws(DurabilityFailure) -> (State, Int64) {
    let path = self.directory.file(snapshot.name)
    let contents: SnapshotFile.Contents
    do {
      contents = try SnapshotFile.read(path)
    } catch let damage as SnapshotFile.Damage {
      throw SnapshotDamage.failure(
        damage, path: path, revision: snapshot.revision, older: olderSnapshot,
        directory: self.directory.path)
    } catch {
      throw DurabilityFailure("cannot read the snapshot \(path): \(error)")
    }
    guard contents.revision == snapshot.revision else {
      throw DurabilityFailure(
        "the snapshot \(path) holds revision \(contents.revision), not the \(snapshot.revision) "
          + "its name says; was it renamed? restore the directory from a backup, or start "
          + "with --reset")
    }
    do {
      return (try self.codec.decode(contents.state), Int64(contents.state.count))
    } catch {
      throw SnapshotDamage.undecodable(error, path: path, directory: self.directory.path)
    }
  }
}
