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
  /// Actions received from clients and reduced.
  @exclusivity(unchecked) @usableFromInline var actionsFromClients: Int64 = 0
  /// Bytes read from clients.
  @exclusivity(unchecked) @usableFromInline var bytesIn: Int64 = 0
  /// Bytes handed to clients' connections.
  @exclusivity(unchecked) @usableFromInline var bytesOut: Int64 = 0
  private var actionsPerSecond: Int64 = 0
  private var revisionAtLastTick: Int64 = 0

  init(revision: RevisionCounter, subscriptions: SubscriptionTally) {
    self.revision = revision
    self.subscriptions = subscriptions
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
      subscriptions: self.subscriptions.value,
      revision: self.revision.value,
      actionsReduced: self.revision.value,
      actionsFromClients: self.actionsFromClients,
      actionsPerSecond: self.actionsPerSecond,
      bytesIn: self.bytesIn,
      bytesOut: self.bytesOut,
      uptimeSeconds: Int64(Platform.monotonicSeconds() - self.startedAt))
  }

  /// The JSON form of `figures`, or of the figures now.
  func json(_ figures: HostFigures? = nil) -> JSON {
    (try? JSONValueEncoder().encode(figures ?? self.figures())) ?? .null
  }
}
