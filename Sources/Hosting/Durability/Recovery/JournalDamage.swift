/// What recovery does about damage in the journal: tells a torn tail from damage in the
/// middle, moves a torn tail aside, and says what to do about the rest.
enum JournalDamage {
  /// Whether any intact action record — one that could follow revision `position` — starts
  /// after `offset` in the segment at `path`.
  static func hasValidRecords(
    path: String, after offset: Int64, position: Int64
  ) throws(DurabilityFailure) -> Bool {
    let bytes: [UInt8]
    do {
      bytes = try FileSystem.readAll(path)
    } catch {
      throw DurabilityFailure("cannot read \(path): \(error)")
    }
    let plausible = (position + 1)...(position + (1 << 32))
    return bytes.withUnsafeBytes { raw in
      RecordFrame.firstValidRecord(in: raw, after: Int(offset)) {
        JournalDecoder.isPlausibleAction($0, revisions: plausible)
      } != nil
    }
  }

  /// Moves the bytes of `path` from `offset` on into a new file next to it, then cuts `path`
  /// at `offset`; both are flushed to the device before it returns.
  ///
  /// - Returns: The new file's path.
  static func setTailAside(
    path: String, at offset: Int64, directory: String
  ) throws(DurabilityFailure) -> String {
    let aside = "\(path).damaged-\(FileSystem.fileTimestamp())"
    do {
      let bytes = try FileSystem.readAll(path)
      // A mapped segment's file runs to the end of the space it allocated ahead (a multiple of
      // its window): the zeros after the torn bytes are that space, not part of them.
      var last = bytes.count
      if bytes.count % MappedSegmentFile.windowSize == 0 {
        last = bytes.lastIndex { $0 != 0 }.map { $0 + 1 } ?? Int(offset)
      }
      let tail = Array(bytes[Int(offset)..<max(Int(offset), last)])
      let copy = try FileSystem.createEmpty(aside)
      defer { FileSystem.closeFile(copy) }
      if let failure = tail.withUnsafeBytes({ FileSystem.writeAll(copy, $0, path: aside) }) {
        throw failure.error
      }
      try FileSystem.synchronizeData(copy, path: aside)
      try FileSystem.synchronizeDirectory(directory)
      let segment = try FileSystem.openForWriting(path)
      defer { FileSystem.closeFile(segment) }
      try FileSystem.truncate(segment, to: offset, path: path)
      try FileSystem.synchronizeData(segment, path: path)
    } catch {
      throw DurabilityFailure(
        "the journal \(path) ends with a torn record at offset \(offset), which could not be "
          + "moved aside: \(error); free some space or fix the permissions of \(directory), "
          + "then start again")
    }
    return aside
  }

  /// The refusal for damage followed by intact records.
  static func middle(
    path: String, offset: Int64, isCutShort: Bool, position: Int64, later: [String],
    directory: String
  ) -> DurabilityFailure {
    let what = isCutShort ? "a record is cut short" : "a record fails its checksum"
    let after =
      later.isEmpty
      ? "intact records follow it in the same file"
      : "journal files follow it (\(later.joined(separator: ", ")))"
    let moveLater =
      later.isEmpty ? "" : ", move the later journal files out of \(directory)"
    return DurabilityFailure(
      "the journal \(path) is damaged at offset \(offset) (\(what), after revision "
        + "\(position)), and \(after), so the actions after revision \(position) cannot be "
        + "replayed in order. Nothing was changed. To recover: restore \(directory) from a "
        + "backup; or keep the state up to revision \(position), losing what follows: "
        + "`truncate -s \(offset) \(path)`\(moveLater), and start again; or start with "
        + "--reset to move the directory aside and begin empty")
  }

  /// The refusal for any other problem reading the journal.
  static func failure(_ problem: JournalCursor.Problem, directory: String) -> DurabilityFailure {
    let remedy =
      "Nothing was changed. Restore \(directory) from a backup, or start with --reset to move "
      + "it aside and begin empty"
    switch problem {
    case .damaged(let segment, let offset, _, _):
      return DurabilityFailure(
        "the journal \(directory)/\(segment) is damaged at offset \(offset). \(remedy)")
    case .malformed(let segment, let offset, let detail):
      return DurabilityFailure(
        "the journal \(directory)/\(segment) has a record at offset \(offset) that this host "
          + "cannot read (\(detail)); was it written by another version? \(remedy)")
    case .notASegment(let segment):
      return DurabilityFailure(
        "\(directory)/\(segment) is not a journal file (its first bytes are wrong). \(remedy)")
    case .outOfSequence(let segment, let offset, let expected, let found):
      return DurabilityFailure(
        "the journal \(directory)/\(segment) holds revision \(found) at offset \(offset) where "
          + "revision \(expected) should be. \(remedy)")
    case .gap(let segment, let expected):
      return DurabilityFailure(
        "the journal of \(directory) is missing the revisions after \(expected): the next file "
          + "is \(segment). Was a journal file removed? \(remedy)")
    case .unreadable(let error):
      return DurabilityFailure("cannot read the journal: \(error)")
    }
  }
}

/// What recovery says about a snapshot it cannot use.
enum SnapshotDamage {
  /// The refusal for a damaged snapshot.
  static func failure(
    _ damage: SnapshotFile.Damage, path: String, revision: Int64,
    older: (revision: Int64, name: String)?, directory: String
  ) -> DurabilityFailure {
    let what: String
    switch damage {
    case .notASnapshot:
      what = "it does not start like a snapshot (offset 0)"
    case .header(let offset):
      what = "its header at offset \(offset) is cut short or fails its checksum"
    case .state(let offset, let length):
      what = "its state (\(length) bytes from offset \(offset)) is cut short or fails its checksum"
    }
    let olderRemedy =
      older.map {
        "; or move \(path) out of the directory and start again: the host then recovers from "
          + "the older snapshot \($0.name) (revision \($0.revision)) and the journal after it"
      } ?? ""
    return DurabilityFailure(
      "the snapshot \(path) (revision \(revision)) is damaged: \(what). Nothing was changed. "
        + "To recover: restore \(directory) from a backup\(olderRemedy); or start with --reset "
        + "to move the directory aside and begin empty")
  }

  /// The refusal for a snapshot that does not decode as the app's state.
  static func undecodable(
    _ error: StateDecodingFailure, path: String, directory: String
  ) -> DurabilityFailure {
    DurabilityFailure(
      "the snapshot \(path) does not decode as the app's state: \(error). The app's State type "
        + "changed since it was written. Start with --reset to move \(directory) aside (to "
        + "\(directory).old-<timestamp>) and begin empty, or run the version that wrote it")
  }
}
