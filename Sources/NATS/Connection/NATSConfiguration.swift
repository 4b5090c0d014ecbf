/// How a ``NATSConnection`` connects, reconnects and bounds what it buffers.
///
/// ```swift
/// var configuration = NATSConfiguration(servers: try NATSServerURL.parseList("nats://a:4222,nats://b:4222"))
/// configuration.name = "storehost counter"
/// configuration.pingInterval = .seconds(5)     // notice a silent server within ~15 s
/// ```
///
/// The servers are tried in order (the first that answers wins); those a server advertises in
/// its `INFO` (`connect_urls`) join the list. After a disconnection the client tries the next
/// server at once and waits ``reconnectWait`` before trying one it tried last.
public struct NATSConfiguration: Sendable {
  /// The servers to connect to, in order of preference.
  public var servers: [NATSServerURL]
  /// The client's name, shown by the server's monitoring (`connz`).
  public var name: String?
  /// A user name, overriding one given in a URL.
  public var user: String?
  /// A password, overriding one given in a URL.
  public var password: String?
  /// An authentication token, overriding one given in a URL.
  public var token: String?
  /// How long a connection attempt may take, from the TCP connect to the server's answer of
  /// the handshake.
  public var connectTimeout: Duration = .seconds(2)
  /// Whether a lost connection is re-established (otherwise the connection closes).
  public var allowsReconnect = true
  /// How long to wait before trying again a server that was tried last (others are tried at
  /// once), plus up to 10 % of random jitter.
  public var reconnectWait: Duration = .milliseconds(500)
  /// How many consecutive failed attempts a server is given before it is dropped from the
  /// list; `nil` never drops one (a replicating host waits for its servers however long they
  /// are down). When every server is dropped the connection closes with
  /// ``NATSError/Code/noServersAvailable``.
  public var maxReconnectAttempts: Int?
  /// Whether the first connection keeps trying like a reconnection when no server answers
  /// (otherwise it fails once every server has been tried once).
  public var retriesInitialConnect = false
  /// Whether the servers are tried in a random order (spreads clients over a cluster).
  public var randomizesServers = false
  /// How often the client checks that the server is alive (`PING`).
  public var pingInterval: Duration = .seconds(30)
  /// How many `PING`s may go unanswered before the connection is declared stale and dropped.
  public var maxPingsOutstanding = 2
  /// The most bytes of publishes kept while reconnecting; beyond it, a publish fails with
  /// ``NATSError/Code/reconnectBufferFull(limit:)``.
  public var reconnectBufferBytes = 8 * 1024 * 1024
  /// The most bytes waiting to be sent to a connected server that does not read; beyond it, a
  /// publish fails with ``NATSError/Code/outputBufferFull(limit:)``.
  public var maxOutboundBytes = 64 * 1024 * 1024
  /// The largest message accepted from the server when its `max_payload` is smaller (server-made
  /// replies such as a stream's info may exceed it); messages up to the server's `max_payload`
  /// are always accepted. A larger one is a protocol violation.
  public var maxInboundMessageBytes = 8 * 1024 * 1024
  /// The time a request waits for its reply unless told otherwise.
  public var requestTimeout: Duration = .seconds(5)
  /// Whether the client receives the messages it publishes itself on subjects it subscribes to.
  public var echo = true
  /// The prefix of reply subjects (`_INBOX` unless the account's permissions need another).
  public var inboxPrefix = "_INBOX"

  /// A configuration for `servers`.
  ///
  /// - Parameter servers: At least one server.
  public init(servers: [NATSServerURL]) {
    self.servers = servers
  }

  /// A configuration for a comma-separated list of URLs.
  ///
  /// - Parameter urls: `nats://host:port[,nats://host:port…]`.
  /// - Throws: ``NATSError`` naming an invalid URL.
  public init(urls: String) throws(NATSError) {
    self.init(servers: try NATSServerURL.parseList(urls))
  }

  /// The largest `max_payload` a server may announce before the client stops trusting it (the
  /// server's own ceiling is 64 MiB).
  static let maxTrustedPayload = 64 * 1024 * 1024
}
