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
/// flushed to the device (``FsyncPolicy/always``).
///
/// Confined to the event loop, like the sessions. Its lists are `@exclusivity(unchecked)`:
/// they are touched on every batch, only on the loop thread, by these synchronous methods, and
/// the flush of a released session never parks or releases a session itself (its position is
/// confirmed) — so the dynamic exclusivity check could never fire.
final class AckGate<State, Action> {
  private let journal: Journal
  @exclusivity(unchecked) private var parked: [Session<State, Action>] = []
  /// The list being released, kept to reuse its storage.
  @exclusivity(unchecked) private var releasing: [Session<State, Action>] = []
  /// The host's output, to flush released sessions through (set by the host when it starts;
  /// cleared when it stops, which ends the reference cycle output → gate → output).
  @exclusivity(unchecked) var output: SessionOutput<State, Action>?

  init(journal: Journal) {
    self.journal = journal
  }

  /// Whether client actions may be reduced now (else they are answered `unavailable`).
  var admitsActions: Bool { self.journal.isAcceptingActions }

  /// Makes the session's output wait for every record encoded so far (call right after its
  /// action was reduced).
  @inline(__always)
  func holdReplies(of session: Session<State, Action>) {
    session.journalPosition = self.journal.appended
  }

  /// Whether the session's output must wait; if so it is parked until ``confirm(_:)``.
  @inline(__always)
  func holds(_ session: Session<State, Action>) -> Bool {
    guard session.journalPosition > self.journal.confirmed else { return false }
    if !session.isParked {
      session.isParked = true
      self.parked.append(session)
    }
    return true
  }

  /// The journal confirmed `position`: releases the sessions waiting for it.
  func confirm(_ position: UInt64) {
    guard !self.parked.isEmpty, let output = self.output else { return }
    swap(&self.parked, &self.releasing)
    for session in self.releasing {
      if session.journalPosition > position {
        self.parked.append(session)
        continue
      }
      session.isParked = false
      // Its output leaves now; a session that was closing closes once it has (one the client
      // closed meanwhile ignores both: its channel is closed).
      output.flush(session)
      if session.phase == .closing {
        session.channel.close()
      } else {
        output.updateBackpressure(session)
      }
    }
    self.releasing.removeAll(keepingCapacity: true)
  }
}
