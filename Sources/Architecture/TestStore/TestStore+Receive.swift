extension TestStore where Action: Equatable {
  /// Asserts that an effect fed an action back into the store, and how it changed the state.
  ///
  /// ```swift
  /// await store.send(.factButtonTapped) { $0.isLoading = true }
  /// await store.receive(.factResponse("0 is a good number.")) {
  ///   $0.isLoading = false
  ///   $0.fact = "0 is a good number."
  /// }
  /// ```
  ///
  /// Waits up to `timeout` for the action. With ``exhaustivity`` `.on` the next received action
  /// must be this one; with `.off`, earlier received actions are skipped.
  ///
  /// - Parameters:
  ///   - expectedAction: The action expected from an effect.
  ///   - timeout: How long to wait; the test store's ``timeout`` when `nil`.
  ///   - updateStateToExpectedResult: Turns the state before the action into the expected state
  ///     after it.
  ///   - fileID: The file of the assertion.
  ///   - filePath: The file path of the assertion.
  ///   - line: The line of the assertion.
  ///   - column: The column of the assertion.
  nonisolated(nonsending) public func receive(
    _ expectedAction: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await self.receiveAction(
      matching: { $0 == expectedAction }, .equal(to: expectedAction), timeout: timeout,
      update: updateStateToExpectedResult,
      location: _SourceLocation(
        fileID: fileID, filePath: filePath, line: line, column: column, owner: self.owner))
  }
}

extension TestStore {
  /// Asserts that an effect fed back an action of a given case, and how it changed the state,
  /// without asserting on the action's payload.
  ///
  /// ```swift
  /// await clock.advance(by: .seconds(1))
  /// await store.receive(\.timerTick) {
  ///   $0.count = 1
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - actionCase: A case key path of the action, such as `\.timerTick` or
  ///     `\.todos[id: id].toggleCompleted`.
  ///   - timeout: How long to wait; the test store's ``timeout`` when `nil`.
  ///   - updateStateToExpectedResult: Turns the state before the action into the expected state
  ///     after it.
  ///   - fileID: The file of the assertion.
  ///   - filePath: The file path of the assertion.
  ///   - line: The line of the assertion.
  ///   - column: The column of the assertion.
  nonisolated(nonsending) public func receive<Value>(
    _ actionCase: CaseKeyPath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let casePath = AnyCasePath(actionCase)
    await self.receiveAction(
      matching: { casePath.extract(from: $0) != nil }, .case, timeout: timeout,
      update: updateStateToExpectedResult,
      location: _SourceLocation(
        fileID: fileID, filePath: filePath, line: line, column: column, owner: self.owner))
  }

  /// Asserts that an effect fed back an action of a given case with a given payload, and how it
  /// changed the state.
  ///
  /// ```swift
  /// await store.receive(\.factResponse, "0 is a good number.") {
  ///   $0.fact = "0 is a good number."
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - actionCase: A case key path of the action.
  ///   - expectedValue: The payload expected in that case.
  ///   - timeout: How long to wait; the test store's ``timeout`` when `nil`.
  ///   - updateStateToExpectedResult: Turns the state before the action into the expected state
  ///     after it.
  ///   - fileID: The file of the assertion.
  ///   - filePath: The file path of the assertion.
  ///   - line: The line of the assertion.
  ///   - column: The column of the assertion.
  nonisolated(nonsending) public func receive<Value: Equatable>(
    _ actionCase: CaseKeyPath<Action, Value>,
    _ expectedValue: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let casePath = AnyCasePath(actionCase)
    await self.receiveAction(
      matching: { casePath.extract(from: $0) == expectedValue },
      .case(casePath, value: expectedValue), timeout: timeout,
      update: updateStateToExpectedResult,
      location: _SourceLocation(
        fileID: fileID, filePath: filePath, line: line, column: column, owner: self.owner))
  }

  /// Asserts that an effect fed back an action matching a predicate, and how it changed the
  /// state.
  ///
  /// ```swift
  /// await store.receive({ if case .factResponse = $0 { true } else { false } }) {
  ///   $0.isLoading = false
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - isMatching: Whether a received action is the expected one.
  ///   - timeout: How long to wait; the test store's ``timeout`` when `nil`.
  ///   - updateStateToExpectedResult: Turns the state before the action into the expected state
  ///     after it.
  ///   - fileID: The file of the assertion.
  ///   - filePath: The file path of the assertion.
  ///   - line: The line of the assertion.
  ///   - column: The column of the assertion.
  nonisolated(nonsending) public func receive(
    _ isMatching: (_ action: Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await self.receiveAction(
      matching: isMatching, .predicate, timeout: timeout, update: updateStateToExpectedResult,
      location: _SourceLocation(
        fileID: fileID, filePath: filePath, line: line, column: column, owner: self.owner))
  }

  nonisolated(nonsending) private func receiveAction(
    matching predicate: (Action) -> Bool,
    _ expectation: _ReceiveExpectation<Action>,
    timeout: Duration?,
    update: ((inout State) throws -> Void)?,
    location: _SourceLocation
  ) async {
    self.begin(location)
    guard
      await self.waitForReceivedAction(
        matching: predicate, failureMessage: expectation.failureMessage, timeout: timeout,
        location: location)
    else { return }

    switch self.exhaustivity {
    case .on:
      guard let received = self.runtime.popFirstReceived() else { return }
      if predicate(received.action) {
        self.checkState(
          previous: self.state, actual: received.state, index: received.index, update: update,
          location: location)
      } else {
        let later = self.runtime.receivedContains(where: predicate)
        location.reportIssue(
          """
          Received unexpected action\(later ? " before this one" : ""):

          \(expectation.describeUnexpected(received.action))
          """)
      }
      self.state = received.state

    case .off(let showSkippedAssertions):
      var skipped: [Action] = []
      while let received = self.runtime.popFirstReceived() {
        if predicate(received.action) {
          if showSkippedAssertions && !skipped.isEmpty {
            location.reportNote(_TestStoreMessages.skipped(skipped))
          }
          self.checkState(
            previous: self.state, actual: received.state, index: received.index, update: update,
            location: location)
          self.state = received.state
          break
        }
        skipped.append(received.action)
        self.state = received.state
      }
    }
    await self.settle()
  }

  /// Waits until an action to receive is there: any action when exhaustive, a matching one when
  /// not. Reports the failure and returns `false` when none comes.
  nonisolated(nonsending) private func waitForReceivedAction(
    matching predicate: (Action) -> Bool,
    failureMessage: String,
    timeout: Duration?,
    location: _SourceLocation
  ) async -> Bool {
    let isExhaustive = self.exhaustivity == .on
    let runtime = self.runtime
    func isReady() -> Bool {
      isExhaustive ? runtime.hasReceived : runtime.receivedContains(where: predicate)
    }
    if isReady() { return true }
    // Everything the effects can do now has been done: an action that has not come cannot come
    // unless an effect is still running (waiting on something outside the test store).
    await self.settle()
    if isReady() { return true }
    if runtime.runningEffects.isEmpty {
      location.reportIssue(failureMessage)
      return false
    }
    let duration = timeout ?? self.timeout
    // Stop early when nothing is left that could deliver the action. An effect's task ends only
    // after the store has reduced every action it sent, so once none runs the verdict is final.
    _ = await _poll(timeout: duration, executor: self.executor.thread) {
      isReady() || runtime.runningEffects.isEmpty
    }
    if isReady() { return true }
    if runtime.runningEffects.isEmpty {
      location.reportIssue(failureMessage)
      return false
    }
    let expected = isExhaustive ? "an action" : "a matching action"
    let advice =
      runtime.runningEffects.isEmpty
      ? _TestStoreMessages.noEffectsToDeliver
      : _TestStoreMessages.effectsInFlight(timeoutWasExplicit: timeout != nil)
    location.reportIssue(
      """
      Expected to receive \(expected), but received none\(_TestStoreMessages.after(duration)).

      \(advice)
      """)
    return false
  }
}

/// What a `receive` says when the action it expects does not come, or another one comes first.
private struct _ReceiveExpectation<Action> {
  let failureMessage: String
  let describeUnexpected: (Action) -> String

  /// Expecting an action equal to `expected`.
  static func equal(to expected: Action) -> Self where Action: Equatable {
    Self(
      failureMessage: """
        Expected to receive the following action, but didn't:

        \(_TestStoreMessages.dump(expected, indent: 2))
        """,
      describeUnexpected: { _TestStoreMessages.diff(expected, $0, actualLabel: "Received") })
  }

  /// Expecting an action of a case, whatever its payload.
  static var `case`: Self {
    Self(
      failureMessage: "Expected to receive an action matching case path, but didn't get one.",
      describeUnexpected: { _TestStoreMessages.dump($0, indent: 2) })
  }

  /// Expecting an action of a case with a given payload.
  static func `case`<Value: Equatable>(
    _ casePath: AnyCasePath<Action, Value>, value expected: Value
  ) -> Self {
    Self(
      failureMessage: "Expected to receive an action matching case path, but didn't get one.",
      describeUnexpected: { received in
        guard casePath.extract(from: received) != nil else {
          return _TestStoreMessages.dump(received, indent: 2)
        }
        return _TestStoreMessages.diff(casePath.embed(expected), received, indent: 2)
      })
  }

  /// Expecting an action that matches a predicate.
  static var predicate: Self {
    Self(
      failureMessage: "Expected to receive an action matching predicate, but didn't get one.",
      describeUnexpected: { _TestStoreMessages.dump($0, indent: 2) })
  }
}
