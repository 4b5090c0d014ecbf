import Wire

/// Decides, when a connection is accepted, whether the host serves it — and, once it is
/// served, whether it said `hello` in time.
struct AdmissionPolicy {
  /// What becomes of a new connection.
  enum Decision {
    /// It is served, with this role.
    case admit(AccessRole)
    /// It is answered `message`, then closed; `reason` is logged.
    case refuse(HostMessage, reason: String)
  }

  let configuration: HostConfiguration

  /// Decides about a connection from `client` (`nil` when the platform could not say who it
  /// is), while the host serves `connections` others.
  func decide(client: ConnectingClient?, connections: Int, isShuttingDown: Bool) -> Decision {
    if isShuttingDown {
      return .refuse(.bye(reason: "shutdown"), reason: "host is shutting down")
    }
    guard let client else {
      return .refuse(
        .error(
          id: nil, code: .forbidden,
          message: "the host cannot tell which user is connecting, so it serves nobody it "
            + "cannot identify"),
        reason: "no peer credentials")
    }
    let role: AccessRole
    switch self.configuration.access.decision(for: client, hostUserID: Platform.userID) {
    case .allow(let granted):
      role = granted
    case .refuse(let why):
      return .refuse(
        .error(id: nil, code: .forbidden, message: why),
        reason: "uid \(client.userID) refused: \(why)")
    }
    if connections >= self.configuration.maxConnections {
      return .refuse(
        .error(
          id: nil, code: .overloaded,
          message: "the host already serves \(self.configuration.maxConnections) connections "
            + "(its --max-connections limit); try again later"),
        reason: "connection limit \(self.configuration.maxConnections) reached")
    }
    return .admit(role)
  }

  /// Whether `session` is still waiting for its `hello` past the hello timeout at `now`.
  func isHelloOverdue<State, Action>(_ session: Session<State, Action>, now: Double) -> Bool {
    session.phase == .awaitingHello && now - session.acceptedAt > self.configuration.helloTimeout
  }
}
