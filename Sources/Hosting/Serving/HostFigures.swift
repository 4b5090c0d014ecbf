/// The live figures of a running host, served read-only as the `_host` scope.
public struct HostFigures: Codable, Equatable, Sendable {
  /// What `scopes` lists as the `_host` scope's description.
  static let summary =
    "Live figures of this host: connections (by user and role), subscriptions, revision, "
    + "throughput, bytes, uptime"

  /// Open client connections (after the handshake).
  public var connections: Int
  /// The open connections by user and role, ordered by uid, then role.
  public var connectionsByUser: [UserConnections]
  /// Live subscriptions over all connections.
  public var subscriptions: Int
  /// The root revision.
  public var revision: Int64
  /// Actions reduced since start, from clients and from effects.
  public var actionsReduced: Int64
  /// Actions received from clients since start.
  public var actionsFromClients: Int64
  /// Actions reduced during the last whole second.
  public var actionsPerSecond: Int64
  /// Bytes read from clients since start.
  public var bytesIn: Int64
  /// Bytes written to clients since start.
  public var bytesOut: Int64
  /// Whole seconds since the host started.
  public var uptimeSeconds: Int64
}
