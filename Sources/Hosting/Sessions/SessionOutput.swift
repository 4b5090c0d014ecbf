import Wire

/// How a session's frames leave the host: replies held behind pushes, frame-size limits,
/// the write, back-pressure and fatal errors.
///
/// A session builds its output in two buffers on the loop thread, then hands it to its
/// channel once per batch:
///
/// ```
///   replies ─▶ heldReplies ─┐   (released after the pushes they must follow: read your writes)
///   pushes ──▶ output ◀─────┘ ─▶ flush ─▶ channel.write ─▶ one send at the end of the loop
///                                           │
///   outbound bytes > high-water mark ◀──────┘ ─▶ stop reading the client until it drains
/// ```
@usableFromInline
struct SessionOutput {
  /// The largest frame the host writes.
  @usableFromInline let maxFrameSize: Int
  /// Queued bytes above which a client's requests are no longer read.
  @usableFromInline let highWaterMark: Int
  @usableFromInline let log: HostLogger
  @usableFromInline let statistics: HostStatistics
  @usableFromInline let reclaimer: MemoryReclaimer
  /// A durable host's gate: output that follows an acknowledgement waits for its journal
  /// record (`nil` in memory).
  @usableFromInline let gate: AckGate?

  /// Queues a reply behind the pushes it must follow.
  @inlinable
  func reply<State, Action>(_ session: Session<State, Action>, _ message: HostMessage) {
    if case .error(_, let code, let text) = message {
      self.log(.warning, "session=\(session.id) \(code.rawValue): \(text)")
    }
    var id: Int64?
    switch message {
    case .state(let replyID, _, _, _), .scopes(let replyID, _): id = replyID
    default: id = nil
    }
    _ = self.append(message, to: &session.heldReplies, id: id, scope: nil)
  }

  /// Answers request `id` with `unknown_scope`: `name` matches no scope pattern.
  @inlinable
  func replyUnknownScope<State, Action>(
    _ session: Session<State, Action>, id: Int64?, scope name: String
  ) {
    self.reply(
      session,
      .error(
        id: id, code: .unknownScope,
        message: "no scope matches '\(name)'; 'scopes' lists the patterns"))
  }

  /// Answers a request for a scope whose `{id}` names no element of its collection (or is not
  /// an id at all, or is the pattern itself): what to write instead, and the ids there are.
  @usableFromInline
  func replyNoElement<State, Action>(
    _ session: Session<State, Action>, id: Int64?, scope name: String,
    of scope: HostedScope<State, Action>, isMalformed: Bool, root: State
  ) {
    self.reply(
      session,
      .error(
        id: id, code: .scopeUnavailable,
        message: scope.noElementMessage(name, isMalformed: isMalformed, root: root)))
  }

  /// Whether `session` may open another subscription or tail under `limit` (subscriptions and
  /// tails count together); when it may not, answers request `id` with `overloaded`.
  func admitsAnotherSubscription<State, Action>(
    _ session: Session<State, Action>, limit: Int, id: Int64
  ) -> Bool {
    let held = session.subscriptions.count + session.tails.count
    guard held >= limit else { return true }
    self.reply(
      session,
      .error(
        id: id, code: .overloaded,
        message: "this connection already holds \(held) subscriptions and tails, the limit; "
          + "unsubscribe from one first"))
    return false
  }

  /// Encodes `message`, answering `frame_too_large` instead when it would exceed the limit.
  ///
  /// - Returns: Whether `message` itself was appended.
  @inlinable
  func append(
    _ message: HostMessage, to buffer: inout [UInt8], id: Int64?, scope: String?
  ) -> Bool {
    let start = buffer.count
    message.encodeFrame(into: &buffer)
    let length = buffer.count - start - 4
    guard length > self.maxFrameSize else { return true }
    buffer.removeSubrange(start...)
    let what = scope.map { "the state of '\($0)'" } ?? "the reply"
    HostMessage.error(
      id: id, code: .frameTooLarge,
      message:
        "\(what) would take \(length) bytes, over this host's \(self.maxFrameSize)-byte frame limit"
    ).encodeFrame(into: &buffer)
    return false
  }

  /// Answers a fatal protocol error and marks the connection to close after this batch.
  @usableFromInline
  func fail<State, Action>(
    _ session: Session<State, Action>, code: ErrorCode, id: Int64?, _ message: String
  ) {
    self.log(.warning, "session=\(session.id) \(code.rawValue): \(message); closing")
    HostMessage.error(id: id, code: code, message: message).encodeFrame(into: &session.heldReplies)
    session.phase = .closing
  }

  /// Answers a connection the host does not admit, then closes it.
  func refuse<State, Action>(
    _ session: Session<State, Action>, _ message: HostMessage, because reason: String
  ) {
    self.log(.warning, "refused pid=\(session.processID) uid=\(session.userID): \(reason)")
    message.encodeFrame(into: &session.output)
    self.flush(session)
    session.channel.close()
  }

  /// Hands what `session` has ready to its channel — unless it follows an acknowledgement
  /// whose journal record is not confirmed yet: it then stays queued, in order, until it is.
  @inline(__always)
  @inlinable
  func flush<State, Action>(_ session: Session<State, Action>) {
    let count = session.output.count
    guard count > 0 else { return }
    if let gate = self.gate, gate.holds(session) { return }
    self.statistics.bytesOut += Int64(count)
    if count > session.largestWrite { session.largestWrite = count }
    session.channel.write(session.output)
    let released = session.clearOutput()
    if released > 0 { self.reclaimer.noteRelease(released) }
  }

  /// Moves `session`'s held replies behind its output (their pushes are in it now).
  @inline(__always)
  @inlinable
  func appendHeldReplies<State, Action>(_ session: Session<State, Action>) {
    let released = session.releaseHeldReplies()
    if released > 0 { self.reclaimer.noteRelease(released) }
  }

  /// Stops reading a client whose replies pile up unread, and resumes once they drained;
  /// reading also waits while the connection's `get` with `at` is being answered (its later
  /// requests must wait for it).
  @inlinable
  func updateBackpressure<State, Action>(_ session: Session<State, Action>) {
    let backedUp = session.channel.outboundBytes > self.highWaterMark
    let paused = backedUp || session.isAwaitingPastState
    if paused != session.isReadingPaused {
      session.isReadingPaused = paused
      session.channel.setReadingPaused(paused)
      let why = backedUp ? "client is not reading" : "a past state is being rebuilt"
      self.log(.debug, "session=\(session.id) reading \(paused ? "paused: \(why)" : "resumed")")
    }
  }
}
