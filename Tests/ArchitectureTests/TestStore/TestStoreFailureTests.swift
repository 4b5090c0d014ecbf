import Architecture
import Foundation
import Synchronization
import Testing

/// Each failure mode of the test store really fails the test, with TCA's message, at the right
/// line: every test expects exactly the issue it provokes (`withKnownIssue` fails when the
/// expected issue is not recorded, and records any other issue as a real failure).
@Suite struct TestStoreFailureTests {
  @Test func stateMismatchShowsADiff() async {
    await expectTestStoreIssue(
      """
      A state change does not match expectation.

            TestStoreFeature.State(
          −   count: 2,
          +   count: 1,
              items: [],
              message: nil
            )

      (Expected: −, Actual: +)
      """,
    ) { line in
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      line.next()
      await store.send(.increment) { $0.count = 2 }
    }
  }

  @Test func unexpectedStateChangeWithoutClosure() async {
    await expectTestStoreIssue(
      """
      State was not expected to change, but a change occurred.

            TestStoreFeature.State(
          −   count: 0,
          +   count: 1,
              items: [],
              message: nil
            )

      (Expected: −, Actual: +)
      """,
    ) { line in
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      line.next()
      await store.send(.increment)
    }
  }

  @Test func closureThatChangesNothing() async {
    await expectTestStoreIssue(
      """
      Expected state to change, but no change occurred.

      The trailing closure made no observable modifications to state. If no change to state is \
      expected, omit the trailing closure.
      """,
    ) { line in
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      line.next()
      await store.send(.noop) { $0.count = 0 }
    }
  }

  @Test func closureThatThrows() async {
    await expectTestStoreIssue("Threw error: TestStoreFeatureError()") { line in
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      line.next()
      await store.send(.increment) { _ in throw TestStoreFeatureError() }
    }
  }

  @Test func sendingBeforeReceivingFails() async {
    await expectTestStoreIssue(
      """
      Must handle 2 received actions before sending an action.

      Unhandled actions: [
        [0]: .response(1),
        [1]: .response(2)
      ]
      """,
    ) { line in
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      await store.send(.sendTwo)
      line.next()
      await store.send(.increment) { $0.count = 3 }
    }
  }

  @Test func receivingTheWrongActionShowsADiff() async {
    await expectTestStoreIssue(
      """
      Received unexpected action before this one:

          − TestStoreFeature.Action.response(2)
          + TestStoreFeature.Action.response(1)

      (Expected: −, Received: +)
      """,
    ) { line in
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      await store.send(.sendTwo)
      line.next()
      await store.receive(.response(2)) { $0.count = 2 }
      await store.skipReceivedActions()
    }
  }

  @Test func receivingTheWrongCase() async {
    await expectTestStoreIssue(
      """
      Received unexpected action:

        TestStoreFeature.Action.response(1)
      """,
    ) { line in
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      await store.send(.sendTwo)
      line.next()
      await store.receive(\.fetched)
      await store.skipReceivedActions()
    }
  }

  @Test func receivingWithNothingInFlight() async {
    await expectTestStoreIssue(
      """
      Expected to receive the following action, but didn't:

        TestStoreFeature.Action.tick
      """,
    ) { line in
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      line.next()
      await store.receive(.tick)
    }
  }

  @Test func receiveTimesOutWhileEffectsRun() async {
    await expectTestStoreIssue(
      """
      Expected to receive an action, but received none after 0.1 seconds.

      There are effects in-flight. If the effect that delivers this action uses a \
      clock/scheduler (via "receive(on:)", "delay", "debounce", etc.), make sure that you wait \
      enough time for it to perform the effect. If you are using a test clock/scheduler, advance \
      it so that the effects may complete, or consider using an immediate clock/scheduler to \
      immediately perform the effect instead.

      If you are not yet using a clock/scheduler, or can not use a clock/scheduler, try \
      increasing the duration of this assertion's "timeout".
      """,
    ) { line in
      let clock = TestClock()
      let store = TestStore(initialState: TestStoreFeature.State()) {
        TestStoreFeature()
      } withDependencies: {
        $0.clock = clock
      }
      await store.send(.startTimer)
      line.next()
      await store.receive(\.tick, timeout: .milliseconds(100))
      await store.send(.stopTimer)
    }
  }

  @Test func unreceivedActionsAtTheEndAreReportedAtTheLastAssertion() async {
    await expectTestStoreIssue(
      """
      The store received 1 unexpected action.

        Unhandled actions:
          .response

      To fix, explicitly assert against these actions using "store.receive", skip these actions \
      by performing "await store.skipReceivedActions()", or consider using a non-exhaustive test \
      store: "store.exhaustivity = .off".
      """,
    ) { line in
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      await store.send(.sendTwo)
      line.next()
      await store.receive(.response(1)) { $0.count = 1 }
    }
  }

  @Test func effectsStillRunningAtTheEndAreReportedAtTheirSend() async {
    await expectTestStoreIssue(
      """
      An effect returned for this action is still running. It must complete before the end of \
      the test.

      To fix, inspect any effects the reducer returns for this action and ensure that all of \
      them complete by the end of the test. There are a few reasons why an effect may not have \
      completed:

      If using async/await in your effect, it may need a little bit of time to properly \
      finish. To fix you can simply perform "await store.finish()" at the end of your test.

      If an effect uses a clock (or scheduler, via "receive(on:)", "delay", "debounce", etc.), \
      make sure that you wait enough time for it to perform the effect. If you are using a test \
      clock/scheduler, advance it so that the effects may complete, or consider using an \
      immediate clock/scheduler to immediately perform the effect instead.

      If you are returning a long-living effect (timers, notifications, subjects, etc.), then \
      make sure those effects are torn down by marking the effect ".cancellable" and returning a \
      corresponding cancellation effect ("Effect.cancel") from another action, or, if your \
      effect is driven by a Combine subject, send it a completion.

      If you do not wish to assert on these effects, perform "await \
      store.skipInFlightEffects()", or consider using a non-exhaustive test store: \
      "store.exhaustivity = .off".
      """,
    ) { line in
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      line.next()
      await store.send(.neverEnding)
      await store.send(.increment) { $0.count = 1 }
    }
  }

  @Test func finishTimesOut() async {
    let sendLine = TestStoreIssueLine()
    await expectTestStoreIssue(
      {
        """
        Expected effects to finish, but there are still effects in-flight after 0.05 seconds.

          • TestStoreFeature.Action.neverEnding sent at ArchitectureTests/TestStoreFailureTests.swift:\(sendLine.value)

        There are effects in-flight. If the effect that delivers this action uses a \
        clock/scheduler (via "receive(on:)", "delay", "debounce", etc.), make sure that you wait \
        enough time for it to perform the effect. If you are using a test clock/scheduler, advance \
        it so that the effects may complete, or consider using an immediate clock/scheduler to \
        immediately perform the effect instead.

        If you are not yet using a clock/scheduler, or can not use a clock/scheduler, try \
        increasing the duration of this assertion's "timeout".
        """
      },
    ) { line in
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      sendLine.next()
      let task = await store.send(.neverEnding)
      line.next()
      await store.finish(timeout: .milliseconds(50))
      await task.cancel()
    }
  }

  @Test func testStoreTaskFinishTimesOut() async {
    await expectTestStoreIssue(
      prefix: "Expected task to finish, but it is still in-flight after 0.05 seconds.\n\n",
      containing: "try increasing the duration of this assertion's \"timeout\"."
    ) { line in
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      let task = await store.send(.neverEnding)
      line.next()
      await task.finish(timeout: .milliseconds(50))
      await task.cancel()
    }
  }

  @Test func skippingNothingIsStrict() async {
    await expectTestStoreIssue("There were no received actions to skip.") { line in
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      line.next()
      await store.skipReceivedActions()
    }
    await expectTestStoreIssue("There were no in-flight effects to skip.") { line in
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      line.next()
      await store.skipInFlightEffects()
    }
  }

  @Test func actionForAMissingElementFailsInsteadOfCrashing() async {
    let id = UUID(uuidString: "DEADBEEF-0000-0000-0000-000000000000")!
    await expectTestStoreIssue(
      prefix: "A \"forEach\" at \"ArchitectureTests/TestFeatures.swift:",
      containing: "received an action for a missing element.",
    ) { line in
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      line.next()
      await store.send(.item(.element(id: id, action: .toggle)))
    }
  }

  @Test func unimplementedClockFailsTheTestAtTheSend() async {
    await expectTestStoreIssue(
      "Unimplemented: @Dependency(\\.clock) was used in a test context. Override it with a"
        + " TestClock.",
    ) { line in
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      line.next()
      await store.send(.sleepOnClock)
      await store.finish()
    }
  }

  @Test func dependencyWithoutTestValueFailsTheTest() async {
    await expectTestStoreIssue(
      "@Dependency(LiveOnlyKey) has no test implementation and was accessed in a test context;"
        + " its live value is used. Override it with withDependencies or give the key a"
        + " testValue."
    ) { line in
      let store = TestStore(initialState: 0) {
        Reduce<Int, Bool> { state, _ in
          @Dependency(\.liveOnly) var liveOnly
          state = liveOnly
          return .none
        }
      }
      line.next()
      await store.send(true) { $0 = 42 }
    }
  }

  @Test func modifyingADependencyWithoutTestValueInWithDependenciesIsNoFailure() async {
    // Read to be modified (`$0.liveOnly += 1`), as a test gives it a test implementation.
    let store = TestStore(initialState: 0) {
      Reduce<Int, Bool> { state, _ in
        @Dependency(\.liveOnly) var liveOnly
        state = liveOnly
        return .none
      }
    } withDependencies: {
      $0.liveOnly += 1
    }
    await store.send(true) { $0 = 43 }
    withDependencies {
      $0.liveOnly += 1
    } operation: {
      @Dependency(\.liveOnly) var liveOnly
      #expect(liveOnly == 43)
    }
  }

  @Test func unhandledEffectErrorFailsTheTestAtItsSend() async {
    await expectTestStoreIssue(
      prefix: #"An "Effect.run" returned from "ArchitectureTests/TestFeatures.swift:"#,
      containing: """
        threw an unhandled error.

            TestStoreFeatureError()

        All non-cancellation errors must be explicitly handled via the "catch" parameter on \
        "Effect.run", or via a "do" block.
        """,
    ) { line in
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      line.next()
      await store.send(.throwUnhandled)
      await store.finish()
    }
  }

  @Test func nonExhaustiveStillChecksAssertedFields() async {
    await expectTestStoreIssue(
      """
      A state change does not match expectation.

            TestStoreFeature.State(
          −   count: 10,
          +   count: 1,
              items: [],
              message: nil
            )

      (Expected: −, Actual: +)
      """,
    ) { line in
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      store.exhaustivity = .off
      line.next()
      await store.send(.increment) { $0.count = 10 }
    }
  }

  @Test func nonExhaustiveReceiveFailsWhenNothingMatches() async {
    await expectTestStoreIssue(
      "Expected to receive an action matching case path, but didn't get one."
    ) { line in
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      store.exhaustivity = .off
      await store.send(.sendTwo)
      line.next()
      await store.receive(\.fetched)
    }
  }
}

private enum LiveOnlyKey: DependencyKey {
  static let liveValue = 42
}

extension DependencyValues {
  fileprivate var liveOnly: Int {
    get { self[LiveOnlyKey.self] }
    set { self[LiveOnlyKey.self] = newValue }
  }
}

/// The line where a test expects an issue, marked from inside the test body.
final class TestStoreIssueLine: Sendable {
  private let line = Mutex(0)

  /// The marked line (0 when none is marked, meaning "any line").
  var value: Int { self.line.withLock { $0 } }

  /// Marks the line after the call as the one where the issue is expected.
  func next(_ line: Int = #line) {
    self.line.withLock { $0 = line + 1 }
  }
}

/// Runs `body` expecting exactly one issue with this message, at the line `body` marks.
func expectTestStoreIssue(
  _ message: String,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: (TestStoreIssueLine) async -> Void
) async {
  await expectTestStoreIssue({ message }, sourceLocation: sourceLocation, body)
}

/// As above, with a message built once the body has run.
func expectTestStoreIssue(
  _ message: @escaping @Sendable () -> String,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: (TestStoreIssueLine) async -> Void
) async {
  let line = TestStoreIssueLine()
  await withKnownIssue(sourceLocation: sourceLocation) {
    await body(line)
  } matching: { issue in
    issue.comments.map(\.rawValue) == [message()]
      && (line.value == 0 || issue.sourceLocation?.line == line.value)
  }
}

/// Runs `body` expecting one issue whose message has a prefix and contains a text.
func expectTestStoreIssue(
  prefix: String,
  containing text: String,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: (TestStoreIssueLine) async -> Void
) async {
  let line = TestStoreIssueLine()
  await withKnownIssue(sourceLocation: sourceLocation) {
    await body(line)
  } matching: { issue in
    guard let message = issue.comments.first?.rawValue else { return false }
    return message.hasPrefix(prefix) && message.contains(text)
      && issue.sourceLocation?.line == line.value
  }
}
