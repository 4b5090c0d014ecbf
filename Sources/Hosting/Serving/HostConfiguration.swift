import Wire

/// How a host listens and what it allows; every limit has a sane default.
public struct HostConfiguration: Sendable {
  /// The socket file's path.
  public var socketPath: String
  /// Whether the host creates the socket's directory and checks it before listening: mode
  /// 0700 (or the search bits ``access`` needs), refused when another user owns it or may
  /// write to it. `true` for the default path, in the user's private directory.
  public var managesSocketDirectory = false
  /// The socket file's permission bits; `nil` (the default) for the least that ``access``
  /// needs: `0o600` when only the host's user may connect, `0o660` with the group when the
  /// rules name one group, `0o666` otherwise. The peer check decides who is served, whatever
  /// the mode.
  public var socketMode: UInt32?
  /// Who besides the host's own user may connect, and with which role: ``AccessRole/readOnly``
  /// connections may read, subscribe and follow the history; ``AccessRole/readWrite`` ones may
  /// also send. By default nobody else may connect.
  public var access = AccessPolicy()
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
  /// Bytes the history in memory may hold (estimated: the actions' JSON and decoded values,
  /// default 64 MiB), besides ``historyLimit``: whichever bound is reached first drops the
  /// oldest entries, a quarter of what is kept at a time. A durable host still serves older
  /// entries from its journal; an in-memory one answers `entry_gap` past its oldest. The
  /// history also keeps up to five root states to rebuild past ones from, which share every
  /// part that did not change with the live state.
  public var historyMemoryLimit = 64 * 1024 * 1024
  /// Bytes the change logs of watched identified arrays may keep together (estimated, default
  /// 64 MiB). A log keeps the changes since its slowest watcher's last push, so that pushes to
  /// a whole collection's watchers cost O(changes); over the limit, the logs holding the most
  /// drop their oldest changes, and a watcher that far behind gets the whole collection once.
  public var changeLogMemoryLimit = 64 * 1024 * 1024
  /// The host's name and version, sent in `welcome`.
  public var hostName = "storehost/\(PackageVersion.current)"
  /// Where log lines go, and how much is logged.
  public var logLevel: LogLevel = .info
  /// What systemd passed the process: a listening socket to serve instead of binding
  /// ``socketPath``, the socket for status notifications, the watchdog's interval (see
  /// ``SystemdService`` and ``adoptSystemd(from:explicitSocket:)``). Nothing by default.
  public var systemd = SystemdService()

  /// A configuration for a socket path with every other setting at its default.
  ///
  /// - Parameter socketPath: The socket file's path; its directory must exist.
  public init(socketPath: String) {
    self.socketPath = socketPath
  }

  /// A configuration for the default socket path — `$STOREHOST_SOCKET`, else
  /// `storehost.sock` in the user's private directory (`$XDG_RUNTIME_DIR/storehost`, else
  /// `/tmp/storehost-<uid>`), which the host creates and checks — with every other setting
  /// at its default. Clients find the same path by default.
  ///
  /// - Parameter environment: The process environment.
  public init(defaultSocketIn environment: [String: String]) {
    self.socketPath = DefaultSocketPath.resolve(environment: environment)
    self.managesSocketDirectory = DefaultSocketPath.usesPrivateDirectory(environment: environment)
  }

  /// Whether processes of every other user may connect, with the read-write role
  /// (`--allow-other-users`; the same as an ``AccessRule`` for ``AccessRule/Subject/everyone``
  /// with ``AccessRole/readWrite``).
  public var allowOtherUsers: Bool {
    get { self.access.letsEveryoneWrite }
    set {
      let rule = AccessRule(.everyone, .readWrite)
      self.access.rules.removeAll { $0 == rule }
      if newValue { self.access.rules.append(rule) }
    }
  }
}
