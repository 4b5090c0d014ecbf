/// Rebuilds the root state at a past revision from a durable host's files: the newest
/// snapshot at or before it, then the journaled actions up to it, reduced again exactly (with
/// their recorded draws, without effects) — what `get` with `at` needs once a revision is older
/// than what the history keeps in memory.
///
/// Runs on any thread, off the event loop; each call reads files and replays with its own
/// reducer, so calls on different threads do not interfere.
///
/// ```swift
/// let past = try host.core.durability!.pastStates.state(at: 1_050)
/// ```
final class PastStates<State: Sendable, Action>: Sendable {
  let archive: JournalArchive
  private let codec: StateCodec<State>
  private let resolver: ActionResolver<Action>
  private let makeReplayer: @Sendable () -> Replayer<State, Action>

  init(
    archive: JournalArchive, codec: StateCodec<State>, resolver: ActionResolver<Action>,
    makeReplayer: @escaping @Sendable () -> Replayer<State, Action>
  ) {
    self.archive = archive
    self.codec = codec
    self.resolver = resolver
    self.makeReplayer = makeReplayer
  }

  /// The root state right after revision `revision`.
  ///
  /// - Throws: ``JournalArchive/ArchiveError/unavailable(revision:oldest:)`` when it is older
  ///   than the oldest snapshot kept, or newer than what is written;
  ///   ``JournalArchive/ArchiveError/unreadable(_:)`` for damage or a record the app can no
  ///   longer replay.
  func state(at revision: Int64) throws(JournalArchive.ArchiveError) -> State {
    let snapshot = try self.archive.snapshot(atOrBefore: revision)
    var state: State
    do {
      state = try self.codec.decode(snapshot.state)
    } catch {
      throw .unreadable("the snapshot of revision \(snapshot.revision) does not decode: \(error)")
    }
    guard snapshot.revision < revision else { return state }
    let cursor = try self.archive.cursor(after: snapshot.revision)
    var reached = snapshot.revision
    var cache = ResolvedActionCache<Action>()
    let archive = self.archive
    let resolver = self.resolver
    do {
      try self.makeReplayer().replay(into: &state) {
        guard reached < revision,
          let view = try archive.next(cursor, after: snapshot.revision)
        else { return nil }
        reached = view.revision
        return (view.revision, try cache.action(for: view, resolver: resolver), view.draws)
      }
    } catch let error as JournalArchive.ArchiveError {
      throw error
    } catch {
      throw .unreadable("cannot rebuild revision \(revision): \(error)")
    }
    guard reached == revision else {
      throw .unavailable(revision: revision, oldest: archive.oldestRevision())
    }
    return state
  }
}
