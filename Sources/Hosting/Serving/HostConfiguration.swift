/// How a host listens and what it allows; every limit has a sane default.
public struct HostConfiguration: Sendable {
  /// The socket file's path.
  public var socketPath: String
  /// The socket file's permission bits (default `0o600`: only the owner may connect).
  public var socketMode: UInt32 = 0o600
  /// Whether processes of other users may connect (checked with the peer's credentials).
  public var allowOtherUsers = false
  /// The largest frame the host reads or writes (default 16 MiB).
  public var maxFrameSize = 16 * 1024 * 1024
  /// The most client connections served at once; one more is answered `overloaded`.
  public var maxConnections = 1024
  /// The most subscriptions one connection may hold.
  public var maxSubscriptionsPerConnection = 256
  /// Bytes of replies queued for a client above which the host stops reading its requests
  /// until it drains. (Pushes are never queued behind unsent output: a client that is behind
  /// gets one coalesced patch per subscription when it catches up.) Bounds memory per
  /// connection.
  public var outboundHighWaterMark = 1 << 20
  /// Bytes buffered from all clients together — frames that have begun to arrive but are not
  /// complete yet — above which the host closes the connections holding the most, each with
  /// `error{code:"overloaded"}`, until it is back under (default 256 MiB). Other connections
  /// are served as usual. Must be at least ``maxFrameSize``.
  public var maxBufferedBytes = 256 * 1024 * 1024
  /// Seconds a frame that has begun to arrive may wait for its next byte; a stalled frame is
  /// dropped with `error{code:"bad_frame"}` and its connection closed (default 30; checked
  /// once a second). A connection whose reading the host paused (it does not read its
  /// replies) is not timed meanwhile.
  public var frameTimeout: Double = 30
  /// Seconds a new connection may take to say `hello`; a silent one is answered
  /// `hello_required` and closed, so idle connections cannot hold the connection slots.
  public var helloTimeout: Double = 10
  /// After a push that took longer than half a millisecond (a large collection re-encoded),
  /// its scope waits this many times that cost before its next push, so that watchers of
  /// large states cannot make the host spend most of its time encoding. The last change is
  /// always delivered, once the wait is over.
  public var costlyPushWaitFactor: Double = 4
  /// How many of the most recently reduced actions the host keeps in memory for its history
  /// (PROTOCOL.md §8: `history`, `tail`, `get` with `at`); at least this many are kept, and up
  /// to a quarter more (plus one event-loop batch of actions) between two trims. `0` keeps none and turns the feature off: `welcome`
  /// does not list `"history"`, and reduced actions are not recorded at all.
  public var historyLimit = 100_000
  /// The host's name and version, sent in `welcome`.
  public var hostName = "storehost/1.0"
  /// Where log lines go, and how much is logged.
  public var logLevel: LogLevel = .info

  /// A configuration for a socket path with every other setting at its default.
  public init(socketPath: String) {
    self.socketPath = socketPath
  }
}
