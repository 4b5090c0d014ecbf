import Dispatch
import Synchronization

/// The journal's work off the event loop, on one serial queue: flushing segments to the device
/// (`fdatasync`, and `fsync` of the directory after a segment was created), and closing the
/// segments the journal has moved past.
///
/// Because the queue is serial, a segment is never closed while a flush of it is queued or
/// running, and flushes complete in the order they were asked for.
final class JournalSyncer: Sendable {
  private let queue = DispatchQueue(label: "storehost.journal-sync", qos: .userInitiated)
  private let directory: String
  /// The segment being appended to, for the once-a-second flush.
  private let current = Mutex<(any JournalWriter)?>(nil)
  /// Set when a segment file was created: its name must be flushed with the directory.
  private let directoryIsDirty = Atomic<Bool>(false)
  /// Whether the once-a-second flush (``FsyncPolicy/everySecond``) runs.
  private let isPeriodic = Atomic<Bool>(false)

  init(directory: String) {
    self.directory = directory
  }

  /// Makes `writer` the segment the periodic flush covers; `isNew` when its file was just
  /// created (the directory then needs a flush too).
  func setCurrent(_ writer: any JournalWriter, isNew: Bool) {
    self.current.withLock { $0 = writer }
    if isNew { self.directoryIsDirty.store(true, ordering: .releasing) }
  }

  /// Flushes `writers` (and the directory, if a segment was created since the last flush) off
  /// the loop, then calls `completion` with the first failure, if any.
  func synchronize(
    _ writers: [any JournalWriter], then completion: @escaping @Sendable (FileError?) -> Void
  ) {
    self.queue.async {
      completion(self.flush(writers))
    }
  }

  /// Closes `writer` off the loop, after flushing it when `flushing` (records written to it
  /// are then on the device before the file is closed).
  func retire(_ writer: any JournalWriter, flushing: Bool) {
    self.queue.async {
      if flushing { _ = self.flush([writer]) }
      writer.close()
    }
  }

  /// Starts flushing the current segment once a second; `report` gets each result.
  func startEverySecond(report: @escaping @Sendable (FileError?) -> Void) {
    self.isPeriodic.store(true, ordering: .releasing)
    self.scheduleFlush(report: report)
  }

  private func scheduleFlush(report: @escaping @Sendable (FileError?) -> Void) {
    self.queue.asyncAfter(deadline: .now() + 1) { [weak self] in
      guard let self, self.isPeriodic.load(ordering: .acquiring) else { return }
      if let writer = self.current.withLock({ $0 }) { report(self.flush([writer])) }
      self.scheduleFlush(report: report)
    }
  }

  /// Stops the periodic flush and waits for the queued work to finish.
  func stop() {
    self.isPeriodic.store(false, ordering: .releasing)
    self.queue.sync {}
  }

  /// Flushes the current segment and the directory now, waiting for it (at shutdown).
  func flushNow() -> FileError? {
    self.queue.sync {
      guard let writer = self.current.withLock({ $0 }) else { return nil }
      return self.flush([writer])
    }
  }

  /// On the queue: flushes each writer, then the directory if a segment was created.
  private func flush(_ writers: [any JournalWriter]) -> FileError? {
    var failure: FileError?
    for writer in writers {
      do {
        try writer.synchronize()
      } catch {
        failure = failure ?? error
      }
    }
    if self.directoryIsDirty.exchange(false, ordering: .acquiringAndReleasing) {
      do {
        try FileSystem.synchronizeDirectory(self.directory)
      } catch {
        self.directoryIsDirty.store(true, ordering: .releasing)
        failure = failure ?? error
      }
    }
    return failure
  }
}
