/// Who besides the host's own user may connect to a host, and with which role.
///
/// The socket's peer credentials decide, when a connection is accepted:
///
/// ```
///   the host's own user ──────────────────────────────▶ rw, always
///   decide(client) returns a decision ────────────────▶ that decision
///   rules that apply (user, group, everyone) ─────────▶ the greatest role they grant
///   nothing applies ──────────────────────────────────▶ refused: error{code:"forbidden"}, closed
/// ```
///
/// ```swift
/// var configuration = HostConfiguration(socketPath: path)
/// configuration.access.rules = [try AccessRule(parsing: "@staff:ro")]
/// configuration.access.decide = { client in
///   client.userID == deployUserID ? .allow(.readWrite) : nil   // nil: the rules decide
/// }
/// ```
///
/// The socket file's mode follows the policy (see ``HostConfiguration/socketMode``), but it
/// only lets a process *reach* the socket: the peer check here is what admits it.
public struct AccessPolicy: Sendable {
  /// The grants, in any order: a client gets the greatest role of the rules that apply to it.
  public var rules: [AccessRule]
  /// Decides about a client before the rules, for programs with a policy of their own;
  /// returning `nil` leaves the decision to ``rules``. Called on the host's event loop for
  /// every connection of another user: it must return quickly (no blocking I/O).
  public var decide: (@Sendable (ConnectingClient) -> AccessDecision?)?

  /// A policy of `rules` and an optional hook.
  ///
  /// - Parameters:
  ///   - rules: The grants (none: only the host's own user may connect).
  ///   - decide: Decides before the rules; `nil` from it leaves the decision to them.
  public init(
    rules: [AccessRule] = [], decide: (@Sendable (ConnectingClient) -> AccessDecision?)? = nil
  ) {
    self.rules = rules
    self.decide = decide
  }

  /// Whether anyone besides the host's own user may be admitted (a rule or a hook exists).
  public var admitsOthers: Bool { !self.rules.isEmpty || self.decide != nil }

  /// Whether every user of the machine may send (`--allow-other-users`, or `*:rw`).
  public var letsEveryoneWrite: Bool {
    self.rules.contains(AccessRule(.everyone, .readWrite))
  }

  /// The decision for `client`, on a host run by `hostUserID`.
  ///
  /// - Parameters:
  ///   - client: Who is connecting.
  ///   - hostUserID: The host process's user id.
  /// - Returns: The role to serve it with, or why it is refused.
  public func decision(for client: ConnectingClient, hostUserID: UInt32) -> AccessDecision {
    if client.userID == hostUserID { return .allow(.readWrite) }
    if let decide = self.decide, let decision = decide(client) { return decision }
    let granted = self.rules.filter { $0.applies(to: client) }.map(\.role).max()
    guard let granted else {
      return .refuse(
        reason: "connections from uid \(client.userID) are not allowed; this host serves uid "
          + "\(hostUserID)\(self.rules.isEmpty ? " only" : " and the users its --allow names") "
          + "(start it with --allow to change that)")
    }
    return .allow(granted)
  }
}
