import Wire

/// How a ``HostConnection`` reaches its host: it opens the byte stream that the protocol then
/// runs over, framing and all.
///
/// ```swift
/// let client = try await HostClient.connect(via: UnixSocketTransport(path: path))
/// ```
///
/// Two transports exist: a Unix-domain socket on this machine (``UnixSocketTransport``), and
/// one on another machine reached through `ssh` (``SSHTransport``), which starts
/// `ssh machine storeclient dial-stdio` with one end of a `socketpair(2)` as the child's
/// standard input and output, and hands the other end over with
/// `UnixConnection.adopt(fileDescriptor:loop:)`. Everything above the stream — `hello`,
/// requests, pushes, reconnection — stays the same.
///
/// A transport is also where the host is vouched for, since only it knows what its peer is:
/// the Unix socket's peer is the host process itself, whose kernel-reported user
/// ``UnixSocketTransport/hostUsers`` checks; an SSH transport's peer is `ssh`, and the host
/// is checked at the far end, by `dial-stdio`.
public protocol HostTransport: Sendable, CustomStringConvertible {
  /// Opens a stream to the host, driven by `loop`. Called on the loop's thread.
  ///
  /// - Parameter loop: The loop the connection will run on.
  /// - Returns: The open stream; bytes written before it is fully connected are queued.
  /// - Throws: ``RemoteError/noHost(path:)`` when nothing answers where the host should be,
  ///   ``RemoteError/connectionFailed(_:)`` otherwise.
  func open(on loop: EventLoop) throws(RemoteError) -> UnixConnection

  /// Called on the loop's thread when a connection this transport opened has ended, with the
  /// reason the connection saw; returns the reason to report. A transport that runs a process
  /// says here why it ended (its exit status and what it printed), and releases what it held
  /// for the connection. The default returns `reason` as it is.
  ///
  /// - Parameters:
  ///   - connection: The connection ``open(on:)`` returned, now closed.
  ///   - reason: Why it ended, as the connection saw it.
  /// - Returns: The reason to report.
  func connectionDidEnd(_ connection: UnixConnection, reason: RemoteError) -> RemoteError
}

extension HostTransport {
  /// Returns `reason`: a plain stream has nothing to add.
  ///
  /// - Parameters:
  ///   - connection: The ended connection.
  ///   - reason: Why it ended.
  /// - Returns: `reason`.
  public func connectionDidEnd(_ connection: UnixConnection, reason: RemoteError) -> RemoteError {
    reason
  }
}

/// A host listening on a Unix-domain socket on this machine.
public struct UnixSocketTransport: HostTransport {
  /// The socket path.
  public var path: String
  /// The users whose host this client accepts: its own, root, and those named. The process
  /// serving the socket is checked before anything is sent; another user's is refused with
  /// ``RemoteError/untrustedHost(path:uid:user:)``.
  public var hostUsers: HostUsers
  /// A further check of the process serving the socket, from its kernel-reported credentials
  /// (`nil` where the platform reports none), after ``hostUsers``; `nil` adds none. A refused
  /// peer ends the attempt with ``RemoteError/connectionFailed(_:)``
  /// (``SocketError/Code/permissionDenied``).
  public var acceptsPeer: (@Sendable (PeerCredentials?) -> Bool)?

  /// A transport to the socket at `path`.
  ///
  /// - Parameters:
  ///   - path: The socket path.
  ///   - hostUsers: The users whose host is accepted (default: this process's and root).
  ///   - acceptsPeer: A further check of the serving process's credentials; `nil` for none.
  public init(
    path: String, hostUsers: HostUsers = .standard,
    acceptsPeer: (@Sendable (PeerCredentials?) -> Bool)? = nil
  ) {
    self.path = path
    self.hostUsers = hostUsers
    self.acceptsPeer = acceptsPeer
  }

  /// The socket path.
  public var description: String { self.path }

  /// Connects to the socket and checks the peer.
  ///
  /// - Parameter loop: The loop to run on; the caller must be on its thread.
  /// - Returns: The connected socket.
  /// - Throws: ``RemoteError/noHost(path:)`` when there is no socket file or nobody listens
  ///   on it, ``RemoteError/notASocket(path:kind:)`` when the path is a file of another kind, ``RemoteError/untrustedHost(path:uid:user:)`` when another user serves it,
  ///   ``RemoteError/connectionFailed(_:)`` for other socket errors (a full listen
  ///   backlog: ``SocketError/Code/temporarilyUnavailable``) and for a peer `acceptsPeer`
  ///   refuses.
  public func open(on loop: EventLoop) throws(RemoteError) -> UnixConnection {
    let connection: UnixConnection
    do {
      connection = try UnixConnection.connect(path: self.path, loop: loop)
    } catch {
      switch error.code {
      case .noSuchFile, .connectionRefused:
        if let kind = UnixConnection.nonSocketFile(at: self.path) {
          throw .notASocket(path: self.path, kind: kind)
        }
        throw .noHost(path: self.path)
      default: throw .connectionFailed(error)
      }
    }
    do {
      try self.hostUsers.check(connection.peerCredentials, path: self.path)
    } catch {
      connection.close()
      throw error
    }
    if let acceptsPeer = self.acceptsPeer, !acceptsPeer(connection.peerCredentials) {
      connection.close()
      throw .connectionFailed(
        SocketError(
          code: .permissionDenied, operation: "accept the host's identity", path: self.path))
    }
    return connection
  }
}
