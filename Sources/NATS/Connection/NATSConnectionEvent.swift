/// Where a ``NATSConnection`` stands.
public enum NATSConnectionStatus: Sendable, Equatable {
  /// Created, not started.
  case idle
  /// Making its first connection.
  case connecting
  /// Connected to a server: publishes go out at once.
  case connected
  /// Lost its server and looking for one: publishes are buffered (bounded).
  case reconnecting
  /// Closed by its owner, or out of servers. Final.
  case closed
}

/// Something that happened to a ``NATSConnection``, for logs and for code that reacts (an
/// ordered consumer recreates itself after a reconnection).
public enum NATSConnectionEvent: Sendable {
  /// The first connection is established, to this server.
  case connected(NATSServerURL, NATSServerInfo)
  /// The connection to the server was lost; the client reconnects unless told not to.
  case disconnected(NATSError)
  /// A connection attempt failed (the server is down, refused, or did not answer in time).
  case connectAttemptFailed(NATSServerURL, NATSError)
  /// A new connection is established after a loss; subscriptions are in place again.
  case reconnected(NATSServerURL, NATSServerInfo)
  /// The server sent a new `INFO` (the cluster changed, or the server entered lame-duck mode).
  case serverInfoChanged(NATSServerInfo)
  /// The server reported an error that does not end the connection (a permissions violation).
  case serverError(String)
  /// A problem with no caller to report it to: a message buffered while reconnecting that the
  /// new server's `max_payload` refuses (dropped), a subscriber that fell behind.
  case asyncError(NATSError)
  /// The connection is closed: `nil` when its owner closed it, else why.
  case closed(NATSError?)
}

/// Identifies a subscription of a ``NATSConnection``.
public struct NATSSubscriptionID: Sendable, Hashable, CustomStringConvertible {
  /// The protocol's `sid`.
  public let rawValue: UInt64

  /// The `sid` in decimal.
  public var description: String { String(self.rawValue) }
}

/// Identifies an observer of a ``NATSConnection``'s events.
public struct NATSObserverID: Sendable, Hashable {
  let rawValue: UInt64
}

/// Counters of a ``NATSConnection`` since it was created.
public struct NATSStatistics: Sendable, Equatable {
  /// Messages delivered to subscriptions (replies included).
  public var messagesReceived: UInt64 = 0
  /// Header and payload bytes of those messages.
  public var bytesReceived: UInt64 = 0
  /// Messages published (including requests), counted when written or buffered.
  public var messagesSent: UInt64 = 0
  /// Header and payload bytes of those messages.
  public var bytesSent: UInt64 = 0
  /// Connections established after a loss.
  public var reconnects: UInt64 = 0
}
