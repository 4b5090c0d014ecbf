import Wire

/// The live journal: every action the host reduces becomes a record, and acknowledgements wait
/// until their record is written.
///
/// ```
///   reduce ─▶ didReduce: record encoded into `pending` ──▶ once per loop iteration (and before
///                                                          pushes): writePending ─▶ write(2)
///   ┌──────────────── position (bytes since start) ──────────────────────────────────────────┐
///   │ confirmed ≤ written ≤ appended                                                          │
///   │   appended: records encoded;  written: handed to the OS;  confirmed: acks may leave     │
///   │   (= written; with `always`, = flushed to the device by the background queue)          │
///   └─────────────────────────────────────────────────────────────────────────────────────────┘
/// ```
///
/// Records are written with one `write(2)` per event-loop iteration — a group for every
/// connection's batch — rather than one per action. With ``FsyncPolicy/always`` the written
/// bytes are flushed by ``JournalSyncer`` off the loop, one `fdatasync` for everything written
/// since the last one began (group commit), and ``confirmed`` moves when it completes.
///
/// A failed write keeps the records buffered and is retried (at the next write and every
/// second); meanwhile ``isAcceptingActions`` is `false`, so new client sends are answered
/// `unavailable` before they are reduced, and nothing unwritten is acknowledged.
///
/// `@unchecked Sendable`: confined to the host's event loop. Its methods are called on the loop
/// thread, and the closures it hands to other threads only send work back to the loop.
///
/// The properties touched per action are `@exclusivity(unchecked)`: only the loop thread
/// touches them, in these synchronous methods, and no `inout` access to one is held across a
/// call that could reach it again (the callbacks run after the journal's own updates) — so
/// the dynamic exclusivity check, measured at a third of the journal's instructions per action,
/// could never fire.
@usableFromInline
final class Journal: @unchecked Sendable {
  let policy: FsyncPolicy
  /// The revision the journal started after (the recovered revision).
  @usableFromInline let startRevision: Int64
  private let loop: EventLoop
  private let log: HostLogger
  private let directory: String
  private let makeWriter: @Sendable (String) throws(FileError) -> any JournalWriter
  private let syncer: JournalSyncer

  @exclusivity(unchecked) private var writer: any JournalWriter
  @exclusivity(unchecked) private var encoder = JournalEncoder()
  @exclusivity(unchecked) private var pending = ByteWriter(reservingCapacity: 64 << 10)
  @exclusivity(unchecked) private var isWriteScheduled = false
  /// Set while the host reads a batch of requests: ``endBatch()`` decides when to write.
  @usableFromInline @exclusivity(unchecked) var isInBatch = false
  /// The loop iteration of the last batch, how many batches it has had, and how many the
  /// iteration before it had (see ``endBatch()``).
  @exclusivity(unchecked) private var batchIteration: UInt64 = 0
  @exclusivity(unchecked) private var batchesInIteration = 0
  @exclusivity(unchecked) private var batchesInPreviousIteration = 0
  /// Set by ``finish()``: the segment is closed, nothing more is written or flushed.
  @exclusivity(unchecked) private var isFinished = false

  /// The position after the last record encoded.
  @exclusivity(unchecked) private(set) var appended: UInt64 = 0
  /// The position up to which records were handed to the operating system.
  @exclusivity(unchecked) private(set) var written: UInt64 = 0
  /// The position up to which acknowledgements may leave.
  @exclusivity(unchecked) private(set) var confirmed: UInt64 = 0
  /// Writers with written bytes not yet asked to be flushed (`always`).
  @exclusivity(unchecked) private var unflushed: [any JournalWriter] = []
  @exclusivity(unchecked) private var flushesInFlight = 0
  @exclusivity(unchecked) private var writeFailure: FileError?
  @exclusivity(unchecked) private var flushFailure: FileError?
  /// Bytes written to segments since the last snapshot began.
  @exclusivity(unchecked) private(set) var bytesSinceSnapshot: Int64 = 0
  /// Set when an action could not be encoded: a snapshot must cover it soon.
  @exclusivity(unchecked) private(set) var needsSnapshot = false

  /// Called with the new confirmed position: acknowledgements up to it may leave.
  @exclusivity(unchecked) var onConfirmed: ((UInt64) -> Void)?
  /// Called after a write once ``snapshotThreshold`` bytes were written since the last
  /// snapshot (or an action could not be encoded): a snapshot is due.
  @exclusivity(unchecked) var onSnapshotDue: (() -> Void)?
  /// Journal bytes since the last snapshot at which the next one is due (set by the host from
  /// its snapshot policy and the last snapshot's size).
  @exclusivity(unchecked) var snapshotThreshold: Int64 = .max

  init(
    directory: String, startingAfter revision: Int64, policy: FsyncPolicy, loop: EventLoop,
    log: HostLogger,
    makeWriter: @escaping @Sendable (String) throws(FileError) -> any JournalWriter
  ) throws(FileError) {
    self.policy = policy
    self.startRevision = revision
    self.loop = loop
    self.log = log
    self.directory = directory
    self.makeWriter = makeWriter
    self.syncer = JournalSyncer(directory: directory)
    let path = directory + "/" + DataLayout.segmentName(after: revision)
    let isNew = !FileSystem.exists(path)
    self.writer = try makeWriter(path)
    self.syncer.setCurrent(self.writer, isNew: isNew)
    if policy == .everySecond {
      self.syncer.startEverySecond { [self] failure in
        self.loop.execute { self.didFlushPeriodically(failure) }
      }
    }
  }

  /// Whether client actions may be reduced: the journal is being written and flushed.
  var isAcceptingActions: Bool { self.writeFailure == nil && self.flushFailure == nil }

  // MARK: - Records

  /// Takes the record of one reduced action (see ``JournalEncoder/append(revision:time:origin:scope:action:draws:to:)``):
  /// it is written once per loop iteration.
  @usableFromInline
  func append(
    revision: Int64, time: Int64, origin: ReductionOrigin, scope: String?, action: JSON?,
    draws: [Draw]
  ) {
    if action == nil {
      self.log(
        .error,
        "the action of revision \(revision) cannot be written as JSON; it is journaled "
          + "without it, and a snapshot is taken now so that recovery never needs it")
      self.needsSnapshot = true
    }
    self.encoder.append(
      revision: revision, time: time, origin: origin, scope: scope, action: action, draws: draws,
      to: &self.pending)
    self.appended = self.written + UInt64(self.pending.bytes.count)
    if !self.isInBatch { self.scheduleWrite() }
  }

  /// Writes at the start of the next loop iteration, before its writes to sockets.
  private func scheduleWrite() {
    guard !self.isWriteScheduled else { return }
    self.isWriteScheduled = true
    self.loop.execute { [self] in self.writePending() }
  }

  /// Ends a client's batch of requests whose actions were journaled (called before the
  /// batch's replies are flushed).
  ///
  /// Through a mapping (a copy, no system call), the records are written now: the batch's
  /// acks then leave with it. With `write(2)`, too while the loop serves one batch per
  /// iteration (one client at a time); when several batches share iterations (many clients at
  /// once), the write is left to the next iteration's start, one `write(2)` for all of them.
  @usableFromInline
  func endBatch() {
    if self.writer.appendsInMemory {
      self.writePending()
      return
    }
    let iteration = self.loop.iterations
    if iteration != self.batchIteration {
      self.batchesInPreviousIteration =
        iteration == self.batchIteration &+ 1 ? self.batchesInIteration : 0
      self.batchIteration = iteration
      self.batchesInIteration = 0
    }
    self.batchesInIteration += 1
    if self.batchesInIteration == 1, self.batchesInPreviousIteration <= 1 {
      self.writePending()
    } else {
      self.scheduleWrite()
    }
  }

  /// Hands the buffered records to the operating system (one `write(2)`).
  func writePending() {
    self.isWriteScheduled = false
    guard !self.pending.bytes.isEmpty, !self.isFinished else { return }
    let failure = self.pending.bytes.withUnsafeBytes { self.writer.append($0) }
    let count = failure?.written ?? self.pending.bytes.count
    self.written += UInt64(count)
    self.bytesSinceSnapshot += Int64(count)
    if let failure {
      // The bytes already written stay in the file; the rest is retried after them.
      self.pending.bytes.removeSubrange(0..<count)
      if self.writeFailure == nil {
        self.log(
          .error,
          "cannot write the journal \(self.writer.path): \(failure.error); sends are refused "
            + "with 'unavailable' and acknowledgements held until it can be written; retrying")
      }
      self.writeFailure = failure.error
      return
    }
    if self.pending.bytes.capacity > 4 << 20 {
      self.pending = ByteWriter(reservingCapacity: 64 << 10)
    } else {
      self.pending.bytes.removeAll(keepingCapacity: true)
    }
    if self.writeFailure != nil {
      self.writeFailure = nil
      self.log(.warning, "the journal is written again; sends are accepted")
    }
    if self.policy == .always {
      if !self.unflushed.contains(where: { $0 === self.writer }) {
        self.unflushed.append(self.writer)
      }
      if self.flushesInFlight == 0 { self.requestFlush() }
    } else {
      self.confirm(self.written)
    }
    if self.bytesSinceSnapshot >= self.snapshotThreshold || self.needsSnapshot {
      self.onSnapshotDue?()
    }
  }

  // MARK: - Flushing

  /// Asks the background queue to flush what is written (`always`); acks follow its success.
  private func requestFlush() {
    guard !self.unflushed.isEmpty, !self.isFinished else { return }
    let writers = self.unflushed
    let target = self.written
    self.unflushed = []
    self.flushesInFlight += 1
    self.syncer.synchronize(writers) { [self] failure in
      self.loop.execute { self.didFlush(writers, upTo: target, failure: failure) }
    }
  }

  private func didFlush(_ writers: [any JournalWriter], upTo target: UInt64, failure: FileError?) {
    self.flushesInFlight -= 1
    guard !self.isFinished else { return }
    if let failure {
      if self.flushFailure == nil {
        self.log(
          .error,
          "cannot flush the journal to the device: \(failure); sends are refused with "
            + "'unavailable' and acknowledgements held until it can be flushed; retrying")
      }
      self.flushFailure = failure
      for writer in writers where !self.unflushed.contains(where: { $0 === writer }) {
        self.unflushed.append(writer)
      }
      return
    }
    if self.flushFailure != nil, self.flushesInFlight == 0 {
      self.flushFailure = nil
      self.log(.warning, "the journal is flushed again; sends are accepted")
    }
    self.confirm(target)
    if self.flushesInFlight == 0 { self.requestFlush() }
  }

  private func didFlushPeriodically(_ failure: FileError?) {
    guard !self.isFinished else { return }
    if let failure {
      if self.flushFailure == nil {
        self.log(
          .error,
          "cannot flush the journal to the device: \(failure); sends are refused with "
            + "'unavailable' until it can be flushed; retrying every second")
      }
      self.flushFailure = failure
    } else if self.flushFailure != nil {
      self.flushFailure = nil
      self.log(.warning, "the journal is flushed again; sends are accepted")
    }
  }

  private func confirm(_ position: UInt64) {
    guard position > self.confirmed else { return }
    self.confirmed = position
    self.onConfirmed?(position)
  }

  /// Retries a failed write or flush; called every second.
  func retry() {
    if self.writeFailure != nil { self.writePending() }
    if self.policy == .always, self.flushFailure != nil, self.flushesInFlight == 0 {
      self.requestFlush()
    }
  }

  // MARK: - Segments

  /// Starts a new segment after `revision`: every record up to it is in the current one.
  ///
  /// - Precondition: Nothing is buffered (``writePending()`` succeeded just before).
  func rotate(after revision: Int64) throws(FileError) {
    precondition(self.pending.bytes.isEmpty, "rotate with records still buffered")
    let path = self.directory + "/" + DataLayout.segmentName(after: revision)
    let isNew = !FileSystem.exists(path)
    let next = try self.makeWriter(path)
    let previous = self.writer
    self.writer = next
    self.encoder = JournalEncoder()
    self.bytesSinceSnapshot = 0
    self.needsSnapshot = false
    self.syncer.setCurrent(next, isNew: isNew)
    // Queued before the old segment's retirement, so it is flushed while still open.
    if self.policy == .always { self.requestFlush() }
    self.syncer.retire(previous, flushing: self.policy != .never)
  }

  /// Writes and flushes everything, releases the held acknowledgements, and closes the
  /// segment (at shutdown; blocks the loop for one flush).
  func finish() {
    self.writePending()
    self.syncer.stop()
    if self.writeFailure != nil {
      self.log(
        .error,
        "stopping with \(self.pending.bytes.count) bytes of journal records unwritten: their "
          + "actions were never acknowledged")
    } else if let failure = self.syncer.flushNow() {
      self.log(.error, "cannot flush the journal at shutdown: \(failure)")
    } else {
      self.confirm(self.written)
    }
    self.isFinished = true
    self.writer.close()
  }
}
