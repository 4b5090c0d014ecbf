import Remote
import Wire

/// One load test: every sender and watcher connection on one event loop thread, driven by
/// callbacks — no task, no actor hop and no allocation per action. The actor's executor is
/// that loop, so the connections' callbacks run inside it.
///
/// Senders with `--ack every` keep one action in flight and send the next from the `ack`
/// callback; with `--ack end` they keep two batches of actions (without ids) in flight, each
/// followed by a `ping` whose `pong` confirms the batch (the host answers in order, and
/// reports a refused action with an `error` before that `pong`). Watchers stamp each patch as
/// it is read and apply it to their copy later, off the timing path.
actor BenchRun {
  nonisolated let loop: EventLoop
  nonisolated var unownedExecutor: UnownedSerialExecutor { self.loop.asUnownedSerialExecutor() }

  let options: BenchOptions
  /// How every connection reaches the host (a local socket, or `ssh`).
  private let transport: any HostTransport
  private let action: PreparedSend
  private let perClientRate: Double?
  /// Actions the first sender counts as sent and acknowledged before the run (the probe).
  private let alreadyAcknowledged: Int
  private var senders: [Sender] = []
  private var watchers: [Watcher] = []
  private var waitingForReady = 0
  private var readyWaiter: UnsafeContinuation<RemoteError?, Never>?
  private var setupFailure: RemoteError?
  private var doneWaiter: UnsafeContinuation<Void, Never>?
  private var started = false
  private var finished = false
  private var stopping = false
  private var startTime: UInt64 = 0
  private var endTime: UInt64 = 0
  private var connectionErrors: [String] = []

  /// A sending connection (loop-confined, like its connection).
  final class Sender {
    let connection: HostConnection
    var welcomed = false
    var closed = false
    var sent = 0
    var confirmed = 0
    var refused = 0
    var inFlight = 0
    var nextID: Int64 = 1
    var sendTime: UInt64 = 0
    var pendingRefusals = 0
    var batches: [(id: Int64, size: Int, start: UInt64)] = []
    var latencies: [UInt64] = []
    var ackRevisions: [Int64] = []
    var ackSendTimes: [UInt64] = []
    var lastError: String?

    init(connection: HostConnection) { self.connection = connection }
  }

  /// A subscribed connection (loop-confined).
  final class Watcher {
    let connection: HostConnection
    var subscribed = false
    var closed = false
    var snapshotRevision: Int64 = 0
    var revision: Int64 = 0
    var state: JSON = .null
    var patchRevisions: [Int64] = []
    var patchTimes: [UInt64] = []
    var lastSeenRevision: Int64 = 0
    var pending: [UInt8] = []
    var problem: String?

    init(connection: HostConnection) { self.connection = connection }
  }

  /// What a run measured.
  struct Measurements: Sendable {
    var seconds: Double
    var sent: Int
    var confirmed: Int
    var refused: Int
    var ackLatencies: [UInt64]
    var patchLatencies: [UInt64]
    var patchesReceived: Int
    var bytesSent: UInt64
    var bytesReceived: UInt64
    var watcherBytes: UInt64
    var problems: [String]
  }

  /// Progress so far, for the live display.
  struct Progress: Sendable {
    var elapsedSeconds: Double
    var confirmed: Int
    var errors: Int
  }

  /// Creates a run that reaches the host through `transport`; `alreadyAcknowledged` actions
  /// (sent and acknowledged before it, such as the command's probe) count as the first
  /// sender's first ones.
  init(
    options: BenchOptions, transport: any HostTransport, loop: EventLoop, alreadyAcknowledged: Int = 0
  ) {
    self.options = options
    self.transport = transport
    self.loop = loop
    self.alreadyAcknowledged = alreadyAcknowledged
    self.action = PreparedSend(scope: options.scope, action: options.action)
    self.perClientRate = options.rate.map { $0 / Double(options.clients) }
  }

  // MARK: - Setup

  /// Opens every connection and waits until senders are welcomed and watchers subscribed.
  func connect() async throws(RemoteError) {
    let client = "storeclient-bench/\(StoreClient.version)"
    let transport = self.transport
    do throws(RemoteError) {
      for _ in 0..<self.options.clients {
        let connection = try HostConnection.open(via: transport, client: client, loop: self.loop)
        let sender = Sender(connection: connection)
        if self.senders.isEmpty {
          sender.sent = self.alreadyAcknowledged
          sender.confirmed = self.alreadyAcknowledged
        }
        self.senders.append(sender)
        // `ack` and `pong`, the replies timed here, come without building JSON.
        connection.onMessage = { message in self.senderMessage(sender, message) }
        connection.onClose = { reason in self.senderClosed(sender, reason) }
      }
      for _ in 0..<self.options.watchers {
        let connection = try HostConnection.open(via: transport, client: client, loop: self.loop)
        let watcher = Watcher(connection: connection)
        self.watchers.append(watcher)
        connection.onFrame = { payload in self.watcherFrame(watcher, payload) }
        connection.onMessage = { message in self.watcherMessage(watcher, message) }
        connection.onClose = { reason in self.watcherClosed(watcher, reason) }
        connection.send(.subscribe(id: 1, scope: self.options.scope))
      }
    } catch {
      self.closeAll()
      throw error
    }
    self.waitingForReady = self.senders.count + self.watchers.count
    let failure = await withUnsafeContinuation { self.readyWaiter = $0 }
    if let failure {
      self.closeAll()
      throw failure
    }
  }

  private func becameReady() {
    self.waitingForReady -= 1
    if self.waitingForReady == 0 { self.resumeReady(nil) }
  }

  private func setupFailed(_ error: RemoteError) {
    guard !self.started else { return }
    self.resumeReady(error)
  }

  private func resumeReady(_ failure: RemoteError?) {
    guard let waiter = self.readyWaiter else { return }
    self.readyWaiter = nil
    waiter.resume(returning: failure)
  }

  // MARK: - Running

  /// Sends the load and waits until every sender is done.
  func run() async {
    self.started = true
    self.startTime = Platform.monotonicNanoseconds()
    let ticker: Task<Void, Never>? =
      if self.perClientRate != nil || self.isTimed {
        Task {
          let period: Duration = self.perClientRate != nil ? .milliseconds(1) : .milliseconds(5)
          while !Task.isCancelled {
            try? await Task.sleep(for: period)
            self.tick()
          }
        }
      } else {
        nil
      }
    await withUnsafeContinuation { continuation in
      self.doneWaiter = continuation
      for sender in self.senders { self.pump(sender) }
      self.checkDone()
    }
    ticker?.cancel()
  }

  /// Progress so far.
  func progress() -> Progress {
    let now = self.finished ? self.endTime : Platform.monotonicNanoseconds()
    return Progress(
      elapsedSeconds: self.started ? Double(now - self.startTime) / 1e9 : 0,
      confirmed: self.senders.reduce(0) { $0 + $1.confirmed },
      errors: self.senders.reduce(0) { $0 + $1.refused } + self.connectionErrors.count)
  }

  /// Waits (up to `timeout`) until every open watcher has seen revision `revision`.
  func waitForWatchers(toReach revision: Int64, timeout: Duration) async {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      let behind = self.watchers.contains { !$0.closed && $0.lastSeenRevision < revision }
      if !behind { return }
      try? await Task.sleep(for: .milliseconds(2))
    }
  }

  /// Applies the watchers' buffered patches and compares each copy with `final` (the state
  /// at `finalRevision`); closes every connection and returns the measurements.
  func finish(final: Snapshot?) -> Measurements {
    var problems = self.connectionErrors
    var patchLatencies: [UInt64] = []
    let actions = self.senders.flatMap { sender in
      zip(sender.ackRevisions, sender.ackSendTimes).map { (rev: $0, sent: $1) }
    }
    for (index, watcher) in self.watchers.enumerated() {
      self.drain(watcher)
      if let problem = watcher.problem {
        problems.append("watcher \(index + 1): \(problem)")
      } else if let final, watcher.revision == final.revision, watcher.state != final.state {
        problems.append("watcher \(index + 1): its copy differs from the host's state at rev \(final.revision)")
      }
      let patches = zip(watcher.patchRevisions, watcher.patchTimes).map { (rev: $0, received: $1) }
      patchLatencies += BenchStatistics.patchLatencies(
        actions: actions, patches: patches, after: watcher.snapshotRevision)
    }
    let measurements = Measurements(
      seconds: Double(self.endTime - self.startTime) / 1e9,
      sent: self.senders.reduce(0) { $0 + $1.sent },
      confirmed: self.senders.reduce(0) { $0 + $1.confirmed },
      refused: self.senders.reduce(0) { $0 + $1.refused },
      ackLatencies: self.senders.flatMap(\.latencies).sorted(),
      patchLatencies: patchLatencies.sorted(),
      patchesReceived: self.watchers.reduce(0) { $0 + $1.patchRevisions.count },
      bytesSent: self.senders.reduce(0) { $0 + $1.connection.bytesWritten },
      bytesReceived: self.senders.reduce(0) { $0 + $1.connection.bytesRead },
      watcherBytes: self.watchers.reduce(0) { $0 + $1.connection.bytesRead },
      problems: problems)
    self.closeAll()
    return measurements
  }

  private func closeAll() {
    self.finished = true
    for sender in self.senders where !sender.closed {
      sender.closed = true
      sender.connection.close()
    }
    for watcher in self.watchers where !watcher.closed {
      watcher.closed = true
      watcher.connection.close()
    }
  }

  private var isTimed: Bool {
    if case .duration = self.options.length { true } else { false }
  }

  private func tick() {
    guard !self.finished else { return }
    if case .duration(let seconds) = self.options.length,
      Double(Platform.monotonicNanoseconds() - self.startTime) >= seconds * 1e9
    {
      self.stopping = true
    }
    for sender in self.senders { self.pump(sender) }
    self.checkDone()
  }

  /// How many more actions `sender` may send now (quota, stop, rate).
  private func allowance(_ sender: Sender) -> Int {
    guard !self.stopping, !sender.closed, !self.finished else { return 0 }
    var allowed = Int.max
    if case .actions(let quota) = self.options.length { allowed = quota - sender.sent }
    if let rate = self.perClientRate {
      let elapsed = Double(Platform.monotonicNanoseconds() - self.startTime) / 1e9
      allowed = min(allowed, Int(elapsed * rate) + 1 - sender.sent)
    }
    return max(0, allowed)
  }

  private func pump(_ sender: Sender) {
    switch self.options.ack {
    case .every:
      guard sender.inFlight == 0, self.allowance(sender) > 0 else { return }
      let id = sender.nextID
      sender.nextID += 1
      sender.sent += 1
      sender.inFlight = 1
      sender.sendTime = Platform.monotonicNanoseconds()
      sender.connection.send(self.action, id: id)
    case .end:
      while sender.batches.count < 2 {
        let size = min(self.options.pipeline, self.allowance(sender))
        guard size > 0 else { return }
        let id = sender.nextID
        sender.nextID += 1
        sender.sent += size
        sender.inFlight += size
        sender.batches.append((id, size, Platform.monotonicNanoseconds()))
        sender.connection.withOutboundBuffer { out in
          for _ in 0..<size { self.action.appendFrame(id: nil, to: &out) }
          ClientMessage.ping(id: id).encodeFrame(into: &out)
        }
      }
    }
  }

  private func checkDone() {
    guard self.started, !self.finished, let waiter = self.doneWaiter else { return }
    let busy = self.senders.contains { !$0.closed && ($0.inFlight > 0 || self.allowance($0) > 0 || self.waitsForRate($0)) }
    guard !busy else { return }
    self.doneWaiter = nil
    self.endTime = Platform.monotonicNanoseconds()
    self.finished = true
    waiter.resume()
  }

  /// Whether a sender with nothing in flight is only waiting for the rate to allow more.
  private func waitsForRate(_ sender: Sender) -> Bool {
    guard self.perClientRate != nil, !self.stopping else { return false }
    if case .actions(let quota) = self.options.length { return sender.sent < quota }
    return true
  }

  // MARK: - Sender callbacks

  private func acknowledged(_ sender: Sender, rev: Int64) {
    let now = Platform.monotonicNanoseconds()
    sender.inFlight = 0
    sender.confirmed += 1
    sender.latencies.append(now - sender.sendTime)
    if !self.watchers.isEmpty {
      sender.ackRevisions.append(rev)
      sender.ackSendTimes.append(sender.sendTime)
    }
    self.pump(sender)
    if sender.inFlight == 0 { self.checkDone() }
  }

  private func batchConfirmed(_ sender: Sender, id: Int64) {
    guard let index = sender.batches.firstIndex(where: { $0.id == id }) else { return }
    let batch = sender.batches.remove(at: index)
    let refused = min(sender.pendingRefusals, batch.size)
    sender.pendingRefusals -= refused
    sender.refused += refused
    sender.confirmed += batch.size - refused
    sender.inFlight -= batch.size
    sender.latencies.append(Platform.monotonicNanoseconds() - batch.start)
    self.pump(sender)
    self.checkDone()
  }

  private func senderMessage(_ sender: Sender, _ message: HostMessage) {
    switch message {
    case .welcome:
      guard !sender.welcomed else { return }
      sender.welcomed = true
      self.becameReady()
    case .ack(_, let rev):
      self.acknowledged(sender, rev: rev)
    case .pong(let id):
      self.batchConfirmed(sender, id: id)
    case .error(let id, let code, let text):
      sender.lastError = "\(text) (\(code.rawValue))"
      if !sender.welcomed {
        self.setupFailed(.host(code: code, message: text))
      } else if id != nil, self.options.ack == .every {
        sender.inFlight = 0
        sender.refused += 1
        self.pump(sender)
        self.checkDone()
      } else {
        sender.pendingRefusals += 1
      }
    default:
      break
    }
  }

  private func senderClosed(_ sender: Sender, _ reason: RemoteError) {
    guard !sender.closed else { return }
    sender.closed = true
    self.connectionLost("sender", ready: sender.welcomed, reason)
    sender.inFlight = 0
    self.checkDone()
  }

  // MARK: - Watcher callbacks

  private func watcherFrame(_ watcher: Watcher, _ payload: UnsafeRawBufferPointer) -> Bool {
    guard watcher.subscribed, let (_, _, rev) = HostMessage.compactPatchRevisions(payload) else {
      return false
    }
    self.stampPatch(watcher, rev: rev)
    // Keep the payload to apply later, off the timing path (bounded: applied at 8 MiB).
    FrameEncoder.appendFrame(to: &watcher.pending, bytes: payload)
    if watcher.pending.count > 8 << 20 { self.drain(watcher) }
    return true
  }

  private func watcherMessage(_ watcher: Watcher, _ message: HostMessage) {
    switch message {
    case .subscribed(_, _, _, let rev, let state):
      watcher.subscribed = true
      watcher.snapshotRevision = rev
      watcher.revision = rev
      watcher.lastSeenRevision = rev
      watcher.state = state
      self.becameReady()
    case .patch(_, let base, let rev, let ops):
      self.apply(watcher, base: base, rev: rev, ops: ops)
      self.stampPatch(watcher, rev: rev)
    case .unsubscribed(_, let reason):
      watcher.problem = watcher.problem ?? "unsubscribed by the host (\(reason))"
    case .error(_, let code, let text):
      if !watcher.subscribed {
        self.setupFailed(.host(code: code, message: text))
      } else {
        watcher.problem = watcher.problem ?? "\(text) (\(code.rawValue))"
      }
    default:
      break
    }
  }

  private func watcherClosed(_ watcher: Watcher, _ reason: RemoteError) {
    guard !watcher.closed else { return }
    watcher.closed = true
    self.connectionLost("watcher", ready: watcher.subscribed, reason)
  }

  /// A connection that ends before it is ready fails the set-up; one that ends during the run
  /// is an error of the run.
  private func connectionLost(_ role: String, ready: Bool, _ reason: RemoteError) {
    if !ready { self.setupFailed(reason) }
    if self.started && !self.finished {
      self.connectionErrors.append("a \(role) lost its connection: \(reason)")
    }
  }

  /// Stamps a patch to `rev` with the time it was read.
  private func stampPatch(_ watcher: Watcher, rev: Int64) {
    watcher.patchTimes.append(Platform.monotonicNanoseconds())
    watcher.patchRevisions.append(rev)
    watcher.lastSeenRevision = rev
  }

  /// Applies the patches a watcher buffered.
  private func drain(_ watcher: Watcher) {
    guard !watcher.pending.isEmpty else { return }
    var decoder = FrameDecoder(maxFrameSize: Int(UInt32.max))
    var messages: [HostMessage] = []
    var failure: RemoteError?
    do {
      try decoder.decode(watcher.pending) { payload in
        do throws(RemoteError) {
          messages.append(try HostConnection.decode(payload))
        } catch {
          failure = failure ?? error
        }
      }
    } catch {
      failure = failure ?? .protocolViolation("\(error)")
    }
    watcher.pending.removeAll(keepingCapacity: true)
    if let failure { watcher.problem = watcher.problem ?? "\(failure)" }
    for case .patch(_, let base, let rev, let ops) in messages {
      self.apply(watcher, base: base, rev: rev, ops: ops)
    }
  }

  private func apply(_ watcher: Watcher, base: Int64, rev: Int64, ops: [JSON]) {
    guard watcher.problem == nil else { return }
    guard base == watcher.revision else {
      watcher.problem = "a patch from rev \(base) arrived while its copy was at rev \(watcher.revision)"
      return
    }
    do {
      let operations = try JSONPatch.operations(from: .array(ops))
      try JSONPatch.apply(operations, to: &watcher.state)
      watcher.revision = rev
    } catch {
      watcher.problem = "a patch to rev \(rev) did not apply: \(error)"
    }
  }
}
