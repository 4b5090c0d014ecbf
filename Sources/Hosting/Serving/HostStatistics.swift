import Wire

/// The counters behind the `_host` scope, and the ``HostFigures`` built from them.
///
/// Owned by ``HostCore`` and shared by the parts it drives, all on the event loop. The
/// counters bumped per request are `@exclusivity(unchecked)`: they are only ever incremented
/// or read on the loop thread, never passed `inout` to code that could reach them again, so
/// the dynamic exclusivity check (a thread-local access-set insert per access) could never
/// fire.
@usableFromInline
final class HostStatistics {
  private let startedAt = Platform.monotonicSeconds()
  private let revision: RevisionCounter
  private let subscriptions: SubscriptionTally

  /// Accepted client connections; kept by the core as sessions come and go.
  @usableFromInline var connections = 0
  /// Accepted connections by user and role (``didConnect(userID:role:)``).
  private var connectionsByUser: [HostFigures.UserConnections.Key: Int] = [:]
  /// Actions received from clients and reduced.
  @exclusivity(unchecked) @usableFromInline var actionsFromClients: Int64 = 0
  /// Bytes read from clients.
  @exclusivity(unchecked) @usableFromInline var bytesIn: Int64 = 0
  /// Bytes handed to clients' connections.
  @exclusivity(unchecked) @usableFromInline var bytesOut: Int64 = 0
  /// What the host's holders keep now (set by the core once its parts exist).
  var memory: () -> HostFigures.Memory = { HostFigures.Memory() }
  private var actionsPerSecond: Int64 = 0
  private var revisionAtLastTick: Int64 = 0

  init(revision: RevisionCounter, subscriptions: SubscriptionTally) {
    self.revision = revision
    self.subscriptions = subscriptions
  }

  /// Counts a connection admitted for `userID` with `role`.
  func didConnect(userID: UInt32, role: AccessRole) {
    self.connectionsByUser[.init(userID: userID, role: role), default: 0] += 1
  }

  /// Forgets a connection counted by ``didConnect(userID:role:)``.
  func didDisconnect(userID: UInt32, role: AccessRole) {
    let key = HostFigures.UserConnections.Key(userID: userID, role: role)
    guard let count = self.connectionsByUser[key] else { return }
    self.connectionsByUser[key] = count > 1 ? count - 1 : nil
  }

  /// Measures the actions reduced since the last call; called once a second.
  func tick() {
    let current = self.revision.value
    self.actionsPerSecond = current - self.revisionAtLastTick
    self.revisionAtLastTick = current
  }

  /// The figures now.
  func figures() -> HostFigures {
    HostFigures(
      connections: self.connections,
      connectionsByUser: HostFigures.UserConnections.list(self.connectionsByUser),
      subscriptions: self.subscriptions.value,
      revision: self.revision.value,
      actionsReduced: self.revision.value,
      actionsFromClients: self.actionsFromClients,
      actionsPerSecond: self.actionsPerSecond,
      bytesIn: self.bytesIn,
      bytesOut: self.bytesOut,
      uptimeSeconds: Int64(Platform.monotonicSeconds() - self.startedAt),
      memory: self.memory())
  }

  /// The JSON form of `figures`, or of the figures now.
  func json(_ figures: HostFigures? = nil) -> JSON {
    (try? JSONValueEncoder().encode(figures ?? self.figures())) ?? .null
  }
}
