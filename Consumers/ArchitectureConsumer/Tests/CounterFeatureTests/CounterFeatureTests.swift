import Architecture
import CounterFeature
import Testing

/// The counter, tested with Swift Testing as TCA's "Testing your feature" tutorial does.
@MainActor
@Suite struct CounterFeatureTests {
  @Test func incrementingAndDecrementingChangeTheCount() async {
    let store = TestStore(initialState: CounterFeature.State()) {
      CounterFeature()
    }

    await store.send(.incrementButtonTapped) {
      $0.count = 1
    }
    await store.send(.decrementButtonTapped) {
      $0.count = 0
    }
  }

  @Test func theTimerTicksEverySecondUntilStopped() async {
    let clock = TestClock()
    let store = TestStore(initialState: CounterFeature.State()) {
      CounterFeature()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.toggleTimerButtonTapped) {
      $0.isTimerRunning = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick) {
      $0.count = 1
    }
    await store.send(.toggleTimerButtonTapped) {
      $0.isTimerRunning = false
    }
  }

  @Test func theFactComesFromTheNumberFactDependency() async {
    let store = TestStore(initialState: CounterFeature.State()) {
      CounterFeature()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) is a good number." }
    }

    await store.send(.factButtonTapped) {
      $0.isLoading = true
    }
    await store.receive(\.factResponse, timeout: .seconds(1)) {
      $0.isLoading = false
      $0.fact = "0 is a good number."
    }
  }

  /// A deliberately wrong expectation: the test store records it as a Swift Testing issue, at
  /// the line of the `send`, which `withKnownIssue` expects (it fails the test if no issue is
  /// recorded).
  @Test func aWrongExpectationIsRecordedAsAnIssue() async {
    let store = TestStore(initialState: CounterFeature.State()) {
      CounterFeature()
    }

    let sendLine = #line + 2
    await withKnownIssue {
      await store.send(.incrementButtonTapped) {
        $0.count = 2
      }
    } matching: { issue in
      issue.comments.first?.rawValue.hasPrefix("A state change does not match expectation") == true
        && issue.sourceLocation?.fileName == "CounterFeatureTests.swift"
        && issue.sourceLocation?.line == sendLine
    }
  }
}
