import Wire

/// Decides, when a connection is accepted, whether the host serves it — and, once it is
/// served, whether it said `hello` in time.
struct AdmissionPolicy {
  /// What becomes of a new connection.
  enum Decision {
    /// It is served.
    case admit
    /// It is answered `message`, then closed; `reason` is logged.
    case refuse(HostMessage, reason: String)
  }

  let configuration: HostConfiguration

  /// Decides about a connection from `userID`, while the host serves `connections` others.
  func decide(userID: UInt32, connections: Int, isShuttingDown: Bool) -> Decision {
    if isShuttingDown {
      return .refuse(.bye(reason: "shutdown"), reason: "host is shutting down")
    }
    if userID != Platform.userID && !self.configuration.allowOtherUsers {
      return .refuse(
        .error(
          id: nil, code: .forbidden,
          message: "connections from uid \(userID) are not allowed; this host serves uid "
            + "\(Platform.userID) only (start it with --allow-other-users to change that)"),
        reason: "peer uid \(userID) is another user")
    }
    if connections >= self.configuration.maxConnections {
      return .refuse(
        .error(
          id: nil, code: .overloaded,
          message: "the host already serves \(self.configuration.maxConnections) connections "
            + "(its --max-connections limit); try again later"),
        reason: "connection limit \(self.configuration.maxConnections) reached")
    }
    return .admit
  }

  /// Whether `session` is still waiting for its `hello` past the hello timeout at `now`.
  func isHelloOverdue<State, Action>(_ session: Session<State, Action>, now: Double) -> Bool {
    session.phase == .awaitingHello && now - session.acceptedAt > self.configuration.helloTimeout
  }
}
