/// How an ``HTTPServer`` listens, and the limits and timeouts that keep one bad client from
/// costing others anything.
public struct HTTPServerConfiguration: Sendable {
  /// The address to listen on.
  public var address: IPv4Address
  /// The port, or 0 for a free one chosen by the system (see ``HTTPServer/port``).
  public var port: UInt16
  /// What a request may hold.
  public var limits: HTTPLimits
  /// How long a client may take to send a whole request, from its first byte:
  /// `408 Request Timeout` after it, then close.
  public var requestTimeout: Duration
  /// How long a connection may sit without a request — new, or kept alive after one — before
  /// it is closed (quietly: there is nothing to answer).
  public var idleTimeout: Duration
  /// How long the handler may take to answer: `503 Service Unavailable` after it.
  public var responseTimeout: Duration
  /// How long a client may leave queued output unread before the connection is closed.
  public var writeTimeout: Duration
  /// The most open connections; more are answered `503` and closed.
  public var maxConnections: Int
  /// The most bytes an event stream may have queued for a client that does not read; beyond
  /// it the stream is closed (the client reconnects and starts afresh).
  public var maxStreamBacklog: Int
  /// How often an idle event stream sends a comment, so that a vanished client is noticed.
  public var heartbeatInterval: Duration

  /// Describes a server.
  ///
  /// - Parameters:
  ///   - address: The address to listen on (default `127.0.0.1`).
  ///   - port: The port, 0 for any free one.
  ///   - limits: The request limits.
  ///   - requestTimeout: The time to send a request (default 10 s).
  ///   - idleTimeout: The time a connection may sit without a request (default 60 s).
  ///   - responseTimeout: The time the handler has to answer (default 30 s).
  ///   - writeTimeout: The time a client may leave output unread (default 30 s).
  ///   - maxConnections: The most open connections (default 256).
  ///   - maxStreamBacklog: The most bytes queued on an event stream (default 4 MiB).
  ///   - heartbeatInterval: The period of an event stream's comments (default 15 s).
  public init(
    address: IPv4Address = .loopback, port: UInt16 = 0, limits: HTTPLimits = HTTPLimits(),
    requestTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60),
    responseTimeout: Duration = .seconds(30), writeTimeout: Duration = .seconds(30),
    maxConnections: Int = 256, maxStreamBacklog: Int = 4 << 20,
    heartbeatInterval: Duration = .seconds(15)
  ) {
    self.address = address
    self.port = port
    self.limits = limits
    self.requestTimeout = requestTimeout
    self.idleTimeout = idleTimeout
    self.responseTimeout = responseTimeout
    self.writeTimeout = writeTimeout
    self.maxConnections = maxConnections
    self.maxStreamBacklog = maxStreamBacklog
    self.heartbeatInterval = heartbeatInterval
  }
}

extension Duration {
  /// The duration in whole nanoseconds (saturating), for deadlines on the monotonic clock.
  var nanoseconds: UInt64 {
    let (seconds, attoseconds) = self.components
    guard seconds >= 0 else { return 0 }
    let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? .max : whole &+ UInt64(attoseconds / 1_000_000_000)
  }
}
