extension TestStore {
  /// Asserts the state as it is now, without sending an action: for changes a test could not
  /// assert at a `send` or `receive`, such as shared state mutated by an effect, or the outcome
  /// of a non-exhaustive run.
  ///
  /// ```swift
  /// store.exhaustivity = .off
  /// await store.send(\.destination.addContact.saveButtonTapped)
  /// await store.skipReceivedActions()
  /// store.assert {
  ///   $0.contacts = [Contact(id: UUID(0), name: "Blob Jr.")]
  ///   $0.destination = nil
  /// }
  /// ```
  ///
  /// "Now" is the state after the last action the store reduced, including actions fed back by
  /// effects and not yet received. With ``exhaustivity`` `.on`, the closure turns the state as
  /// of the last assertion into exactly that state; with `.off` it is applied to it. A closure
  /// that changes nothing is not a failure here. When no received action is waiting, the
  /// asserted state becomes the test store's ``state``.
  ///
  /// - Parameters:
  ///   - updateStateToExpectedResult: Turns the state as of the last assertion into the state
  ///     expected now.
  ///   - fileID: The file of the assertion.
  ///   - filePath: The file path of the assertion.
  ///   - line: The line of the assertion.
  ///   - column: The column of the assertion.
  public func assert(
    _ updateStateToExpectedResult: (_ state: inout State) throws -> Void,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = _SourceLocation(
        fileID: fileID, filePath: filePath, line: line, column: column, owner: self.owner)
    self.begin(location)
    let actual = self.runtime.latest?.state ?? self.state
    // "Now" includes the changes effects made to shared state since the last reduce.
    let index = self.runtime.sharedChanges.reduceCount + 1
    // The closure does not escape `checkState`, which only calls it.
    withoutActuallyEscaping(updateStateToExpectedResult) { update in
      self.checkState(
        previous: self.state, actual: actual, index: index, update: update,
        reportsUnchangedState: false, location: location)
    }
    if !self.runtime.hasReceived { self.state = actual }
  }

  /// Runs synchronous assertions with another ``exhaustivity``, then restores it.
  ///
  /// ```swift
  /// store.withExhaustivity(.off) {
  ///   store.assert { $0.count = 1 }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - exhaustivity: How strictly to check during `operation`.
  ///   - operation: The assertions.
  /// - Returns: What `operation` returns.
  /// - Throws: What `operation` throws.
  @discardableResult
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity,
    operation: () throws -> R
  ) rethrows -> R {
    let saved = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = saved }
    return try operation()
  }

  /// Runs assertions with another ``exhaustivity``, then restores it.
  ///
  /// ```swift
  /// await store.withExhaustivity(.off) {
  ///   await store.send(\.path[id: 1].record.onTask)
  ///   await store.receive(\.path.popFrom)
  /// }
  /// await store.send(.refresh) { $0.isLoading = true }   // exhaustive again
  /// ```
  ///
  /// - Parameters:
  ///   - exhaustivity: How strictly to check during `operation`, for example `.off` or
  ///     `.off(showSkippedAssertions: true)`.
  ///   - operation: The assertions.
  /// - Returns: What `operation` returns.
  /// - Throws: What `operation` throws.
  @discardableResult
  nonisolated(nonsending) public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity,
    operation: () async throws -> R
  ) async rethrows -> R {
    let saved = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = saved }
    return try await operation()
  }
}
