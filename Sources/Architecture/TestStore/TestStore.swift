/// A store for tests: sends actions to a feature and makes the test assert, exhaustively, how
/// its state changes, which actions its effects feed back, and that its effects finish.
///
/// ```swift
/// @Test func timer() async {
///   let clock = TestClock()
///   let store = TestStore(initialState: Counter.State()) {
///     Counter()
///   } withDependencies: {
///     $0.clock = clock
///   }
///
///   await store.send(.toggleTimerButtonTapped) {
///     $0.isTimerRunning = true
///   }
///   await clock.advance(by: .seconds(1))
///   await store.receive(\.timerTick) {
///     $0.count = 1
///   }
///   await store.send(.toggleTimerButtonTapped) {
///     $0.isTimerRunning = false
///   }
/// }
/// ```
///
/// ## What fails a test
///
/// With ``exhaustivity`` `.on` (the default), each of these is a test failure, reported at the
/// line of the assertion it concerns:
///
/// - a `send` or `receive` whose trailing closure does not turn the state before the action into
///   exactly the state after it (the message shows a line diff, `−` expected, `+` actual), or
///   a closure that changes nothing;
/// - a `send` while actions fed back by effects have not been received;
/// - a `receive` that gets a different action, or none within its timeout;
/// - at the end of the test (when the test store is deinitialized): actions received but not
///   asserted (at the last assertion), effects still running (at the `send` that started
///   them), which are then cancelled, and changes to ``Shared`` state never asserted;
/// - a runtime warning raised while the test store runs the feature: an action for a missing
///   `forEach` element, a presentation action with nothing presented, an error an effect threw
///   without a `catch:`, and a dependency used with no test implementation. It is reported at
///   the `send` whose action (or whose effects, or the actions they fed back) raised it.
///
/// ## Shared state
///
/// ``Shared`` values are asserted like any other state, although they are references: the
/// closure changes the expected value (`$0.$count.withLock { $0 = 1 }`), not the live one, and
/// each assertion sees shared values as they were right after the action it checks. A test's
/// own `@Shared` with the same key as the feature's is the same reference.
///
/// ## Dependencies
///
/// The feature runs in the test context (`DependencyValues.context == .test`): dependencies
/// that are not overridden resolve to their `testValue`. For the built-in ones that means
/// ``UUIDGenerator/incrementing`` for `uuid` (counting from 0 for each test store), and an
/// "unimplemented" `clock`/`continuousClock`/`date` that fail the test when used. A key without a
/// `testValue` fails the test when used (its live value then runs). Override what the feature
/// needs in `withDependencies`, or later through ``dependencies``.
///
/// Failures reach Swift Testing (`Issue.record`, at the asserting line, so `withKnownIssue`
/// can match them) or XCTest (`XCTFail`), whichever runs the test. The Architecture library
/// links neither: it finds them at run time, so a test target needs only the `Architecture`
/// product.
///
/// ## Isolation
///
/// `State` must be `Equatable` (to compare expectations); neither `State` nor `Action` needs to
/// be `Sendable`, as in TCA. A test store is not `Sendable`: create and use it in one test. Its
/// async methods run on the caller's isolation (`nonisolated(nonsending)`), so it works from
/// `@MainActor` tests and from nonisolated ones alike. The feature runs in a real ``Store`` (an
/// actor), exactly as in the app; actions and states cross between it and the test as values
/// (a copy is handed over and the giver keeps no access to it), which is why they need not be
/// `Sendable`. Keep `State` a value type, as TCA requires for its equality-based assertions:
/// a class instance mutated in place would be shared between those copies.
///
/// ## Determinism
///
/// The feature's store and its effects run serially on an executor that belongs to the test
/// store (see ``useMainSerialExecutor``), and every assertion first waits until that executor
/// is idle: until each effect has run as far as it can, to its end or to a suspension on
/// something outside the feature (a ``TestClock`` that has not been advanced, a real timer,
/// I/O). So `send` returns with the effects it started already waiting where they wait, and a
/// `receive` that cannot succeed fails at once instead of after a timeout. Only work that
/// leaves the test store's executor — real time, I/O, `Task {}` created inside an effect, the
/// main actor — is waited for by polling, up to ``timeout``.
public final class TestStore<State: Equatable, Action> {
  /// How strictly the test store checks the feature (`.on` by default).
  public var exhaustivity: Exhaustivity = .on

  /// How long `receive` waits for an action and `finish` for effects, unless given a timeout
  /// (5 seconds by default: TCA waits 1 second, but a passing test never waits the full time,
  /// and a parallel test run on a small shared machine can delay an effect's task that long).
  public var timeout: Duration = .seconds(5)

  /// The state as of the last assertion: the state after the last action sent or received.
  public internal(set) var state: State

  /// Whether the feature's effects run serially on the test store's executor (`true`, the
  /// default), so that the test store knows exactly when they have done all they can.
  ///
  /// TCA's name for the same guarantee. TCA gets it by moving every task of the process onto the
  /// main thread while a test store lives (swift-concurrency-extras' `withMainSerialExecutor`);
  /// this test store instead runs its store and effects on a serial executor of its own (their
  /// tasks prefer it, SE-0417), which leaves tests running in parallel in the same process
  /// untouched. Set it to `false`, before sending the actions concerned, to run effects on the
  /// global concurrent executor, as a feature does in an app; the test store then waits for them
  /// by yielding, which cannot tell for certain when they are done (see ``TestClock``).
  ///
  /// ```swift
  /// let store = TestStore(initialState: Feature.State()) { Feature() }
  /// store.useMainSerialExecutor = false   // the effects below run concurrently
  /// ```
  public var useMainSerialExecutor: Bool = true {
    didSet {
      self.store.core.root.registry.taskExecutor =
        self.useMainSerialExecutor ? self.executor : nil
    }
  }

  /// The dependencies the feature runs with. Changes apply to the actions sent afterwards and to
  /// the effects they start.
  ///
  /// ```swift
  /// store.dependencies.numberFact.fetch = { "\($0) is a good number." }
  /// ```
  public var dependencies: DependencyValues {
    get { self.runtime.dependencies }
    set { self.runtime.dependencies = newValue }
  }

  let store: StoreActor<State, Action>
  /// The serial executor the store and (with ``useMainSerialExecutor``) its effects run on.
  let executor: _TestStoreExecutor
  let runtime: _TestStoreRuntime<State, Action>
  let assertionLocation: _AssertionLocation
  /// The test this store belongs to: its failures are that test's, wherever they are reported
  /// from (see `_ExpectedFailures`).
  let owner: UInt64
  /// Whether the feature dismissed itself (see ``isDismissed``).
  let dismissal: _TestStoreDismissal
  /// Where the last assertion was made (unreceived actions at the end are reported there).
  var lastLocation: _SourceLocation

  /// Creates a test store for a feature.
  ///
  /// ```swift
  /// let store = TestStore(initialState: Todos.State()) {
  ///   Todos()
  /// } withDependencies: {
  ///   $0.uuid = .incrementing
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - initialState: The state to start from (computed with the test's dependencies).
  ///   - reducer: The feature's reducer.
  ///   - prepareDependencies: Overrides dependencies for the feature and its effects. It runs
  ///     after the test store's own setup (test context, runtime warnings as test failures), so
  ///     it can replace that too.
  ///   - fileID: The file of the test, for failures not tied to an assertion.
  ///   - filePath: The file path of the test.
  ///   - line: The line of the test store's creation.
  ///   - column: The column of the test store's creation.
  public init<R: Reducer>(
    initialState: @autoclosure () -> R.State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where R.State == State, R.Action == Action {
    let owner = _IssueOwner.current
    let location = _SourceLocation(
      fileID: fileID, filePath: filePath, line: line, column: column, owner: owner)
    let assertionLocation = _AssertionLocation(location)
    var dependencies = DependencyValues.current
    dependencies.context = .test
    dependencies.runtimeWarnings = RuntimeWarningReporter { message in
      (_TestStoreContext.sendLocation ?? assertionLocation.current).reportIssue(message)
    }
    // The feature shares state in the test's sharing scope (so that a `@Shared` the test
    // declares is the feature's), from whichever task its code runs in; its changes to shared
    // state are recorded for the assertions.
    dependencies[_SharedRegistryKey.self] = _SharedRegistry.resolve(in: dependencies)
    let sharedChanges = _SharedChangeTracker()
    dependencies[_SharedChangeTrackerKey.self] = sharedChanges
    // The feature dismissing itself at the root (`@Dependency(\.dismiss)`) dismisses the test
    // store, as in TCA; presented and stack children dismiss themselves as usual.
    let dismissal = _TestStoreDismissal()
    dependencies.dismiss = DismissEffect { dismissal.dismiss() }
    DependencyValues.$_isSetting.withValue(true) { prepareDependencies(&dependencies) }
    dependencies.prepareForStore()
    let runtime = _TestStoreRuntime<State, Action>(
      dependencies: dependencies, sharedChanges: sharedChanges)
    weak let tracked: (any _TrackedEffects)? = runtime
    dismissal.onDismiss { tracked?.cancelRunningEffects() }
    let initialState = DependencyValues.$current.withValue(dependencies) { initialState() }
    // Handed over to the store, which alone calls it from then on (on its executor).
    let base = _UncheckedSendable(
      DependencyValues.$current.withValue(dependencies) { reducer()._makeReduce() })

    self.state = initialState
    self.runtime = runtime
    self.dismissal = dismissal
    self.assertionLocation = assertionLocation
    self.owner = owner
    self.lastLocation = location
    let executor = _TestStoreExecutor()
    self.executor = executor
    // The store gets its own copy of the initial state; the test keeps `self.state`.
    let storeState = _UncheckedSendable(initialState)
    self.store = StoreActor(
      initialState: storeState.value,
      reducer: { _TestReducer(base: base.value, runtime: runtime) },
      withDependencies: { $0 = dependencies },
      executor: executor
    )
    self.store.core.root.registry.taskExecutor = executor
  }

  deinit {
    let received = self.runtime.takeReceived()
    let running = self.runtime.runningEffects
    if self.exhaustivity == .on {
      if !received.isEmpty {
        self.lastLocation.reportIssue(
          _TestStoreMessages.receivedUnexpected(received.map(\.action)))
      }
      for effect in running {
        effect.location.reportIssue(_TestStoreMessages.effectStillRunning)
      }
      for change in self.runtime.sharedChanges.uncommittedChanges() {
        self.lastLocation.reportIssue(
          _TestStoreMessages.unassertedSharedChange(
            change.name, before: change.before, after: change.after))
      }
    } else if case .off(showSkippedAssertions: true) = self.exhaustivity {
      if !received.isEmpty {
        self.lastLocation.reportNote(_TestStoreMessages.skipped(received.map(\.action)))
      }
      for effect in running {
        effect.location.reportNote(
          "Skipped assertions.\n\n\(_TestStoreMessages.effectStillRunning)")
      }
    }
    self.runtime.forget(running)
    for effect in running { effect.task.cancel() }
  }

  /// Waits until the feature has done everything it can do now: until the test store's executor
  /// is idle (exact), after yielding to effects on the global executor when they run there.
  nonisolated(nonsending) func settle() async {
    await _settle(self.executor.thread, effectsAreSerial: self.useMainSerialExecutor)
  }

  /// Records the location of the assertion now running.
  func begin(_ location: _SourceLocation) {
    self.assertionLocation.current = location
    self.lastLocation = location
  }

  /// Checks the state an action produced against the test's expectation, as TCA does: applied to
  /// the state before the action when exhaustive, to the actual state when not.
  ///
  /// Shared state is checked as of the reduce that produced `actual` (see
  /// `_SharedChangeTracker`): the closure changes the expected shared values, not the live ones,
  /// and the values as of that reduce become the base of the next assertion.
  ///
  /// - Parameters:
  ///   - previous: The state as of the last assertion.
  ///   - actual: The state the reduce produced.
  ///   - index: The index of that reduce.
  ///   - update: The test's closure.
  ///   - reportsUnchangedState: Whether a closure that changes nothing is a failure (it is for
  ///     `send` and `receive`, not for `assert`).
  ///   - location: Where failures are reported.
  func checkState(
    previous: State,
    actual: State,
    index: Int,
    update: ((inout State) throws -> Void)?,
    reportsUnchangedState: Bool = true,
    location: _SourceLocation
  ) {
    let sharedChanges = self.runtime.sharedChanges
    // With shared changes, a closure may only change shared values, which `expected` and
    // `previous` (holding the same references) cannot show: no "no change" failure then, as in
    // TCA.
    let reportsUnchangedState =
      reportsUnchangedState && update != nil && !sharedChanges.hasChanges(upTo: index)
    if self.exhaustivity != .on {
      // Non-exhaustive: the closure describes the actual state, shared values included.
      sharedChanges.commit(upTo: index)
    }
    _SharedTesting.$view.withValue(.expected(sharedChanges, after: index)) {
      self.compare(
        previous: previous, actual: actual, update: update,
        reportsUnchangedState: reportsUnchangedState, location: location)
    }
    sharedChanges.commit(upTo: index)
  }

  private func compare(
    previous: State,
    actual: State,
    update: ((inout State) throws -> Void)?,
    reportsUnchangedState: Bool,
    location: _SourceLocation
  ) {
    func expectation(from state: State) -> State? {
      var state = state
      guard let update else { return state }
      do {
        // A non-exhaustive expectation describes the state as it is: `XCTModify` may leave a
        // value unchanged there, as in TCA.
        try _XCTModifyContext.$isExhaustive.withValue(self.exhaustivity == .on) {
          try DependencyValues.$current.withValue(self.runtime.dependencies) {
            try update(&state)
          }
        }
      } catch {
        location.reportIssue("Threw error: \(error)")
        return nil
      }
      return state
    }

    func reportMismatch(_ expected: State, asNote: Bool = false) {
      let headline =
        update != nil ? _TestStoreMessages.stateMismatch : _TestStoreMessages.unexpectedStateChange
      let message = "\(headline).\n\n\(_TestStoreMessages.diff(expected, actual))"
      if asNote {
        location.reportNote("Skipped assertions.\n\n\(message)")
      } else {
        location.reportIssue(message)
      }
    }

    switch self.exhaustivity {
    case .on:
      guard let expected = expectation(from: previous) else { return }
      if expected != actual {
        reportMismatch(expected)
      } else if reportsUnchangedState && expected == previous {
        location.reportIssue(_TestStoreMessages.noStateChange)
      }

    case .off(let showSkippedAssertions):
      guard let expected = expectation(from: actual) else { return }
      if expected != actual {
        reportMismatch(expected)
      } else if showSkippedAssertions, let exhaustive = expectation(from: previous) {
        // What an exhaustive test store would have said, as notes: a non-exhaustive assertion
        // only fails when it contradicts the state (as in TCA, a closure that changes nothing
        // is no failure here).
        if exhaustive != actual {
          reportMismatch(exhaustive, asNote: true)
        } else if reportsUnchangedState && exhaustive == previous {
          location.reportNote("Skipped assertions.\n\n\(_TestStoreMessages.noStateChange)")
        }
      }
    }
  }
}

@available(*, unavailable, message: "A TestStore belongs to one test; do not share it.")
extension TestStore: Sendable {}

/// A test store of a feature: `TestStoreOf<Counter>` is
/// `TestStore<Counter.State, Counter.Action>`.
public typealias TestStoreOf<R: Reducer> = TestStore<R.State, R.Action> where R.State: Equatable
