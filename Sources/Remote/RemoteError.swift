import Wire

/// Why a remote operation failed: the host's answer, a connection problem, or a breach of the
/// protocol — each a case you can match on.
///
/// ```swift
/// do {
///   let store = try await RemoteStore<Counter.State, Counter.Action>(scope: "counter")
/// } catch .noHost(let path) {
///   print("start one with `storehost --socket \(path)`")
/// } catch {
///   print(error)   // e.g. "unknown scope 'countr'"
/// }
/// ```
public enum RemoteError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Nothing is listening on the socket path: no socket file, or a stale one.
  case noHost(path: String)
  /// The path names something that is not a socket (`kind`: `"a regular file"`, `"a
  /// directory"`): a host listens on a socket file, so the path is probably not the one meant.
  case notASocket(path: String, kind: String)
  /// The socket could not be used: the path is too long, permission was denied, … .
  case connectionFailed(SocketError)
  /// The process serving the socket runs as a user the client does not accept as its host's
  /// (see ``HostUsers``): someone else may have put a socket where the client's host should
  /// be. `uid` and `user` say whose it is (`nil` when the platform could not tell).
  case untrustedHost(path: String, uid: UInt32?, user: String?)
  /// The transport to the host failed: the `ssh` that carries the connection exited, with
  /// what it (or `storeclient dial-stdio` on the other machine) said.
  case transportFailed(String)
  /// The connection ended: the host went away (`reason` is its `bye` reason, if it said one),
  /// or the connection was closed locally. A request in flight has an unknown outcome.
  case disconnected(reason: String?)
  /// The scope named does not exist on the host (`unknown_scope`).
  case unknownScope(message: String)
  /// The scope exists but its state does not, at the moment (`scope_unavailable`): an `{id}`
  /// not in the collection, an optional child that is `nil`.
  case scopeUnavailable(message: String)
  /// The subscribed scope's state ceased to exist (`unsubscribed{reason:"scope_gone"}`); the
  /// store can no longer follow it.
  case scopeGone(scope: String)
  /// The host refused the request for another reason (`forbidden`, `bad_action`,
  /// `overloaded`, …); `message` is the host's explanation.
  case rejected(code: ErrorCode, message: String)
  /// The host sent something the protocol does not allow: a malformed frame or message, an
  /// unexpected reply, a failed handshake.
  case protocolViolation(String)
  /// The scope's state did not decode as the client's `State` type, or an action did not
  /// encode as JSON.
  case coding(String)
  /// The host did not answer in time.
  case timedOut(String)
  /// The store or client was closed by its owner.
  case closed

  /// The error for a host's `error` reply.
  ///
  /// - Parameters:
  ///   - code: The reply's `code`.
  ///   - message: The reply's `message`.
  /// - Returns: The matching case.
  public static func host(code: ErrorCode, message: String) -> RemoteError {
    switch code {
    case .unknownScope: .unknownScope(message: message)
    case .scopeUnavailable: .scopeUnavailable(message: message)
    default: .rejected(code: code, message: message)
    }
  }

  /// The protocol error code behind a host's refusal, if this is one.
  public var code: ErrorCode? {
    switch self {
    case .unknownScope: .unknownScope
    case .scopeUnavailable: .scopeUnavailable
    case .rejected(let code, _): code
    default: nil
    }
  }

  /// Whether retrying later, on a new connection, may succeed: the host may come back.
  public var isTransient: Bool {
    switch self {
    case .noHost, .disconnected, .timedOut, .connectionFailed, .transportFailed: true
    case .rejected(let code, _): code == .overloaded
    default: false
    }
  }

  /// A one-line explanation for people, e.g. `the host closed the connection (shutdown)`.
  public var description: String {
    switch self {
    case .noHost(let path):
      "no host is listening on \(path) — start one with `storehost --socket \(path)`"
    case .notASocket(let path, let kind):
      "\(path) is \(kind), not a socket: a host listens on a socket file — check the path "
        + "(--socket, STOREHOST_SOCKET)"
    case .connectionFailed(let error): error.description
    case .untrustedHost(let path, let uid?, let user):
      "refusing the host at \(path): it runs as \(user.map { "\($0) (uid \(uid))" } ?? "uid \(uid)"), "
        + "not as you (uid \(Platform.userID)) or root, so someone else may have put this socket "
        + "where your host should be; if it is the host you mean, name its user (storeclient "
        + "--host-user \(user ?? String(uid)), or hostUsers in RemoteStoreConfiguration)"
    case .untrustedHost(let path, nil, _):
      "refusing the host at \(path): this platform does not say which user serves the socket"
    case .transportFailed(let detail): detail
    case .disconnected(let reason):
      reason.map { "the host closed the connection (\($0))" } ?? "the connection to the host was lost"
    case .unknownScope(let message), .scopeUnavailable(let message): message
    case .scopeGone(let scope): "scope '\(scope)' is gone: its state no longer exists"
    case .rejected(let code, let message): "\(message) (\(code.rawValue))"
    case .protocolViolation(let detail): "protocol error: \(detail)"
    case .coding(let detail): detail
    case .timedOut(let what): "timed out \(what)"
    case .closed: "the remote store was closed"
    }
  }
}
