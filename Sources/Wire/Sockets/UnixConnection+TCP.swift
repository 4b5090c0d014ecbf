// A `UnixConnection` drives any connected stream socket through its event loop: it never
// uses what is particular to `AF_UNIX` once connected (peer credentials are read only for
// accepted and adopted sockets). This file adds the TCP client side, for protocols such as
// NATS whose servers listen on TCP, so that code on the loop — a host at its commit point —
// talks to them without leaving the loop's thread.

extension UnixConnection {
  /// Connects to a TCP service, on the loop thread, without blocking.
  ///
  /// The socket is non-blocking, close-on-exec and has `TCP_NODELAY` (small requests leave at
  /// once instead of waiting for Nagle's algorithm). The connection completes in the
  /// background: writes made before it does are queued, and a refused or unreachable address
  /// closes the connection with the error (``onClose`` with ``SocketError/Code/connectionRefused``
  /// or ``SocketError/Code/other`` and the `errno`). ``peerCredentials`` is `nil`.
  ///
  /// - Parameters:
  ///   - address: The service's address; resolve names off the loop first
  ///     (``TCPAddress/resolve(host:port:numericOnly:)``).
  ///   - loop: The loop to drive the connection; the caller must be on its thread.
  /// - Returns: The connection, open (connecting).
  /// - Throws: ``SocketError`` when the socket cannot be made or the address is refused at once.
  public static func connect(to address: TCPAddress, loop: EventLoop) throws(SocketError)
    -> UnixConnection
  {
    loop.preconditionInEventLoop()
    let fd = Posix.makeTCPSocket(family: address.family)
    guard fd >= 0 else { throw SocketError.system(-fd, "socket", path: address.description) }
    let result = Posix.connectTCP(fd, bytes: address.bytes)
    guard result == 0 || result == Posix.einprogress else {
      Posix.close(fd)
      throw SocketError.system(result, "connect", path: address.description)
    }
    // Even a connect that completed at once goes through the connecting state: the first
    // POLLOUT confirms it (`SO_ERROR` is 0), and no peer credentials are read for TCP.
    return UnixConnection(fileDescriptor: fd, loop: loop, connecting: true)
  }
}
