import Wire

extension HostCore {
  /// Connects the history's callbacks to the core; called once by ``StoreHost/start``, before
  /// the host reduces or listens.
  @usableFromInline
  func connectHistory() {
    history?.log.scheduler = self
    history?.builder.setReceiver(self)
  }

  /// Called inside a reduce when the history has work to do after it.
  nonisolated func historyNeedsAttention() {
    loop.execute { [self] in
      self.assumeIsolated(on: loop) { core in core.attendHistory() }
    }
  }

  /// Takes a due checkpoint of the root state, and sends tails their new entries.
  private func attendHistory() {
    guard let history else { return }
    if history.log.attend() {
      history.log.takeCheckpoint(store.state, revision: revision.value)
    }
    guard history.log.tailCount > 0 else { return }
    for session in sessions.values where !session.tails.isEmpty {
      history.tails.pump(session, beforeReplies: false)
      output.flush(session)
    }
  }

  /// Called on the loop with a past state a connection's `get` with `at` asked for.
  nonisolated func pastStateDidLoad(session id: Int, _ result: Result<State, PastStateFailure>) {
    self.assumeIsolated(on: loop) { core in core.answerPastState(session: id, result) }
  }

  /// Called on the loop with the entries a connection's `history` or tail needed from disk.
  nonisolated func entriesDidLoad(
    session id: Int, through: Int64, _ result: Result<[HistoryEntry], any Error>
  ) {
    self.assumeIsolated(on: loop) { core in
      core.answerHistoryRead(session: id, through: through, result)
    }
  }

  /// Answers the waiting `history` request (or sends a tail the entries read), then handles
  /// the requests that waited behind it once nothing more is being read.
  private func answerHistoryRead(
    session id: Int, through: Int64, _ result: Result<[HistoryEntry], any Error>
  ) {
    guard let history, let session = sessions[id], session.pendingHistoryRead != nil else {
      return
    }
    history.entriesDidLoad(result, through: through, session: session)
    guard !session.isAwaitingPastState else { return }
    let revisionBefore = revision.value
    handleFrames(session)
    endBatch(session, revisionBefore: revisionBefore)
  }

  /// Answers the waiting `get` with `at`, then handles the requests that waited behind it.
  private func answerPastState(session id: Int, _ result: Result<State, PastStateFailure>) {
    guard let history, let session = sessions[id], let pending = session.pendingPastState
    else { return }
    session.pendingPastState = nil
    history.answer(pending, result, session: session)
    let revisionBefore = revision.value
    handleFrames(session)
    endBatch(session, revisionBefore: revisionBefore)
  }
}
