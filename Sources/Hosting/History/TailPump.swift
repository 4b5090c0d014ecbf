import Wire

/// One `tail` of a connection (PROTOCOL.md §8): a cursor into the history, not a queue.
/// Loop-confined like its session.
final class Tail {
  /// The host-assigned `sub`, from the same sequence as the connection's subscriptions.
  let id: Int64
  /// Only entries sent to this scope (or pattern), when set.
  let filter: ScopeFilter?
  /// The revision of the next entry this tail is owed.
  var next: Int64
  /// Set while its entries before memory's oldest are read from disk (a durable host): the
  /// pump leaves it alone until they are sent.
  var isBackfilling = false

  init(id: Int64, filter: ScopeFilter?, next: Int64) {
    self.id = id
    self.filter = filter
    self.next = next
  }
}

/// Sends each tail the entries it is owed, in revision order, never coalesced, with memory
/// bounded per reader.
///
/// A tail holds only its cursor; the entries are read from the shared history when they are
/// sent, a chunk at a time, each chunk handed to the socket before the next is encoded:
///
/// ```
///   history records ──▶ encode ≤ 64 KiB ──▶ socket ──▶ … until the socket is full
///                                                       └─▶ resume when it drains
///   cursor older than the oldest record ──▶ entry_gap{from, to}, then on from the oldest
///   replies waiting while the socket is full ──▶ entry_gap up to now, then the replies
/// ```
///
/// So a reader that does not read costs the host one cursor and what its socket holds; it
/// learns what it missed from `entry_gap`. Read your writes: before a connection's replies
/// leave, its tails have been sent (or told they missed, by a gap) every entry up to now.
struct TailPump<State: Sendable, Action: Sendable> {
  let source: any HistorySource<State, Action>
  let output: SessionOutput
  /// The largest frame the host writes.
  let maxFrameSize: Int

  /// Bytes of entries encoded before they are handed to the socket.
  static var chunkBytes: Int { 64 << 10 }

  /// Sends `session`'s tails what they are owed, as far as its socket takes it.
  ///
  /// - Parameters:
  ///   - session: The connection.
  ///   - beforeReplies: Replies follow (read your writes): every tail must reach the newest
  ///     revision, with an `entry_gap` for what the socket cannot take now.
  func pump(_ session: Session<State, Action>, beforeReplies: Bool) {
    guard !session.tails.isEmpty, session.phase == .open else { return }
    session.needsTailPump = false
    let newest = self.source.newestRevision
    for tail in session.tails where tail.next <= newest && !tail.isBackfilling {
      while tail.next <= newest {
        let oldest = self.source.oldestEntryRevision
        if tail.next < oldest {
          // The history no longer holds what this reader is owed.
          self.gap(tail, through: oldest - 1, in: session)
          continue
        }
        if session.channel.isBackedUp {
          guard beforeReplies else {
            session.needsTailPump = true
            return
          }
          self.gap(tail, through: newest, in: session)
          break
        }
        let start = session.output.count
        while tail.next <= newest && session.output.count - start < Self.chunkBytes {
          let record = self.source.record(at: tail.next)
          if tail.filter?.matches(record.scope) ?? true {
            self.append(record, for: tail, in: session)
          }
          tail.next += 1
        }
        if tail.next <= newest {
          // A full chunk: to the socket before the next is encoded.
          self.output.flush(session)
          session.channel.flush()
        }
      }
    }
  }

  private func append(
    _ record: Reduction<Action>, for tail: Tail, in session: Session<State, Action>
  ) {
    self.append(HistoryEntry(record), for: tail, in: session)
  }

  /// Appends `entry` to `tail`'s pushes.
  func append(_ entry: HistoryEntry, for tail: Tail, in session: Session<State, Action>) {
    let start = session.output.count
    HostMessage.entry(sub: tail.id, entry: entry).encodeFrame(into: &session.output)
    if session.output.count - start - 4 > self.maxFrameSize {
      // An entry too large for one frame (an effect's huge root action) is skipped, said so.
      session.output.removeSubrange(start...)
      HostMessage.entryGap(sub: tail.id, from: entry.rev - 1, to: entry.rev)
        .encodeFrame(into: &session.output)
    }
  }

  /// Tells `tail` that the entries after its cursor up to `revision` are not sent.
  func gap(_ tail: Tail, through revision: Int64, in session: Session<State, Action>) {
    HostMessage.entryGap(sub: tail.id, from: tail.next - 1, to: revision)
      .encodeFrame(into: &session.output)
    tail.next = revision + 1
  }
}
