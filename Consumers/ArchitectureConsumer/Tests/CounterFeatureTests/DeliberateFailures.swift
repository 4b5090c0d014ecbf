import Architecture
import CounterFeature
import Foundation
import Testing
import XCTest

// Tests that must FAIL: each makes a wrong expectation outside `withKnownIssue`, to show that
// the test store's failure fails the test run. They run only when
// ARCHITECTURE_CONSUMER_DELIBERATE_FAILURES=1 (`Consumers/check.sh` runs them that way and
// checks the run's exit status and output); otherwise XCTest skips them and Swift Testing does
// not run them.

/// Whether the deliberately failing tests should run.
let deliberateFailuresEnabled =
  ProcessInfo.processInfo.environment["ARCHITECTURE_CONSUMER_DELIBERATE_FAILURES"] == "1"

final class DeliberateFailureXCTests: XCTestCase {
  @MainActor
  func testWrongExpectationFailsTheTest() async throws {
    try XCTSkipUnless(deliberateFailuresEnabled, "set ARCHITECTURE_CONSUMER_DELIBERATE_FAILURES=1")
    let store = TestStore(initialState: CounterFeature.State()) {
      CounterFeature()
    }

    await store.send(.incrementButtonTapped) {  // deliberately wrong (XCTest)
      $0.count = 2
    }
  }
}

@MainActor
@Suite struct DeliberateFailureTests {
  @Test(.enabled(if: deliberateFailuresEnabled))
  func wrongExpectationFailsTheTest() async {
    let store = TestStore(initialState: CounterFeature.State()) {
      CounterFeature()
    }

    await store.send(.incrementButtonTapped) {  // deliberately wrong (Swift Testing)
      $0.count = 2
    }
  }
}
