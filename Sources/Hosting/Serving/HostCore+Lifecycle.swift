import Architecture
import Wire

extension HostCore {
  /// Binds the socket (replacing a stale file, refusing when a host is live) — or takes over
  /// the one systemd passed — and accepts; then tells systemd the host is ready.
  @inlinable
  func startListening() throws(HostStartError) {
    if let descriptor = configuration.systemd.listeningDescriptor {
      try self.adoptListener(descriptor)
    } else {
      try self.bindListener()
    }
    systemd?.ready(revision: revision.value, clients: sessionCount)
  }

  /// Serves the listening socket systemd passed (socket activation): its path, owner and
  /// mode are the socket unit's, and it stays when the host stops.
  @usableFromInline
  func adoptListener(_ descriptor: Int32) throws(HostStartError) {
    do {
      listener = try UnixListener.adopt(fileDescriptor: descriptor, loop: loop) {
        [unowned self] connection in
        // As in bindListener(): the listener calls back on the loop, the core's executor.
        nonisolated(unsafe) let connection = connection
        self.assumeIsolated(on: loop) { core in core.accept(connection) }
      }
    } catch {
      throw HostStartError(message: "cannot serve the socket systemd passed: \(error)")
    }
    log(
      .info,
      "listening on \(listener?.path ?? configuration.socketPath) (passed by systemd: its owner "
        + "and mode are the socket unit's; app \(appName))")
  }

  /// Binds the socket file and accepts.
  @usableFromInline
  func bindListener() throws(HostStartError) {
    let path = configuration.socketPath
    var permissions = SocketPermissions.least(for: configuration)
    try prepareSocketDirectory(permissions)
    if UnixListener.isListenerAlive(path: path) {
      throw HostStartError(
        message: "another host is already listening on \(path); stop it first, or choose "
          + "another path with --socket")
    }
    do {
      listener = try UnixListener.listen(
        path: path, mode: Int(permissions.group == nil ? permissions.socketMode : 0o600),
        replaceStaleSocket: true, loop: loop
      ) { [unowned self] connection in
        // The listener calls back on the loop, the core's executor: the connection never
        // leaves that thread, which the region checker cannot see through assumeIsolated.
        nonisolated(unsafe) let connection = connection
        self.assumeIsolated(on: loop) { core in core.accept(connection) }
      }
    } catch {
      throw HostStartError(message: Self.explain(error, path: path))
    }
    permissions = openSocketFile(permissions)
    logListening(permissions)
  }

  @usableFromInline
  static func explain(_ error: SocketError, path: String) -> String {
    switch error.code {
    case .addressInUse:
      "cannot listen on \(path): the path is in use by something that is not a stale socket; "
        + "remove it or choose another path with --socket"
    case .pathTooLong(let limit):
      "cannot listen on \(path): a socket path may have at most \(limit) bytes; choose a "
        + "shorter path with --socket"
    case .noSuchFile:
      "cannot listen on \(path): its directory does not exist"
    case .permissionDenied:
      "cannot listen on \(path): permission denied; choose a path in a directory you own"
    default:
      "cannot listen on \(path): \(error)"
    }
  }

  @inlinable
  func accept(_ connection: UnixConnection) {
    let client = connection.peerCredentials.map {
      ConnectingClient(processID: $0.pid ?? 0, userID: $0.uid, groupID: $0.gid, groups: $0.groups)
    }
    guard let admitted = accept(channel: connection, client: client) else { return }
    // Connection callbacks run on the loop, the core's executor, so they enter the core with
    // no hop. They name the session by id: a closed session's late callbacks find nothing.
    let id = admitted.id
    connection.onRead = { [unowned self] bytes in
      // The read buffer is only lent for this synchronous call on the loop thread.
      nonisolated(unsafe) let bytes = bytes
      self.assumeIsolated(on: loop) { core in core.didRead(session: id, bytes) }
    }
    connection.onWritable = { [unowned self] in
      self.assumeIsolated(on: loop) { core in core.didDrain(session: id) }
    }
    connection.onClose = { [unowned self] error in
      let reason = error.map { "\($0)" } ?? "closed by client"
      self.assumeIsolated(on: loop) { core in core.didClose(session: id, reason: reason) }
    }
  }

  /// Reduces an action sent by the host process itself.
  func sendFromHost(_ action: Action) {
    store.send(action, origin: .host)
  }

  /// The root state.
  var rootState: State {
    store.state
  }

  /// Says bye, stops listening and removes the socket file (one systemd passed stays: it is
  /// the socket unit's, and holds connection attempts until the next start).
  func stop(reason: String) {
    guard !isStopped else { return }
    systemd?.stopping(clients: sessionCount)
    stopTicking()
    shutdown(reason: reason)
    let inherited = configuration.systemd.listeningDescriptor != nil
    listener?.close(removeSocketFile: !inherited)
    listener = nil
    // The final snapshot, so that the next start replays nothing; then the directory's lock.
    durability?.close()
    isStopped = true
    log(
      .info,
      inherited
        ? "stopped; \(configuration.socketPath) stays with systemd"
        : "stopped; removed \(configuration.socketPath)")
    stopLatch.open()
  }

  /// Suspends until ``stop(reason:)`` has run — without calling into the core, whose loop may
  /// be gone by then.
  nonisolated func waitUntilStopped() async {
    await stopLatch.wait()
  }
}
