/// A listening Unix-domain socket that accepts connections on an ``EventLoop``.
///
/// Loop-confined: create and close it on the loop thread.
///
/// ```swift
/// let listener = try UnixListener.listen(path: path, mode: 0o600, loop: loop) { connection in
///   guard connection.peerCredentials?.uid == PeerCredentials.currentUserID else {
///     return connection.close()
///   }
///   connection.onRead = { bytes in … }
/// }
/// ```
///
/// The socket file gets `mode` atomically — it is never connectable with wider permissions,
/// even for an instant. On readiness the listener accepts until the kernel has no more pending
/// connections (bounded per iteration for fairness); each is handed to ``onAccept`` before the
/// loop first reads from it, so callbacks set there miss nothing.
public final class UnixListener: EventSource {
  /// The loop this listener belongs to.
  public let loop: EventLoop
  /// The socket path.
  public let path: String
  /// The socket descriptor (valid while ``isOpen``).
  public let fileDescriptor: Int32
  /// Called with each accepted connection, on the loop thread.
  public var onAccept: (UnixConnection) -> Void
  /// Called when accepting fails (e.g. out of file descriptors); the listener keeps going.
  public var onAcceptError: ((SocketError) -> Void)?
  /// Whether the listener is still open.
  public private(set) var isOpen = true

  /// The device and inode of the socket file we created, so that ``close()`` never removes a
  /// file another process has put at the path since.
  private let identity: (device: UInt64, inode: UInt64)?
  private var acceptPaused = false
  var sourceIndex = -1

  private static let maxAcceptsPerEvent = 256

  /// Binds a socket file at `path` and starts listening.
  ///
  /// - Parameters:
  ///   - path: The socket path; at most `sun_path` bytes (107 on Linux, 103 on Darwin).
  ///   - mode: The socket file's permission bits (default `0o600`: the owner only). Connecting
  ///     needs write permission on the file.
  ///   - backlog: The kernel's queue of not-yet-accepted connections.
  ///   - replaceStaleSocket: If a socket file exists at `path` but nothing listens on it (a host
  ///     that crashed), remove it and bind again. A live listener is never replaced.
  ///   - loop: The loop to accept on; the caller must be on its thread.
  ///   - onAccept: Called with each accepted connection.
  /// - Returns: The listener.
  /// - Throws: ``SocketError`` — ``SocketError/Code/pathTooLong(limit:)``,
  ///   ``SocketError/Code/addressInUse`` (a live listener, or a file that is not a stale
  ///   socket), ``SocketError/Code/permissionDenied``, ``SocketError/Code/noSuchFile`` (the
  ///   directory does not exist).
  public static func listen(
    path: String,
    mode: Int = 0o600,
    backlog: Int32 = 256,
    replaceStaleSocket: Bool = false,
    loop: EventLoop,
    onAccept: @escaping (UnixConnection) -> Void
  ) throws(SocketError) -> UnixListener {
    loop.preconditionInEventLoop()
    try SocketError.validate(path: path, operation: "bind")
    guard (0...0o777).contains(mode) else {
      throw SocketError(
        code: .other, operation: "bind (mode \(String(mode, radix: 8)) is not in 0...0777)",
        path: path)
    }
    let fd = Posix.makeUnixSocket()
    guard fd >= 0 else { throw SocketError.system(-fd, "socket", path: path) }
    var result = Posix.bindUnix(fd, path: path, mode: UInt32(mode))
    if result == Posix.eaddrinuse && replaceStaleSocket,
      Posix.fileIdentity(path)?.isSocket == true, !Self.isListenerAlive(path: path)
    {
      _ = Posix.unlink(path)
      result = Posix.bindUnix(fd, path: path, mode: UInt32(mode))
    }
    if result == 0 { result = Posix.listen(fd, backlog: backlog) }
    guard result == 0 else {
      Posix.close(fd)
      throw SocketError.system(result, "bind", path: path)
    }
    let identity = Posix.fileIdentity(path).map { ($0.device, $0.inode) }
    return UnixListener(
      fileDescriptor: fd, path: path, identity: identity, loop: loop, onAccept: onAccept)
  }

  init(
    fileDescriptor: Int32, path: String, identity: (device: UInt64, inode: UInt64)?,
    loop: EventLoop, onAccept: @escaping (UnixConnection) -> Void
  ) {
    self.fileDescriptor = fileDescriptor
    self.path = path
    self.identity = identity
    self.loop = loop
    self.onAccept = onAccept
    loop.register(self)
  }

  deinit {
    if self.isOpen { Posix.close(self.fileDescriptor) }
  }

  /// Whether a process is accepting connections at `path` — to tell a live host from a stale
  /// socket file left by a crash. Safe to call from any thread; it never blocks.
  ///
  /// - Parameter path: The socket path.
  /// - Returns: `true` if a connect succeeds or the listener's backlog is full; `false` if
  ///   nothing exists at the path, nothing listens (`ECONNREFUSED`), or it is not a socket.
  public static func isListenerAlive(path: String) -> Bool {
    guard (try? SocketError.validate(path: path, operation: "connect")) != nil else { return false }
    let fd = Posix.makeUnixSocket()
    guard fd >= 0 else { return false }
    defer { Posix.close(fd) }
    switch Posix.connectUnix(fd, path: path) {
    case 0, Posix.eagain, Posix.einprogress: return true
    default: return false
    }
  }

  /// Stops listening and, if `removeSocketFile`, removes the socket file — only if it is still
  /// the one this listener created. Connections already accepted are not affected.
  ///
  /// - Parameter removeSocketFile: Whether to unlink the socket file (default `true`).
  public func close(removeSocketFile: Bool) {
    guard self.isOpen else { return }
    self.isOpen = false
    self.loop.deregister(self)
    if removeSocketFile, let identity = self.identity,
      let current = Posix.fileIdentity(self.path),
      current.device == identity.device, current.inode == identity.inode
    {
      _ = Posix.unlink(self.path)
    }
    Posix.close(self.fileDescriptor)
  }

  /// Stops listening and removes the socket file (if it is still the one created here).
  public func close() {
    self.close(removeSocketFile: true)
  }

  // MARK: - Events

  var pollEvents: Int16? { self.acceptPaused ? nil : Posix.pollIn }

  func handleEvents(_ revents: Int16) {
    var accepted = 0
    while self.isOpen && accepted < Self.maxAcceptsPerEvent {
      switch Posix.accept(self.fileDescriptor) {
      case .accepted(let fd):
        accepted += 1
        self.onAccept(UnixConnection(fileDescriptor: fd, loop: self.loop))
      case .wouldBlock:
        return
      case .failed(let code)
      where code == Posix.econnaborted || code == Posix.eproto || code == Posix.eintr:
        continue
      case .failed(let code):
        // Out of descriptors or memory: the pending connection stays queued and poll would
        // report it again at once. Pause accepting briefly instead of spinning.
        self.onAcceptError?(.system(code, "accept", path: self.path))
        self.acceptPaused = true
        self.loop.scheduleTimer(after: .milliseconds(100)) { [weak self] in
          self?.acceptPaused = false
        }
        return
      }
    }
  }
}

@available(*, unavailable, message: "a UnixListener is confined to its event loop's thread")
extension UnixListener: Sendable {}
