extension ActionIntake {
  /// Whether `session`'s role lets it send; answers `forbidden`, naming the role, when not.
  /// Checked before anything else about the `send`, so that a read-only client learns nothing
  /// from trying.
  @inlinable
  func maySend(_ session: Session<State, Action>, id: Int64?) -> Bool {
    if session.role.maySend { return true }
    self.refuseSend(session, id: id)
    return false
  }

  /// Answers a read-only connection's `send` with `forbidden`, naming its role (out of line:
  /// the send path only reaches it for a read-only connection).
  @usableFromInline
  func refuseSend(_ session: Session<State, Action>, id: Int64?) {
    self.output.reply(
      session,
      .error(
        id: id, code: .forbidden,
        message: "send: this connection's role is \(session.role) (read-only): it may list "
          + "scopes, get, subscribe and read the history, not send actions; the host's "
          + "--allow gives uid \(session.userID) \(session.role)"))
  }
}
