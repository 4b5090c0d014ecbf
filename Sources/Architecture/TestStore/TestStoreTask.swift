/// The effects started by one ``TestStore/send(_:assert:fileID:file:line:column:)``, to await
/// or cancel in a test.
///
/// ```swift
/// let task = await store.send(.task)   // starts a long-living effect, like a view's `.task`
/// // … assertions …
/// await task.cancel()                   // as when the view disappears
/// ```
public struct TestStoreTask: Hashable, Sendable {
  /// The store's task for the effects.
  let storeTask: StoreTask
  let timeout: Duration
  /// The test store's executor, and whether the effects run on it (`nil` for a task made from
  /// a plain `Task`).
  let executor: _TestStoreExecutorThread?
  let effectsAreSerial: Bool
  let isRunning: @Sendable () -> Bool
  /// The test its failures belong to.
  let owner: UInt64

  init(
    rawValue: StoreTask, timeout: Duration, executor: _TestStoreExecutorThread,
    effectsAreSerial: Bool, owner: UInt64, isRunning: @escaping @Sendable () -> Bool
  ) {
    self.storeTask = rawValue
    self.timeout = timeout
    self.executor = executor
    self.effectsAreSerial = effectsAreSerial
    self.owner = owner
    self.isRunning = isRunning
  }

  /// A test store task for a plain task, as TCA's `TestStoreTask(rawValue:timeout:)`: `finish`
  /// waits for the task (failing the test after `timeout`), `cancel` cancels it and waits.
  ///
  /// ```swift
  /// let task = TestStoreTask(rawValue: Task { await model.load() }, timeout: .seconds(1))
  /// await task.finish()
  /// ```
  ///
  /// - Parameters:
  ///   - rawValue: The task, or `nil` for one that has already finished.
  ///   - timeout: How long ``finish(timeout:fileID:file:line:column:)`` waits by default.
  public init(rawValue: Task<Void, Never>?, timeout: Duration) {
    let storeTask = StoreTask(task: rawValue)
    self.storeTask = storeTask
    self.timeout = timeout
    self.executor = nil
    self.effectsAreSerial = false
    self.owner = _IssueOwner.current
    self.isRunning = { !storeTask._isFinished }
  }

  /// Cancels the effects and waits until they have stopped, and until what their cancellation
  /// set off has run.
  public func cancel() async {
    self.storeTask.cancel()
    await self.storeTask.group?.wait()
    await _settle(self.executor, effectsAreSerial: self.effectsAreSerial)
  }

  /// Waits for the effects to finish, failing the test if they are still running after the
  /// timeout.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait; the test store's ``TestStore/timeout`` when `nil`.
  ///   - fileID: The file of the assertion.
  ///   - filePath: The file path of the assertion.
  ///   - line: The line of the assertion.
  ///   - column: The column of the assertion.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await _settle(self.executor, effectsAreSerial: self.effectsAreSerial)
    await _expectFinished(
      timeout: timeout ?? self.timeout,
      at: _SourceLocation(
        fileID: fileID, filePath: filePath, line: line, column: column, owner: self.owner),
      executor: self.executor,
      until: { !self.isRunning() },
      message: { duration in
        """
        Expected task to finish, but it is still in-flight\(_TestStoreMessages.after(duration)).

        \(_TestStoreMessages.taskInFlight(timeoutWasExplicit: timeout != nil))
        """
      })
  }

  /// Whether the effects were cancelled (an action that started no effect counts as cancelled).
  public var isCancelled: Bool {
    self.storeTask.isCancelled
  }

  /// Compares the underlying tasks.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storeTask == rhs.storeTask
  }

  /// Hashes the underlying task.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.storeTask)
  }
}

/// Waits until `isFinished` holds, reporting the failure `message` describes at `location` if it
/// does not within `timeout`.
nonisolated(nonsending) func _expectFinished(
  timeout: Duration,
  at location: _SourceLocation,
  executor: _TestStoreExecutorThread?,
  until isFinished: () -> Bool,
  message: (_ timeout: Duration) -> String
) async {
  guard await !_poll(timeout: timeout, executor: executor, until: isFinished) else { return }
  location.reportIssue(message(timeout))
}

/// Waits until a condition holds or the timeout passes, and returns whether it holds.
///
/// The condition is checked whenever the test store's executor is idle, so work on it never
/// makes the wait fail; the timeout only bounds how long it waits for work elsewhere (real
/// time, I/O, tasks on the global executor).
nonisolated(nonsending) func _poll(
  timeout: Duration, executor: _TestStoreExecutorThread?, until condition: () -> Bool
) async -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: timeout)
  while true {
    await executor?.waitUntilIdle()
    if condition() { return true }
    guard clock.now < deadline else { return false }
    try? await Task.sleep(for: .milliseconds(1))
  }
}

/// Waits until a test store's feature has done everything it can do now: until its executor is
/// idle, which is exact when the effects run on it (`effectsAreSerial`). Effects on the global
/// executor are first yielded to (a heuristic, as TCA's `megaYield`).
nonisolated(nonsending) func _settle(
  _ executor: _TestStoreExecutorThread?, effectsAreSerial: Bool
) async {
  await executor?.waitUntilIdle()
  guard !effectsAreSerial else { return }
  await _settle(20)
  await executor?.waitUntilIdle()
}
