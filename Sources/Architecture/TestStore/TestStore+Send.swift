extension TestStore {
  /// Sends an action to the feature and asserts how the state changes.
  ///
  /// The trailing closure receives the state *before* the action and must turn it into exactly
  /// the state after it; omit it when the action changes nothing:
  ///
  /// ```swift
  /// await store.send(.incrementButtonTapped) {
  ///   $0.count = 1
  /// }
  /// await store.send(.factButtonTapped) {
  ///   $0.isLoading = true
  /// }
  /// ```
  ///
  /// A mismatch fails the test at this line with a diff; so does sending while actions fed back
  /// by effects are still to be received (with ``exhaustivity`` `.on`). The method returns once
  /// the action is reduced and its effects have had a chance to start; it does not wait for them
  /// (use ``TestStoreTask/finish(timeout:fileID:file:line:column:)`` or
  /// ``finish(timeout:fileID:file:line:column:)`` for that).
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - updateStateToExpectedResult: Turns the state before the action into the expected state
  ///     after it.
  ///   - fileID: The file of the assertion.
  ///   - filePath: The file path of the assertion.
  ///   - line: The line of the assertion.
  ///   - column: The column of the assertion.
  /// - Returns: A task for the effects the action started, to await or cancel.
  @discardableResult
  nonisolated(nonsending) public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.begin(location)

    let (pending, before, after, task) = await _TestStoreContext.$sendLocation.withValue(location) {
      await self.store._testSend(action, runtime: self.runtime)
    }

    if !pending.isEmpty {
      switch self.exhaustivity {
      case .on:
        location.reportIssue(
          """
          Must handle \(_TestStoreMessages.count(pending.count, "received action")) before \
          sending an action: …

          Unhandled actions: \(_TestStoreMessages.dump(pending.map(\.action)))

          \(_TestStoreMessages.toFixReceivedActions)
          """)
      case .off(showSkippedAssertions: true):
        location.reportNote(
          """
          \(_TestStoreMessages.count(pending.count, "received action")) \
          \(pending.count == 1 ? "was" : "were") skipped: \
          \(_TestStoreMessages.dump(pending.map(\.action)))
          """)
      case .off(showSkippedAssertions: false):
        break
      }
    }

    self.checkState(
      previous: before, actual: after, update: updateStateToExpectedResult, location: location)
    self.state = after

    let id = self.runtime.track(task, action: action, location: location)
    // Give the effects a chance to start (and effects cancelled by this action to finish), so
    // that tests need no manual yielding.
    await _settle(20)
    let runtime = self.runtime
    return TestStoreTask(
      rawValue: task, timeout: self.timeout,
      isRunning: { id.map(runtime.isRunning) ?? false })
  }
}
