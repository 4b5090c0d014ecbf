// The server's thread: everything here runs on it, and only here are `connections` and the
// connections' state touched.
extension HTTPServer {
  func run() {
    self.loopThread.withLock { $0 = ServerThread.currentID() }
    var pollSet: [PollDescriptor] = []
    var polled: [HTTPConnection] = []
    while true {
      let (commands, stopping) = self.takeInbox()
      for command in commands { self.apply(command) }
      if stopping { break }
      let now = SocketSystem.now()
      for connection in Array(self.connections.values) { connection.fire(now: now) }
      self.runDeferredWork()

      pollSet.removeAll(keepingCapacity: true)
      polled.removeAll(keepingCapacity: true)
      pollSet.append(PollDescriptor(fd: self.wakeRead, events: SocketSystem.pollIn, revents: 0))
      pollSet.append(PollDescriptor(fd: self.listenFD, events: SocketSystem.pollIn, revents: 0))
      var nextDeadline = UInt64.max
      for connection in self.connections.values {
        nextDeadline = min(nextDeadline, connection.nextDeadline)
        if let events = connection.pollEvents {
          pollSet.append(PollDescriptor(fd: connection.fd, events: events, revents: 0))
          polled.append(connection)
        }
      }
      guard self.prepareToSleep() else { continue }
      SocketSystem.poll(&pollSet, timeoutMilliseconds: Self.timeout(until: nextDeadline))
      self.shared.withLock { $0.sleeping = false }

      if pollSet[0].revents != 0 { SocketSystem.drain(self.wakeRead) }
      if pollSet[1].revents != 0 { self.acceptAll() }
      for (index, connection) in polled.enumerated() where pollSet[index + 2].revents != 0 {
        connection.handle(pollSet[index + 2].revents)
      }
    }
    for connection in Array(self.connections.values) { connection.close() }
    self.runDeferredWork()
    self.closeDescriptors()
  }

  /// Hands the requests pipelined behind an answer that has left to the handler, and runs the
  /// close handlers of the streams whose connection closed — here, at the top of the loop, not
  /// inside the write that finished the answer or failed (so a handler never runs while a
  /// connection is in the middle of writing).
  private func runDeferredWork() {
    while !self.readyToRead.isEmpty || !self.closedStreams.isEmpty {
      let ready = self.readyToRead
      self.readyToRead.removeAll()
      for id in ready { self.connections[id]?.readBufferedRequests() }
      let streams = self.closedStreams
      self.closedStreams.removeAll()
      for stream in streams { stream.markClosed() }
    }
  }

  /// Takes the commands queued by other threads, and whether to stop.
  private func takeInbox() -> ([Command], Bool) {
    self.shared.withLock { shared in
      defer { shared.inbox.removeAll(keepingCapacity: true) }
      return (shared.inbox, shared.stopping)
    }
  }

  /// Marks the loop as sleeping, unless commands arrived meanwhile (then it must not sleep).
  private func prepareToSleep() -> Bool {
    self.shared.withLock { shared in
      guard shared.inbox.isEmpty && !shared.stopping else { return false }
      shared.sleeping = true
      return true
    }
  }

  private static func timeout(until deadline: UInt64) -> Int32 {
    guard deadline != .max else { return -1 }
    let now = SocketSystem.now()
    guard deadline > now else { return 0 }
    // Round up, so that the deadline has passed when poll returns.
    return Int32(min((deadline - now + 999_999) / 1_000_000, 60_000))
  }

  private func apply(_ command: Command) {
    switch command {
    case .respond(let id, let sequence, let response):
      self.connections[id]?.respond(response, sequence: sequence)
    case .startStream(let id, let sequence, let head, let stream):
      if let connection = self.connections[id] {
        connection.startStream(head, stream: stream, sequence: sequence)
      } else {
        stream.markClosed()
      }
    case .streamBytes(let id, let bytes):
      self.connections[id]?.streamBytes(bytes)
    case .closeStream(let id):
      self.connections[id]?.finishStream()
    }
  }

  private func acceptAll() {
    for _ in 0..<64 {
      switch SocketSystem.accept(self.listenFD) {
      case .accepted(let fd):
        guard self.connections.count < self.configuration.maxConnections else {
          Self.refuse(fd)
          continue
        }
        let id = self.nextConnectionID
        self.nextConnectionID += 1
        self.connections[id] = HTTPConnection(id: id, fd: fd, server: self)
      case .wouldBlock:
        return
      case .failed:
        // Out of descriptors or similar: the pending connection stays queued in the kernel;
        // try again on the next readiness rather than spinning here.
        return
      }
    }
  }

  /// Answers a connection over the limit with `503` (as much as the socket takes at once) and
  /// closes it.
  private static func refuse(_ fd: Int32) {
    let bytes = HTTPResponse.text(
      .serviceUnavailable, "Too many connections; try again when others have closed."
    ).serialized(keepAlive: false)
    _ = bytes.withUnsafeBytes { SocketSystem.send(fd, $0) }
    SocketSystem.close(fd)
  }

  /// Called by a connection that has closed.
  func removeConnection(_ id: UInt64) {
    self.connections[id] = nil
  }
}
