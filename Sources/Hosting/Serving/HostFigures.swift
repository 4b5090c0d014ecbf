/// The live figures of a running host, served read-only as the `_host` scope.
public struct HostFigures: Codable, Equatable, Sendable {
  /// What `scopes` lists as the `_host` scope's description.
  static let summary =
    "Live figures of this host: connections (by user and role), subscriptions, revision, "
    + "throughput, bytes, uptime, memory"

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
  /// What the host's memory holds, by holder (see ``Memory``).
  public var memory: Memory

  /// The host's memory by holder: each is bounded by a setting of ``HostConfiguration``, and
  /// their sum with the state itself is what the host needs (README, "How much memory").
  public struct Memory: Codable, Equatable, Sendable {
    /// The host's resident set size, as the system counts it (`VmRSS`; 0 where unknown).
    public var residentBytes: Int64
    /// The history's entries in memory (PROTOCOL.md §8).
    public var historyEntries: Int64
    /// What those entries hold, estimated; bounded by
    /// ``HostConfiguration/historyMemoryLimit`` (plus a quarter of it between two trims).
    public var historyBytes: Int64
    /// What the change logs of watched collections keep for their watchers, estimated;
    /// bounded by ``HostConfiguration/changeLogMemoryLimit``.
    public var changeLogBytes: Int64
    /// Frames that have begun to arrive but are not complete; bounded by
    /// ``HostConfiguration/maxBufferedBytes``.
    public var unfinishedFrameBytes: Int64

    /// Figures of a host that holds nothing yet.
    public init(
      residentBytes: Int64 = 0, historyEntries: Int64 = 0, historyBytes: Int64 = 0,
      changeLogBytes: Int64 = 0, unfinishedFrameBytes: Int64 = 0
    ) {
      self.residentBytes = residentBytes
      self.historyEntries = historyEntries
      self.historyBytes = historyBytes
      self.changeLogBytes = changeLogBytes
      self.unfinishedFrameBytes = unfinishedFrameBytes
    }
  }
}
