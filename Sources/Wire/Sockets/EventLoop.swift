import Synchronization

/// One dedicated thread that waits for its sockets (epoll(7) on Linux, poll(2) elsewhere) and
/// runs work — and a `SerialExecutor`, so that actors can live on it.
///
/// ```
///          any thread                          the loop thread
///   execute { } / enqueue(job) ──▶ queue ──▶ ┌──────────────────────────────────────────┐
///        (wakes the loop via an eventfd      │ 1. run due timers                        │
///         or a pipe, only if it sleeps)      │ 2. run queued closures and actor jobs    │
///                                            │ 3. flush every connection written to     │
///                                            │    (one send per connection: coalesced)  │
///                                            │ 4. wait (epoll/poll): fds + wakeup fd    │
///                                            │ 5. accept / read → callbacks             │
///                                            └──────────────────── repeat ──────────────┘
/// ```
///
/// Listeners and connections (``UnixListener``, ``UnixConnection``) are confined to their loop:
/// create and use them on the loop thread, from a callback, from ``execute(_:)``, or from an
/// actor whose executor is the loop. Such an actor runs its jobs on the loop thread, and code
/// already on the loop (a read callback) can enter it synchronously with `assumeIsolated`:
///
/// ```swift
/// actor Server {
///   let loop: EventLoop
///   nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
///   init(loop: EventLoop) { self.loop = loop }
///   func start(path: String) throws(SocketError) {
///     listener = try UnixListener.listen(path: path, loop: loop) { connection in
///       connection.onRead = { bytes in
///         self.assumeIsolated { $0.handle(bytes, from: connection) }   // no hop, no Task
///       }
///     }
///   }
/// }
/// ```
///
/// The loop blocks only inside that wait; it never spins. Writes made during one iteration are
/// sent together at the end of it, so many small frames leave in one system call.
public final class EventLoop: SerialExecutor, @unchecked Sendable {
  // @unchecked Sendable is safe because every stored property is one of:
  //   - immutable after init (`name`, the wakeup descriptors, the read buffer's address);
  //   - cross-thread state inside a `Locked` (a pthread mutex) (`shared`, `threadHandle`) or an `Atomic`;
  //   - loop-confined state (`sources`, `pollSet`, `pollOwners`, `pendingFlush`, `timers`,
  //     `spareQueue`, the read buffer's bytes), only ever touched on the loop thread: every
  //     method touching it is internal and asserts `inEventLoop` or runs from `run()`.

  /// The loop's name, also given to its thread.
  public let name: String

  private enum Lifecycle { case running, shuttingDown, stopped }

  private enum Work {
    case job(UnownedJob)
    case closure(@Sendable () -> Void)
  }

  private struct Shared {
    var queue: [Work] = []
    /// The loop is in (or about to enter) a blocking poll and must be woken for new work.
    var sleeping = false
    var lifecycle = Lifecycle.running
  }

  private let shared = Locked(Shared())
  private let threadHandle = Locked<ThreadHandle?>(nil)
  private let loopThreadID = Atomic<UInt>(0)
  private let wakeRead: Int32
  private let wakeWrite: Int32

  private let totalBytesRead = Atomic<UInt64>(0)
  private let totalBytesWritten = Atomic<UInt64>(0)
  private let totalSendCalls = Atomic<UInt64>(0)
  private let totalIterations = Atomic<UInt64>(0)

  // Loop-confined state.
  private var sources: [any EventSource] = []
  private var pollSet: [PollDescriptor] = []
  private var pollOwners: [(any EventSource)?] = []
  private var pendingFlush: [UnixConnection] = []
  /// Connection events that happened during a call into the connection (a send that failed,
  /// a close, a drain), delivered by the loop once that call has returned: see ``settle()``.
  private var pendingEvents: [() -> Void] = []
  private var timers: [LoopTimer] = []
  private var nextTimerID: UInt64 = 0
  private var spareQueue: [Work] = []
  #if os(Linux)
    /// The epoll set (Linux): registrations change only when a source's events do, and a wait
    /// returns only the ready descriptors.
    private let epollFD: Int32
    /// The events each source is registered with (parallel to `sources`), `-1` when it is not.
    private var registered: [Int32] = []
    /// The registered source of each descriptor number.
    private var ownerByFD: [(any EventSource)?] = []
    private let epollEvents: UnsafeMutableBufferPointer<Epoll.Event>
    private static let maxEventsPerWait = 256
  #endif

  /// The buffer every connection of this loop reads into (loop-confined, reused).
  let readBuffer: UnsafeMutableRawBufferPointer

  /// The size of ``readBuffer``: large enough that a busy connection drains in few reads.
  static let readBufferSize = 64 * 1024

  /// A shared loop for clients (Remote's connections by default), started on first use and
  /// never stopped.
  public static let shared = EventLoop(name: "wire-client")

  /// Creates a loop and starts its thread.
  ///
  /// - Parameter name: A name for the loop and its thread (Linux keeps the first 15 bytes).
  public init(name: String) {
    self.name = name
    guard let wakeup = Posix.makeWakeup() else {
      fatalError(
        "EventLoop: cannot create a wakeup descriptor: \(Posix.errorDescription(Posix.errno))")
    }
    (self.wakeRead, self.wakeWrite) = wakeup
    self.readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
    #if os(Linux)
      self.epollFD = Epoll.create()
      guard self.epollFD >= 0 else {
        fatalError("EventLoop: cannot create an epoll descriptor: \(Posix.errorDescription(-self.epollFD))")
      }
      self.epollEvents = .allocate(capacity: Self.maxEventsPerWait)
      _ = Epoll.register(self.epollFD, self.wakeRead, events: Posix.pollIn, change: false)
    #endif
    let handle = Posix.spawnThread(name: name) { self.run() }
    self.threadHandle.withLock { $0 = handle }
  }

  deinit {
    Posix.close(self.wakeRead)
    if self.wakeWrite != self.wakeRead { Posix.close(self.wakeWrite) }
    self.readBuffer.deallocate()
    #if os(Linux)
      Posix.close(self.epollFD)
      self.epollEvents.deallocate()
    #endif
  }

  // MARK: - Running work

  /// Whether the caller is running on this loop's thread.
  public var inEventLoop: Bool {
    self.loopThreadID.load(ordering: .acquiring) == Posix.currentThreadID()
  }

  /// Runs `work` on the loop thread, after the work already queued.
  ///
  /// Work submitted after ``shutdownGracefully()`` has finished is dropped.
  ///
  /// - Parameter work: The closure to run; it may use loop-confined objects.
  public func execute(_ work: @escaping @Sendable () -> Void) {
    _ = self.submit(.closure(work))
  }

  /// Runs `work` on the loop thread and returns its result.
  ///
  /// - Parameter work: The closure to run on the loop.
  /// - Returns: What `work` returns.
  /// - Throws: What `work` throws, or a ``SocketError`` with code
  ///   ``SocketError/Code/eventLoopShutDown`` if the loop has stopped.
  public func submit<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withUnsafeThrowingContinuation { continuation in
      let accepted = self.submit(.closure { continuation.resume(with: Result { try work() }) })
      if !accepted {
        continuation.resume(throwing: SocketError(code: .eventLoopShutDown, operation: "submit"))
      }
    }
  }

  /// Enqueues an actor's job; the loop runs it on its thread.
  ///
  /// - Parameter job: The job to run.
  public func enqueue(_ job: consuming ExecutorJob) {
    _ = self.submit(.job(UnownedJob(job)))
  }

  /// The loop as an unowned serial executor, for an actor's `unownedExecutor`.
  ///
  /// - Returns: An unowned reference to this executor.
  public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }

  /// Lets `assumeIsolated` succeed in code that runs on the loop thread outside of a job —
  /// a read callback, a closure passed to ``execute(_:)`` — and traps anywhere else.
  public func checkIsolated() {
    precondition(self.inEventLoop, "not on the thread of event loop '\(self.name)'")
  }

  private func submit(_ work: Work) -> Bool {
    let (accepted, wake) = self.shared.withLock { state -> (Bool, Bool) in
      guard state.lifecycle != .stopped else { return (false, false) }
      state.queue.append(work)
      let wake = state.sleeping
      state.sleeping = false
      return (true, wake)
    }
    if wake { Posix.signalWakeup(self.wakeWrite) }
    return accepted
  }

  // MARK: - Shutting down

  /// Closes every listener and connection of the loop, runs the work still queued, then stops
  /// the thread. Called off the loop, it waits until the thread has exited; called on the loop,
  /// it returns at once and the loop stops after the current iteration.
  ///
  /// Connections are closed with ``UnixConnection/close()`` (pending output is flushed as far
  /// as the socket accepts it, and `onClose` is called).
  public func shutdownGracefully() {
    let wake = self.shared.withLock { state -> Bool in
      guard state.lifecycle == .running else { return false }
      state.lifecycle = .shuttingDown
      defer { state.sleeping = false }
      return state.sleeping
    }
    if wake { Posix.signalWakeup(self.wakeWrite) }
    guard !self.inEventLoop else { return }
    // Holding the lock across the join makes a second caller wait for the same exit.
    self.threadHandle.withLock { handle in
      if let thread = handle {
        Posix.joinThread(thread)
        handle = nil
      }
    }
  }

  // MARK: - Statistics

  /// Bytes read from all connections of this loop since it started.
  public var bytesRead: UInt64 { self.totalBytesRead.load(ordering: .relaxed) }

  /// Bytes written to all connections of this loop since it started.
  public var bytesWritten: UInt64 { self.totalBytesWritten.load(ordering: .relaxed) }

  /// `send` system calls made for all connections of this loop (for tests of coalescing).
  var sendCalls: UInt64 { self.totalSendCalls.load(ordering: .relaxed) }

  /// Loop iterations so far (for tests that the loop sleeps when idle, and for work that
  /// batches per iteration: a durable host's journal writes).
  package var iterations: UInt64 { self.totalIterations.load(ordering: .relaxed) }

  func countRead(_ bytes: Int) {
    self.totalBytesRead.add(UInt64(bytes), ordering: .relaxed)
  }

  func countSend(_ bytes: Int) {
    self.totalSendCalls.add(1, ordering: .relaxed)
    if bytes > 0 { self.totalBytesWritten.add(UInt64(bytes), ordering: .relaxed) }
  }

  // MARK: - Sources (loop-confined)

  func register(_ source: any EventSource) {
    self.assertInEventLoop()
    source.sourceIndex = self.sources.count
    self.sources.append(source)
    #if os(Linux)
      self.registered.append(-1)
    #endif
  }

  func deregister(_ source: any EventSource) {
    self.assertInEventLoop()
    let index = source.sourceIndex
    guard index >= 0, index < self.sources.count, self.sources[index] === source else { return }
    #if os(Linux)
      if self.registered[index] >= 0 {
        _ = Epoll.control(self.epollFD, Epoll.remove, source.fileDescriptor, events: 0)
        self.forgetOwner(source)
      }
      let lastRegistration = self.registered.removeLast()
      if index < self.registered.count { self.registered[index] = lastRegistration }
    #endif
    let last = self.sources.removeLast()
    if index < self.sources.count {
      self.sources[index] = last
      last.sourceIndex = index
    }
    source.sourceIndex = -1
  }

  /// Asks for `connection`'s outbound buffer to be sent at the end of this iteration.
  func scheduleFlush(_ connection: UnixConnection) {
    self.pendingFlush.append(connection)
  }

  /// Delivers a connection's event from the loop itself, after the code that caused it has
  /// returned: a callback never runs inside a call into its connection (``settle()``).
  func deliverLater(_ event: @escaping () -> Void) {
    self.pendingEvents.append(event)
  }

  func assertInEventLoop(_ file: StaticString = #fileID, line: UInt = #line) {
    assert(
      self.inEventLoop, "called off the thread of event loop '\(self.name)'", file: file, line: line
    )
  }

  func preconditionInEventLoop(_ file: StaticString = #fileID, line: UInt = #line) {
    precondition(
      self.inEventLoop, "must be called on the thread of event loop '\(self.name)'",
      file: file, line: line)
  }

  // MARK: - Timers (loop-confined)

  private struct LoopTimer {
    var deadline: ContinuousClock.Instant
    var id: UInt64
    var work: () -> Void
  }

  /// Runs `work` on the loop after `delay`; returns an id for ``cancelTimer(_:)``.
  @discardableResult
  package func scheduleTimer(after delay: Duration, _ work: @escaping () -> Void) -> UInt64 {
    self.assertInEventLoop()
    self.nextTimerID += 1
    self.timers.append(LoopTimer(deadline: .now + delay, id: self.nextTimerID, work: work))
    return self.nextTimerID
  }

  package func cancelTimer(_ id: UInt64) {
    self.timers.removeAll { $0.id == id }
  }

  private func runDueTimers() {
    guard !self.timers.isEmpty else { return }
    let now = ContinuousClock.now
    var due: [LoopTimer] = []
    self.timers.removeAll { timer in
      if timer.deadline <= now {
        due.append(timer)
        return true
      }
      return false
    }
    for timer in due.sorted(by: { $0.deadline < $1.deadline }) { timer.work() }
  }

  private func pollTimeout() -> Int32 {
    // Events still to deliver: look at the sockets without sleeping, then deliver them.
    if !self.pendingEvents.isEmpty || !self.pendingFlush.isEmpty { return 0 }
    guard let deadline = self.timers.map(\.deadline).min() else { return -1 }
    let remaining = ContinuousClock.now.duration(to: deadline)
    guard remaining > .zero else { return 0 }
    let (seconds, attoseconds) = remaining.components
    let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int32(clamping: milliseconds)
  }

  // MARK: - The loop

  private func run() {
    self.loopThreadID.store(Posix.currentThreadID(), ordering: .releasing)
    var closingSources = true
    while true {
      self.totalIterations.add(1, ordering: .relaxed)
      self.runDueTimers()
      let lifecycle = self.runQueuedWork()
      self.flushPendingWrites()
      self.settle()

      if lifecycle == .shuttingDown {
        if closingSources {
          closingSources = false
          for source in self.sources.reversed() { source.close() }
          self.flushPendingWrites()
          self.settle()
        }
        let stopped = self.shared.withLock { state -> Bool in
          guard state.queue.isEmpty, self.pendingEvents.isEmpty else { return false }
          state.lifecycle = .stopped
          return true
        }
        if stopped { break }
        continue
      }

      #if os(Linux)
        self.syncRegistrations()
      #else
        self.buildPollSet()
      #endif
      var timeout = self.pollTimeout()
      if timeout != 0 {
        let sleeping = self.shared.withLock { state -> Bool in
          guard state.queue.isEmpty, state.lifecycle == .running else { return false }
          state.sleeping = true
          return true
        }
        if !sleeping { timeout = 0 }
      }
      #if os(Linux)
        let ready = Epoll.wait(self.epollFD, into: self.epollEvents, timeoutMilliseconds: timeout)
        if timeout != 0 { self.shared.withLock { $0.sleeping = false } }
        if ready > 0 { self.dispatchEpoll(Int(ready)) }
      #else
        let ready = Posix.poll(&self.pollSet, timeoutMilliseconds: timeout)
        if timeout != 0 { self.shared.withLock { $0.sleeping = false } }
        if ready > 0 { self.dispatch() }
      #endif
    }
    #if os(Linux)
      self.ownerByFD.removeAll()
      self.registered.removeAll()
    #endif
    self.pollOwners.removeAll()
    self.sources.removeAll()
    self.timers.removeAll()
  }

  /// Runs the work queued so far (not what it queues in turn, which waits for the next
  /// iteration, so that I/O is never starved).
  private func runQueuedWork() -> Lifecycle {
    var batch = self.spareQueue
    let lifecycle = self.shared.withLock { state -> Lifecycle in
      swap(&batch, &state.queue)
      return state.lifecycle
    }
    for work in batch {
      switch work {
      case .job(let job): job.runSynchronously(on: self.asUnownedSerialExecutor())
      case .closure(let closure): closure()
      }
    }
    batch.removeAll(keepingCapacity: true)
    self.spareQueue = batch
    return lifecycle
  }

  private func flushPendingWrites() {
    // A flush can schedule nothing new (callbacks it triggers append to the list; they are
    // picked up by the `while`).
    var index = 0
    while index < self.pendingFlush.count {
      // Skips connections flushed early, by `flush()`.
      let connection = self.pendingFlush[index]
      if connection.flushScheduled { connection.flushScheduledWrites(fromLoop: true) }
      index += 1
    }
    self.pendingFlush.removeAll(keepingCapacity: true)
  }

  /// Delivers the connection events that happened inside calls into connections — a send
  /// that failed (what the peer sent before leaving is read, then the connection closes), an
  /// ``UnixConnection/onClose`` after ``UnixConnection/close()``, an
  /// ``UnixConnection/onWritable`` after an early ``UnixConnection/flush()`` drained the
  /// socket — then sends what they wrote.
  ///
  /// This is what makes the callbacks safe to write: they run from the loop, with nothing of
  /// the program's on the stack, so code walking its sessions, tails or subscriptions can
  /// write, flush and close without being re-entered by a read or a close in the middle of its
  /// walk. Events delivered here that cause others (a close that flushes another connection)
  /// wait for the next round, which runs before the loop sleeps.
  private func settle() {
    guard !self.pendingEvents.isEmpty else { return }
    var events: [() -> Void] = []
    swap(&events, &self.pendingEvents)
    for event in events { event() }
    self.flushPendingWrites()
  }

  private func buildPollSet() {
    self.pollSet.removeAll(keepingCapacity: true)
    self.pollOwners.removeAll(keepingCapacity: true)
    self.pollSet.append(PollDescriptor(fd: self.wakeRead, events: Posix.pollIn, revents: 0))
    self.pollOwners.append(nil)
    for source in self.sources {
      guard let events = source.pollEvents else { continue }
      self.pollSet.append(PollDescriptor(fd: source.fileDescriptor, events: events, revents: 0))
      self.pollOwners.append(source)
    }
  }

  #if os(Linux)
    /// Brings the epoll set in line with what each source wants now (a system call only for a
    /// source whose events changed).
    private func syncRegistrations() {
      for index in self.sources.indices {
        let source = self.sources[index]
        let wanted = source.pollEvents.map { Int32($0) } ?? -1
        let current = self.registered[index]
        guard wanted != current else { continue }
        let fd = source.fileDescriptor
        if wanted < 0 {
          _ = Epoll.control(self.epollFD, Epoll.remove, fd, events: 0)
          self.forgetOwner(source)
        } else {
          _ = Epoll.register(self.epollFD, fd, events: Int16(wanted), change: current >= 0)
          let slot = Int(fd)
          if slot >= self.ownerByFD.count {
            self.ownerByFD.append(contentsOf: repeatElement(nil, count: slot + 1 - self.ownerByFD.count))
          }
          self.ownerByFD[slot] = source
        }
        self.registered[index] = wanted
      }
    }

    private func forgetOwner(_ source: any EventSource) {
      let slot = Int(source.fileDescriptor)
      if slot >= 0, slot < self.ownerByFD.count, self.ownerByFD[slot] === source {
        self.ownerByFD[slot] = nil
      }
    }

    private func dispatchEpoll(_ count: Int) {
      for index in 0..<count {
        let (fd, events) = Epoll.event(index, in: self.epollEvents)
        if fd == self.wakeRead {
          Posix.drainWakeup(self.wakeRead)
          continue
        }
        let slot = Int(fd)
        guard slot >= 0, slot < self.ownerByFD.count, let source = self.ownerByFD[slot],
          source.sourceIndex >= 0
        else { continue }
        source.handleEvents(events)
      }
    }
  #endif

  private func dispatch() {
    if self.pollSet[0].revents != 0 { Posix.drainWakeup(self.wakeRead) }
    for index in 1..<self.pollSet.count {
      let revents = self.pollSet[index].revents
      guard revents != 0, let source = self.pollOwners[index], source.sourceIndex >= 0 else {
        continue
      }
      source.handleEvents(revents)
    }
  }
}

/// Something an ``EventLoop`` polls: a listener or a connection. Loop-confined.
protocol EventSource: AnyObject {
  /// The descriptor to poll.
  var fileDescriptor: Int32 { get }
  /// The events to poll for, or `nil` to leave the descriptor out of the next poll.
  var pollEvents: Int16? { get }
  /// The source's position in the loop's list, `-1` when not registered.
  var sourceIndex: Int { get set }
  /// Handles the events poll(2) reported.
  func handleEvents(_ revents: Int16)
  /// Closes the source (the loop is shutting down).
  func close()
}
