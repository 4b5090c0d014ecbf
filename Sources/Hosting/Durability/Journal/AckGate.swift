/// Holds back a session's output until the journal has confirmed the records of the actions it
/// acknowledges: the one place where "acknowledged only once written" is enforced.
///
/// ```
///   send ─▶ reduce ─▶ ack queued; session waits for journal position P (``holdReplies(of:)``)
///   end of batch ─▶ SessionOutput.flush ─▶ P > confirmed? keep the bytes in `session.output`
///                                          and park the session (``holds(_:)``)
///   journal confirms P ─▶ ``confirm(_:)`` ─▶ each parked session whose P is confirmed is
///                                            flushed (and closed, if it was closing)
/// ```
///
/// While a session is parked, everything else queued for it (later replies, pushes) waits
/// behind in the same buffer, so its connection still sees its frames in order. Pushes to
/// other connections are not held: they may show a state whose record is written but not yet
/// flushed to the device (``FsyncPolicy/always``). When the journal is written through a
/// mapping, a batch's records are written before its replies are flushed, and nothing is
/// parked unless the journal fails or waits for a flush.
///
/// Confined to the event loop, like the sessions. Its lists and ``confirmed`` are
/// `@exclusivity(unchecked)`: they are touched on every batch, only on the loop thread, by
/// these synchronous methods, and the flush of a released session never parks or releases a
/// session itself (its position is confirmed) — so the dynamic exclusivity check could never
/// fire.
@usableFromInline
final class AckGate {
  private let journal: Journal
  @exclusivity(unchecked) private var parked: [any JournalWaiter] = []
  /// The list being released, kept to reuse its storage.
  @exclusivity(unchecked) private var releasing: [any JournalWaiter] = []
  /// The position up to which the journal has confirmed records (its ``Journal/confirmed``).
  @usableFromInline @exclusivity(unchecked) var confirmed: UInt64 = 0
  /// The host's output, to flush released sessions through (set by the host when it starts;
  /// cleared when it stops, which ends the reference cycle output → gate → output).
  @exclusivity(unchecked) var output: SessionOutput?

  init(journal: Journal) {
    self.journal = journal
  }

  /// Whether client actions may be reduced now (else they are answered `unavailable`).
  @usableFromInline var admitsActions: Bool { self.journal.isAcceptingActions }

  /// Makes the session's output wait for every record encoded so far (call right after its
  /// action was reduced).
  @usableFromInline
  func holdReplies(of session: some JournalWaiter) {
    session.journalPosition = self.journal.appended
  }

  /// Whether the session's output must wait; if so it is parked until ``confirm(_:)``.
  @inlinable @inline(__always)
  func holds(_ session: some JournalWaiter) -> Bool {
    guard session.journalPosition > self.confirmed else { return false }
    self.park(session)
    return true
  }

  @usableFromInline
  func park(_ session: some JournalWaiter) {
    guard !session.isParked else { return }
    session.isParked = true
    self.parked.append(session)
  }

  /// The journal confirmed `position`: releases the sessions waiting for it.
  func confirm(_ position: UInt64) {
    self.confirmed = max(self.confirmed, position)
    // Nothing parked is the usual case (a mapped journal writes each batch before its flush).
    guard !self.parked.isEmpty else { return }
    guard let output = self.output else { return }
    swap(&self.parked, &self.releasing)
    for session in self.releasing {
      if session.journalPosition > position {
        self.parked.append(session)
        continue
      }
      session.isParked = false
      session.releaseOutput(through: output)
    }
    self.releasing.removeAll(keepingCapacity: true)
  }
}

/// What the ``AckGate`` needs of a session: the journal position its output waits for, and a
/// way to send that output once it may leave.
@usableFromInline
protocol JournalWaiter: AnyObject {
  /// The journal position the session's output waits for.
  var journalPosition: UInt64 { get set }
  /// Whether the gate holds the session's output.
  var isParked: Bool { get set }
  /// Hands the output that waited to the channel (and closes a session that was closing).
  func releaseOutput(through output: SessionOutput)
}

extension Session: JournalWaiter {
  @usableFromInline
  func releaseOutput(through output: SessionOutput) {
    // A session the client closed meanwhile ignores both: its channel is closed.
    output.flush(self)
    if self.phase == .closing {
      self.channel.close()
    } else {
      output.updateBackpressure(self)
    }
  }
}
