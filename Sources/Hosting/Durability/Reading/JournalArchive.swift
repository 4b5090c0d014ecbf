import Wire

/// Reads a durable host's journal and snapshots back from its data directory — on any thread,
/// while the host keeps writing, and never on the event loop (a read may take milliseconds).
///
/// What it can read reaches back to the oldest snapshot kept (the host keeps two, and every
/// journal segment since the older), up to the last record written to the operating system
/// (records still in the host's buffer, and a record being written, are not seen yet).
///
/// ```swift
/// let archive = JournalArchive(directory: "/var/lib/app")
/// try archive.forEachRecord(after: 1_000, through: 1_100) { record in
///   print(record.revision, record.origin, record.scope ?? "-", record.action?.compactString ?? "")
///   return true                                    // false stops
/// }
/// let snapshot = try archive.snapshot(atOrBefore: 1_050)   // revision ≤ 1,050, state as JSON
/// ```
///
/// `Sendable`: it holds only the directory's path; every call opens its own files.
final class JournalArchive: Sendable {
  /// The data directory.
  let directory: String

  init(directory: String) {
    self.directory = directory
  }

  /// Why something could not be read.
  enum ArchiveError: Error, Equatable, CustomStringConvertible {
    /// The revision is older than anything kept (`oldest`: the oldest revision readable, if
    /// any), or its files were removed while being read.
    case unavailable(revision: Int64, oldest: Int64?)
    /// The files are damaged or cannot be read.
    case unreadable(String)

    var description: String {
      switch self {
      case .unavailable(let revision, let oldest):
        let kept = oldest.map { "; the oldest kept is \($0)" } ?? ""
        return "revision \(revision) is no longer kept\(kept)"
      case .unreadable(let message):
        return message
      }
    }
  }

  /// The oldest revision whose state can be read: the oldest snapshot kept.
  func oldestRevision() -> Int64? {
    (try? DataLayout.list(self.directory))?.snapshots.first?.revision
  }

  /// Calls `body` with each journal record whose revision is after `revision` (and at most
  /// `through`), in revision order, until it returns `false` or the records written so far run
  /// out.
  ///
  /// - Throws: ``ArchiveError/unavailable(revision:oldest:)`` when the records right after
  ///   `revision` are no longer kept; ``ArchiveError/unreadable(_:)`` for damage.
  func forEachRecord(
    after revision: Int64, through last: Int64 = .max, _ body: (JournalRecord) throws -> Bool
  ) throws {
    try self.forEachView(after: revision, through: last) { view, decoder in
      try body(
        JournalRecord(
          revision: view.revision, time: view.time, origin: decoder.origin(of: view),
          scope: view.scope.map { String(decoding: $0, as: UTF8.self) },
          action: view.action.flatMap { try? JSON(parsing: $0) }, draws: view.draws))
    }
  }

  /// As ``forEachRecord(after:through:_:)``, with the records read in place (for replay).
  func forEachView(
    after revision: Int64, through last: Int64 = .max,
    _ body: (JournalDecoder.ActionView, JournalDecoder) throws -> Bool
  ) throws {
    let cursor = try self.cursor(after: revision)
    while let view = try self.next(cursor, after: revision), view.revision <= last {
      guard try body(view, cursor.decoder) else { return }
    }
  }

  /// A cursor at the segment holding the records just after `revision`.
  func cursor(after revision: Int64) throws(ArchiveError) -> JournalCursor {
    let listing: DataLayout.Listing
    do {
      listing = try DataLayout.list(self.directory)
    } catch {
      throw .unreadable("cannot list \(self.directory): \(error)")
    }
    guard let first = listing.segments.lastIndex(where: { $0.revision <= revision }) else {
      throw .unavailable(revision: revision, oldest: listing.snapshots.first?.revision)
    }
    return JournalCursor(directory: self.directory, segments: Array(listing.segments[first...]))
  }

  /// The next record of `cursor` after `revision`, or `nil` at the end of what is written.
  func next(
    _ cursor: JournalCursor, after revision: Int64
  ) throws(ArchiveError) -> JournalDecoder.ActionView? {
    while true {
      let view: JournalDecoder.ActionView?
      do {
        view = try cursor.next()
      } catch {
        switch error {
        case .damaged(_, _, _, isLastSegment: true):
          // The end of what is written so far (a write may be in progress).
          return nil
        case .unreadable(let failure) where failure.isMissing:
          throw .unavailable(revision: revision, oldest: self.oldestRevision())
        default:
          throw .unreadable(JournalDamage.failure(error, directory: self.directory).message)
        }
      }
      guard let view else { return nil }
      if view.revision > revision { return view }
    }
  }

  /// A snapshot as kept on disk.
  struct ArchivedSnapshot: Sendable {
    /// The revision of its state.
    var revision: Int64
    /// When it was written (milliseconds since 1970).
    var time: Int64
    /// The state's JSON text.
    var state: ArraySlice<UInt8>
  }

  /// The newest snapshot at or before `revision`.
  ///
  /// - Throws: ``ArchiveError/unavailable(revision:oldest:)`` when every snapshot kept is
  ///   newer; ``ArchiveError/unreadable(_:)`` when it is damaged.
  func snapshot(atOrBefore revision: Int64) throws(ArchiveError) -> ArchivedSnapshot {
    let listing: DataLayout.Listing
    do {
      listing = try DataLayout.list(self.directory)
    } catch {
      throw .unreadable("cannot list \(self.directory): \(error)")
    }
    guard let found = listing.snapshots.last(where: { $0.revision <= revision }) else {
      throw .unavailable(revision: revision, oldest: listing.snapshots.first?.revision)
    }
    let path = self.directory + "/" + found.name
    do {
      let contents = try SnapshotFile.read(path)
      return ArchivedSnapshot(
        revision: contents.revision, time: contents.time, state: contents.state)
    } catch let error as FileError where error.isMissing {
      throw .unavailable(revision: revision, oldest: self.oldestRevision())
    } catch {
      throw .unreadable("the snapshot \(path) cannot be read: \(error)")
    }
  }
}

/// One journaled action, as read back by ``JournalArchive``: what a history entry shows, and
/// what replaying it needs.
struct JournalRecord: Sendable, Equatable {
  /// The revision it produced.
  var revision: Int64
  /// When it was reduced (milliseconds since 1970).
  var time: Int64
  /// Who sent it.
  var origin: ReductionOrigin
  /// The scope a client sent it to; `nil` for effect and host actions.
  var scope: String?
  /// The action as sent to the scope, or the root action; `nil` if it could not be encoded.
  var action: JSON?
  /// What its reducer drew from `uuid`, `date` and `withRandomNumberGenerator`.
  var draws: [Draw]
}
