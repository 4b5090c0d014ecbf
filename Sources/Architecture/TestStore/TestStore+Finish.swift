extension TestStore {
  /// Waits until every effect started by the test's sends has finished, failing the test if some
  /// are still running after the timeout.
  ///
  /// ```swift
  /// await store.send(.factButtonTapped) { $0.isLoading = true }
  /// await store.receive(\.factResponse) { … }
  /// await store.finish()
  /// ```
  ///
  /// - Parameters:
  ///   - timeout: How long to wait; the test store's ``timeout`` when `nil`.
  ///   - fileID: The file of the assertion.
  ///   - filePath: The file path of the assertion.
  ///   - line: The line of the assertion.
  ///   - column: The column of the assertion.
  nonisolated(nonsending) public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = _SourceLocation(
        fileID: fileID, filePath: filePath, line: line, column: column, owner: self.owner)
    self.begin(location)
    let runtime = self.runtime
    await self.settle()
    // Actions received and not asserted are reported here first, as TCA does (and again when
    // the test store ends, if they are still not asserted).
    let received = runtime.receivedActions
    if !received.isEmpty {
      switch self.exhaustivity {
      case .on: location.reportIssue(_TestStoreMessages.receivedUnexpected(received))
      case .off(showSkippedAssertions: true):
        location.reportNote(_TestStoreMessages.skipped(received))
      case .off(showSkippedAssertions: false): break
      }
    }
    await _expectFinished(
      timeout: timeout ?? self.timeout, at: location, executor: self.executor.thread,
      until: { runtime.runningEffects.isEmpty },
      message: { duration in
        let origins = runtime.runningEffects.map { effect in
          "  • \(_TestStoreMessages.dump(effect.action)) sent at \(effect.location.fileID):"
            + "\(effect.location.line)"
        }
        return """
          Expected effects to finish, but there are still effects in-flight\
          \(_TestStoreMessages.after(duration)).

          \(origins.joined(separator: "\n"))

          \(_TestStoreMessages.effectsInFlight(timeoutWasExplicit: timeout != nil))
          """
      })
  }

  /// Skips the actions effects have fed back and not yet been received, taking the state after
  /// the last of them as the new state.
  ///
  /// ```swift
  /// await store.send(.task)
  /// await store.skipReceivedActions()
  /// ```
  ///
  /// - Parameters:
  ///   - strict: Whether to fail the test when there is nothing to skip.
  ///   - fileID: The file of the assertion.
  ///   - filePath: The file path of the assertion.
  ///   - line: The line of the assertion.
  ///   - column: The column of the assertion.
  nonisolated(nonsending) public func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = await self.beginSkipping(
      _SourceLocation(
        fileID: fileID, filePath: filePath, line: line, column: column, owner: self.owner))
    let received = self.runtime.takeReceived()
    guard let last = received.last else {
      if strict { location.reportIssue("There were no received actions to skip.") }
      return
    }
    if case .off(showSkippedAssertions: true) = self.exhaustivity {
      location.reportNote(_TestStoreMessages.skipped(received.map(\.action)))
    }
    self.state = last.state
    self.runtime.sharedChanges.commit(upTo: last.index)
  }

  /// Cancels the effects still running, so that the test need not assert on them.
  ///
  /// ```swift
  /// await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = true }
  /// await store.skipInFlightEffects()
  /// ```
  ///
  /// - Parameters:
  ///   - strict: Whether to fail the test when no effect is running.
  ///   - fileID: The file of the assertion.
  ///   - filePath: The file path of the assertion.
  ///   - line: The line of the assertion.
  ///   - column: The column of the assertion.
  nonisolated(nonsending) public func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = await self.beginSkipping(
      _SourceLocation(
        fileID: fileID, filePath: filePath, line: line, column: column, owner: self.owner))
    let running = self.runtime.runningEffects
    guard !running.isEmpty else {
      if strict { location.reportIssue("There were no in-flight effects to skip.") }
      return
    }
    if case .off(showSkippedAssertions: true) = self.exhaustivity {
      location.reportNote(_TestStoreMessages.skippedEffects(running.map(\.action)))
    }
    self.runtime.forget(running)
    for effect in running {
      effect.task.cancel()
      await effect.task.group?.wait()
    }
    await self.settle()
  }

  /// Starts a `skip…` assertion: records its location, then lets effects deliver what they are
  /// about to, so that what is skipped does not depend on the machine's speed.
  nonisolated(nonsending) private func beginSkipping(
    _ location: _SourceLocation
  ) async -> _SourceLocation {
    self.begin(location)
    await self.settle()
    return location
  }
}
