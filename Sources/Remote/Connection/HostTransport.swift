import Wire

/// How a ``HostConnection`` reaches its host: it opens the byte stream that the protocol then
/// runs over, framing and all.
///
/// ```swift
/// let client = try await HostClient.connect(via: UnixSocketTransport(path: path))
/// ```
///
/// Today's transport is a Unix-domain socket (``UnixSocketTransport``). Another plugs in by
/// opening a stream and handing over its descriptor with
/// `UnixConnection.adopt(fileDescriptor:loop:)`: an SSH transport, for one, would start
/// `ssh host storeclient dial-stdio` with one end of a `socketpair(2)` as the child's standard
/// input and output, and return the other end.
/// Everything above the stream — `hello`, requests, pushes, reconnection — stays the same.
///
/// A transport is also where the host is vouched for, since only it knows what its peer is:
/// the Unix socket's peer is the host process itself, whose kernel-reported identity
/// ``UnixSocketTransport/acceptsPeer`` checks; an SSH transport's peer is `ssh`, and the host
/// is checked at the far end.
public protocol HostTransport: Sendable, CustomStringConvertible {
  /// Opens a stream to the host, driven by `loop`. Called on the loop's thread.
  ///
  /// - Parameter loop: The loop the connection will run on.
  /// - Returns: The open stream; bytes written before it is fully connected are queued.
  /// - Throws: ``RemoteError/noHost(path:)`` when nothing answers where the host should be,
  ///   ``RemoteError/connectionFailed(_:)`` otherwise.
  func open(on loop: EventLoop) throws(RemoteError) -> UnixConnection
}

/// A host listening on a Unix-domain socket on this machine.
public struct UnixSocketTransport: HostTransport {
  /// The socket path.
  public var path: String
  /// Decides, once connected, whether the process serving the socket is one to talk to, from
  /// its kernel-reported credentials (`nil` where the platform reports none); `nil` accepts
  /// any. A refused peer ends the attempt with ``RemoteError/connectionFailed(_:)``
  /// (``SocketError/Code/permissionDenied``).
  public var acceptsPeer: (@Sendable (PeerCredentials?) -> Bool)?

  /// A transport to the socket at `path`.
  ///
  /// - Parameters:
  ///   - path: The socket path.
  ///   - acceptsPeer: Checks the serving process's credentials; `nil` accepts any.
  public init(path: String, acceptsPeer: (@Sendable (PeerCredentials?) -> Bool)? = nil) {
    self.path = path
    self.acceptsPeer = acceptsPeer
  }

  /// The socket path.
  public var description: String { self.path }

  /// Connects to the socket and checks the peer.
  ///
  /// - Parameter loop: The loop to run on; the caller must be on its thread.
  /// - Returns: The connected socket.
  /// - Throws: ``RemoteError/noHost(path:)`` when there is no socket file or nobody listens
  ///   on it, ``RemoteError/connectionFailed(_:)`` for other socket errors (a full listen
  ///   backlog: ``SocketError/Code/temporarilyUnavailable``) and for a refused peer.
  public func open(on loop: EventLoop) throws(RemoteError) -> UnixConnection {
    let connection: UnixConnection
    do {
      connection = try UnixConnection.connect(path: self.path, loop: loop)
    } catch {
      switch error.code {
      case .noSuchFile, .connectionRefused: throw .noHost(path: self.path)
      default: throw .connectionFailed(error)
      }
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
