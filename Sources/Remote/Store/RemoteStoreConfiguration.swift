import Wire

/// How a ``RemoteStore`` connects, and reconnects.
public struct RemoteStoreConfiguration: Sendable {
  /// The host's socket path (used when ``transport`` is `nil`). Left to its default, the host
  /// is where the environment says, as for `storeclient` (``ClientEnvironment``:
  /// `STOREHOST_HOST`, `STOREHOST_SOCKET`, `STOREHOST_SSH_COMMAND`…); set, it is this socket.
  public var socketPath: String {
    didSet { self.followsEnvironment = false }
  }
  /// Whether the host is found through ``ClientEnvironment`` (no socket path or transport was
  /// given).
  private var followsEnvironment: Bool
  /// The users whose host the store accepts on ``socketPath``: its own, root, and these
  /// (see ``HostUsers``); another user's socket is refused with
  /// ``RemoteError/untrustedHost(path:uid:user:)``.
  public var hostUsers: HostUsers
  /// How to reach the host, when not through the Unix socket at ``socketPath``: an
  /// ``SSHTransport`` to another machine, say. `nil` (the default) for the socket.
  public var transport: (any HostTransport)?
  /// The name sent in `hello`.
  public var clientName: String
  /// Whether to reconnect when the connection is lost (else the store fails at once).
  public var reconnects: Bool
  /// The delays between reconnection attempts.
  public var backoff: Backoff
  /// Attempts after which a store that cannot reconnect fails; `nil` for no limit.
  public var maxReconnectAttempts: Int?
  /// How long the host may take to answer `hello`.
  public var connectTimeout: Duration
  /// The loop connections run on (and the store's executor).
  public var loop: EventLoop

  /// Describes how to connect.
  ///
  /// - Parameters:
  ///   - socketPath: The host's socket path; `nil` (the default) for the host the environment
  ///     names (``ClientEnvironment``: `STOREHOST_HOST`, else `STOREHOST_SOCKET`, else the
  ///     default socket — as `storeclient` finds it).
  ///   - clientName: The name sent in `hello`.
  ///   - reconnects: Whether to reconnect when the connection is lost.
  ///   - backoff: The delays between reconnection attempts.
  ///   - maxReconnectAttempts: Attempts before giving up; `nil` for no limit.
  ///   - connectTimeout: How long the host may take to answer `hello`.
  ///   - loop: The loop to run on.
  ///   - hostUsers: The users whose host is accepted on the socket (default: this process's
  ///     and root).
  ///   - transport: How to reach the host instead of the socket, e.g. an ``SSHTransport``.
  public init(
    socketPath: String? = nil,
    hostUsers: HostUsers = .standard,
    transport: (any HostTransport)? = nil,
    clientName: String = "swift-remote/\(PackageVersion.current)",
    reconnects: Bool = true,
    backoff: Backoff = .default,
    maxReconnectAttempts: Int? = nil,
    connectTimeout: Duration = .seconds(5),
    loop: EventLoop = .shared
  ) {
    self.socketPath = socketPath ?? SocketPath.default
    self.followsEnvironment = socketPath == nil
    self.hostUsers = hostUsers
    self.transport = transport
    self.clientName = clientName
    self.reconnects = reconnects
    self.backoff = backoff
    self.maxReconnectAttempts = maxReconnectAttempts
    self.connectTimeout = connectTimeout
    self.loop = loop
  }
}

extension RemoteStoreConfiguration {
  /// The transport connections are opened with: ``transport``; else, when no socket path was
  /// given, the one the environment names (``ClientEnvironment``); else the Unix socket at
  /// ``socketPath``. A socket is checked against ``hostUsers``.
  public var resolvedTransport: any HostTransport {
    if let transport = self.transport { return transport }
    if self.followsEnvironment {
      do {
        return try ClientEnvironment.current().transport(hostUsers: self.hostUsers)
      } catch {
        return MisconfiguredTransport(error: error)
      }
    }
    return UnixSocketTransport(path: self.socketPath, hostUsers: self.hostUsers)
  }
}

/// Where a ``RemoteStore`` stands with its host.
public enum RemoteStoreStatus: Sendable, Equatable {
  /// Subscribed: the state follows the host's.
  case connected
  /// The connection was lost; the store is trying again. The state is the last one known.
  case reconnecting(attempt: Int, lastError: RemoteError)
  /// The store has stopped for good: the scope is gone, reconnection is off or gave up, or
  /// the store was closed.
  case failed(RemoteError)
}

/// Why a ``RemoteEvent/snapshot(_:reason:)`` replaced the whole state.
public enum SnapshotReason: Sendable, Hashable {
  /// The state when the events began.
  case initial
  /// The store reconnected (the host may have restarted: revisions may start over).
  case reconnected
  /// A patch did not fit the store's copy (its `base` was not the last revision, or it did
  /// not apply) and the store resubscribed.
  case resynced
}

/// What happens to a ``RemoteStore``, as JSON, for tools that show every change.
public enum RemoteEvent: Sendable, Equatable {
  /// The whole state, at a revision.
  case snapshot(Snapshot, reason: SnapshotReason)
  /// A patch was applied: `ops` took the state from `before` (at `base`) to `after` (at `rev`).
  case patch(base: Revision, rev: Revision, ops: [JSON], before: JSON, after: JSON)
  /// The connection was lost; the store will try again in `retryIn`.
  case disconnected(RemoteError, retryIn: Duration)
  /// A reconnection attempt failed; the next is in `retryIn`.
  case reconnectFailed(RemoteError, attempt: Int, retryIn: Duration)
  /// The host refused an action sent with ``RemoteStore/sendWithoutWaiting(_:)``.
  case rejected(RemoteError)
  /// The store has stopped for good (see ``RemoteStoreStatus/failed(_:)``). Always last.
  case ended(RemoteError)
}
