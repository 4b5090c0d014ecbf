import Wire

/// The host-wide budget for bytes buffered from clients, and the timeout of a frame that
/// stops arriving.
///
/// Complete frames are handled as soon as they are read, so what the host buffers from
/// clients is the frames that have begun to arrive but are not complete yet. Each session's
/// share is counted after every read. Over ``limit`` the host closes the connections that
/// hold the most, largest first, each with `error{code:"overloaded"}`, until the total is
/// back under it: a few misbehaving connections lose their unfinished frames, everyone else
/// is served as usual, and the host's memory stays within the budget plus its state.
///
/// A frame that has begun to arrive and then gets no byte for ``frameTimeout`` seconds is
/// dropped with `error{code:"bad_frame"}` (see ``isStalled(_:now:)``), so stalled frames do
/// not sit in the budget until it overflows.
@usableFromInline
final class InputBudget {
  /// The most bytes buffered from all clients together.
  let limit: Int
  /// Seconds an unfinished frame may wait for its next byte.
  let frameTimeout: Double
  /// Bytes buffered from all clients now. `@exclusivity(unchecked)`: only touched on the
  /// event loop, by this class's methods, never passed `inout` elsewhere.
  @exclusivity(unchecked) private(set) var buffered = 0

  init(limit: Int, frameTimeout: Double) {
    self.limit = limit
    self.frameTimeout = frameTimeout
  }

  /// Counts what `session` buffers after a read.
  ///
  /// - Returns: The bytes the session stopped holding (a big frame completed and handled),
  ///   for ``MemoryReclaimer``; 0 when it holds as much or more.
  @usableFromInline @inline(__always)
  func account<State, Action>(_ session: Session<State, Action>) -> Int {
    let now = session.decoder.bufferedByteCount
    let before = session.bufferedBytes
    guard now != before else { return 0 }
    session.bufferedBytes = now
    self.buffered += now - before
    return max(0, before - now)
  }

  /// Whether the clients' buffered bytes are over the budget.
  @usableFromInline
  var isOverdrawn: Bool { self.buffered > self.limit }

  /// Forgets the share of a session that will not be read again (closing or closed); a second
  /// call finds nothing.
  ///
  /// - Returns: The bytes it held.
  @usableFromInline
  func release<State, Action>(_ session: Session<State, Action>) -> Int {
    let held = session.bufferedBytes
    self.buffered -= held
    session.bufferedBytes = 0
    return held
  }

  /// The sessions to close to get back under the budget: those holding the most, largest
  /// first (ties: the newest connection first).
  func evictions<State, Action>(
    _ sessions: [Int: Session<State, Action>].Values
  ) -> [Session<State, Action>] {
    var excess = self.buffered - self.limit
    guard excess > 0 else { return [] }
    let holders = sessions.filter { $0.bufferedBytes > 0 && $0.phase != .closing }
      .sorted { ($0.bufferedBytes, $0.id) > ($1.bufferedBytes, $1.id) }
    var chosen: [Session<State, Action>] = []
    for session in holders where excess > 0 {
      chosen.append(session)
      excess -= session.bufferedBytes
    }
    return chosen
  }

  /// Whether `session`'s unfinished frame got no byte for ``frameTimeout`` seconds at `now`;
  /// asked once a second. A session whose reading the host paused is not timed meanwhile
  /// (its bytes wait in the kernel, not in the host), and starts a new period when resumed.
  func isStalled<State, Action>(_ session: Session<State, Action>, now: Double) -> Bool {
    guard session.bufferedBytes > 0, session.phase != .closing, !session.isReadingPaused,
      session.bytesReceived == session.progressMark
    else {
      session.progressMark = session.bytesReceived
      session.progressAt = now
      return false
    }
    return now - session.progressAt >= self.frameTimeout
  }
}
