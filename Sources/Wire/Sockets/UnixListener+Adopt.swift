extension UnixListener {
  /// Takes over a Unix-domain stream socket that is already bound and listening — the one a
  /// service manager passes by socket activation (systemd's `LISTEN_FDS`) — and accepts on it.
  ///
  /// The socket file belongs to whoever created it: ``close(removeSocketFile:)`` never removes
  /// it, and its owner and mode are left as they are. Connections that queued in its backlog
  /// before this process took it over are accepted like any other.
  ///
  /// - Parameters:
  ///   - fileDescriptor: The listening socket; made non-blocking and close-on-exec here.
  ///   - loop: The loop to accept on; the caller must be on its thread.
  ///   - onAccept: Called with each accepted connection.
  /// - Returns: The listener, whose ``path`` is the socket's bound path.
  /// - Throws: ``SocketError`` with ``SocketError/Code/other`` when the descriptor is not a
  ///   listening `AF_UNIX` stream socket bound to a path.
  public static func adopt(
    fileDescriptor fd: Int32, loop: EventLoop, onAccept: @escaping (UnixConnection) -> Void
  ) throws(SocketError) -> UnixListener {
    loop.preconditionInEventLoop()
    let info = try Self.describeInherited(fd)
    Posix.configureNewSocket(fd)
    Posix.makeNonBlocking(fd)
    return UnixListener(
      fileDescriptor: fd, path: info, identity: nil, loop: loop, onAccept: onAccept)
  }

  /// The path a descriptor handed to this process is bound to, once it is known to be a
  /// listening `AF_UNIX` stream socket; safe to call from any thread.
  ///
  /// - Parameter fd: The descriptor.
  /// - Returns: The socket's path.
  /// - Throws: ``SocketError`` saying what the descriptor is instead.
  public static func describeInherited(_ fd: Int32) throws(SocketError) -> String {
    let operation = "take over descriptor \(fd)"
    guard let info = Posix.unixSocketInfo(fd) else {
      throw SocketError(code: .other, operation: "\(operation): it is not an open socket", path: nil)
    }
    guard info.isUnixStream else {
      throw SocketError(
        code: .other, operation: "\(operation): it is not a Unix-domain stream socket", path: nil)
    }
    guard info.isListening else {
      throw SocketError(code: .other, operation: "\(operation): it is not listening", path: nil)
    }
    guard let path = info.path else {
      throw SocketError(
        code: .other, operation: "\(operation): it is not bound to a path", path: nil)
    }
    return path
  }
}

extension UnixConnection {
  /// What sits at `path` when it is not a socket — `"a regular file"`, `"a directory"`,
  /// `"a file that is not a socket"` — or `nil` (a socket, or nothing): what a refused
  /// connection there means, for a message.
  ///
  /// - Parameter path: The path a connection was refused at.
  /// - Returns: A description of the file there, or `nil`.
  public static func nonSocketFile(at path: String) -> String? {
    switch Posix.fileKind(path) {
    case nil, .socket?: nil
    case .regular?: "a regular file"
    case .directory?: "a directory"
    case .other?: "a file that is not a socket"
    }
  }
}
