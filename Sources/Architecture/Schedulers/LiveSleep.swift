import Dispatch
import Foundation

/// Suspends until a dispatch time, throwing `CancellationError` at once if the task is
/// cancelled: the sleep of the live schedulers.
///
/// The wake-up comes from a global queue's timer, not from the scheduler's own queue or run loop:
/// the sleeping task resumes on its own executor either way, and a daemon on Linux need not
/// drain `DispatchQueue.main` nor run `RunLoop.main` for its effects' sleeps to end.
func _liveSleep(until deadline: DispatchTime) async throws {
  try Task.checkCancellation()
  let resumed = _Lock<UnsafeContinuation<Void, any Error>?>(nil)
  // Resumes the continuation once, whichever of the timer and the cancellation comes first.
  let finish: @Sendable (Result<Void, any Error>) -> Void = { result in
    let continuation = resumed.withLock { continuation in
      defer { continuation = nil }
      return continuation
    }
    continuation?.resume(with: result)
  }
  try await withTaskCancellationHandler {
    try await withUnsafeThrowingContinuation { continuation in
      resumed.withLock { $0 = continuation }
      if Task.isCancelled {
        finish(.failure(CancellationError()))
        return
      }
      DispatchQueue.global().asyncAfter(deadline: deadline) { finish(.success(())) }
    }
  } onCancel: {
    finish(.failure(CancellationError()))
  }
}
