import Architecture
import Dispatch

/// A serial executor on a dispatch queue, standing in for the host's I/O event loop.
final class QueueExecutor: SerialExecutor, Sendable {
  static let key = DispatchSpecificKey<String>()
  let queue: DispatchQueue

  init(label: String) {
    self.queue = DispatchQueue(label: label)
    self.queue.setSpecific(key: Self.key, value: label)
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    self.queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }

  func checkIsolated() {
    dispatchPrecondition(condition: .onQueue(self.queue))
  }

  /// Runs a plain closure on the queue, outside any task (as a socket read callback would).
  func execute(_ body: @escaping @Sendable () -> Void) {
    self.queue.async(execute: body)
  }

  /// The label of the queue the caller runs on, if it is a `QueueExecutor`'s.
  static var currentLabel: String? { DispatchQueue.getSpecific(key: Self.key) }
}
