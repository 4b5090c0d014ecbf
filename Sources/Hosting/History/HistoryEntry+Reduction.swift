import Wire

extension HistoryEntry {
  /// The entry a history reader sees for one reduced action: its time as RFC 3339 UTC, its
  /// origin with the session as the string `welcome` gave it, and its action's JSON (as sent to
  /// its scope, or the root action's for effect and host actions, `null` when that cannot be
  /// encoded).
  init<Action>(_ reduction: Reduction<Action>) {
    let origin: Origin
    switch reduction.origin {
    case .client(let session, let client, let pid, let uid):
      origin = .client(
        session: String(session), client: client, pid: Int64(pid), uid: Int64(uid))
    case .effect:
      origin = .effect
    case .host:
      origin = .host
    }
    self.init(
      rev: reduction.revision, time: WallClock.rfc3339(milliseconds: reduction.time),
      origin: origin, scope: reduction.scope, action: reduction.actionJSON())
  }
}
