extension Task {
  /// Waits for the task's value, cancelling the task if the waiting task is cancelled, as
  /// swift-concurrency-extras' `cancellableValue` (re-exported by TCA): awaiting `value` alone
  /// would leave the task running.
  ///
  /// ```swift
  /// let task = Task { try await download() }
  /// let data = try await task.cancellableValue   // cancelling the caller cancels the download
  /// ```
  public var cancellableValue: Success {
    get async throws {
      try await withTaskCancellationHandler {
        try await self.value
      } onCancel: {
        self.cancel()
      }
    }
  }
}

extension Task where Failure == Never {
  /// Waits for the task's value, cancelling the task if the waiting task is cancelled (see
  /// ``Task/cancellableValue``).
  public var cancellableValue: Success {
    get async {
      await withTaskCancellationHandler {
        await self.value
      } onCancel: {
        self.cancel()
      }
    }
  }
}
