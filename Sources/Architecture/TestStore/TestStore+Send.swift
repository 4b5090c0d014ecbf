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
  /// the action is reduced and its effects have run as far as they can without the test: to
  /// their end, or to where they wait (a ``TestClock`` sleep, a long-living stream); see
  /// "Determinism" on ``TestStore``. To wait for effects that wait on real time or I/O, use
  /// ``receive(_:timeout:assert:fileID:file:line:column:)``,
  /// ``TestStoreTask/finish(timeout:fileID:file:line:column:)`` or
  /// ``finish(timeout:fileID:file:line:column:)``.
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
    await self.sendAction(
      action, update: updateStateToExpectedResult,
      location: _SourceLocation(
        fileID: fileID, filePath: filePath, line: line, column: column, owner: self.owner))
  }

  /// Sends the action of a case without a payload, named by its case key path, and asserts how
  /// the state changes.
  ///
  /// ```swift
  /// await store.send(\.destination.alert.confirmDeletion) {
  ///   $0.destination = nil
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - action: A case key path to a case without a payload.
  ///   - updateStateToExpectedResult: Turns the state before the action into the expected state
  ///     after it.
  ///   - fileID: The file of the assertion.
  ///   - filePath: The file path of the assertion.
  ///   - line: The line of the assertion.
  ///   - column: The column of the assertion.
  /// - Returns: A task for the effects the action started, to await or cancel.
  @discardableResult
  nonisolated(nonsending) public func send(
    _ action: CaseKeyPath<Action, Void>,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await self.sendAction(
      AnyCasePath(action).embed(()), update: updateStateToExpectedResult,
      location: _SourceLocation(
        fileID: fileID, filePath: filePath, line: line, column: column, owner: self.owner))
  }

  /// Sends the action of a case with a payload, named by its case key path, and asserts how the
  /// state changes.
  ///
  /// ```swift
  /// await store.send(\.destination.addContact.setName, "Blob Jr.") {
  ///   $0.destination?.addContact?.contact.name = "Blob Jr."
  /// }
  /// await store.send(\.binding.text, "Hello")   // a `BindableAction`'s binding
  /// ```
  ///
  /// - Parameters:
  ///   - action: A case key path to a case.
  ///   - value: The payload to embed in that case.
  ///   - updateStateToExpectedResult: Turns the state before the action into the expected state
  ///     after it.
  ///   - fileID: The file of the assertion.
  ///   - filePath: The file path of the assertion.
  ///   - line: The line of the assertion.
  ///   - column: The column of the assertion.
  /// - Returns: A task for the effects the action started, to await or cancel.
  @discardableResult
  nonisolated(nonsending) public func send<Value>(
    _ action: CaseKeyPath<Action, Value>,
    _ value: Value,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await self.sendAction(
      AnyCasePath(action).embed(value), update: updateStateToExpectedResult,
      location: _SourceLocation(
        fileID: fileID, filePath: filePath, line: line, column: column, owner: self.owner))
  }

  nonisolated(nonsending) private func sendAction(
    _ action: Action,
    update: ((inout State) throws -> Void)?,
    location: _SourceLocation
  ) async -> TestStoreTask {
    self.begin(location)
    if self.isDismissed {
      // As in TCA, the action is not sent: the feature is gone.
      location.reportIssue(_TestStoreMessages.sendToDismissedStore)
      let effects: any _TrackedEffects = self.runtime
      return TestStoreTask(
        rawValue: StoreTask(nil), timeout: self.timeout, executor: self.executor.thread,
        effectsAreSerial: self.useMainSerialExecutor, owner: self.owner,
        isRunning: { _ = effects; return false })
    }

    let sent = _UncheckedSendable(action)
    let result = await _TestStoreContext.$sendLocation.withValue(location) {
      await self.store._testSend(sent, runtime: self.runtime)
    }.value

    if !result.pending.isEmpty {
      let pending = result.pending.map(\.action)
      switch self.exhaustivity {
      case .on:
        location.reportIssue(_TestStoreMessages.mustHandle(pending))
      case .off(showSkippedAssertions: true):
        location.reportNote(_TestStoreMessages.skipped(pending))
      case .off(showSkippedAssertions: false):
        break
      }
    }

    self.checkState(
      previous: result.before, actual: result.after, index: result.index, update: update,
      location: location)
    self.state = result.after

    // Let the effects run as far as they can (and effects cancelled by this action finish), so
    // that tests need no manual yielding.
    await self.settle()
    let id = self.runtime.track(result.task, action: action, location: location)
    // Through the non-generic protocol, so the closure captures no `State` or `Action` type.
    let effects: any _TrackedEffects = self.runtime
    return TestStoreTask(
      rawValue: result.task, timeout: self.timeout,
      executor: self.executor.thread, effectsAreSerial: self.useMainSerialExecutor,
      owner: self.owner, isRunning: { id.map(effects.isRunning) ?? false })
  }
}
