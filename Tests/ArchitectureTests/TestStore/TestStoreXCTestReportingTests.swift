import Architecture
import XCTest

/// Proves that outside Swift Testing a test-store failure reaches XCTest through `XCTFail`
/// (looked up at run time), at the assertion's file and line.
///
/// swift-corelibs-xctest has no `XCTExpectFailure`, so this test case captures failures itself:
/// while `isCapturing` is set, `recordFailure` collects them instead of failing the test.
final class TestStoreXCTestReportingTests: XCTestCase {
  private var isCapturing = false
  private var captured: [(description: String, file: String, line: Int)] = []

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
    expected: Bool
  ) {
    if self.isCapturing {
      self.captured.append((description, filePath, lineNumber))
    } else {
      super.recordFailure(
        withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
  }

  func testStateMismatchIsReportedThroughXCTFail() async {
    self.isCapturing = true
    let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
    let line = #line + 1
    await store.send(.increment) { $0.count = 2 }
    self.isCapturing = false

    XCTAssertEqual(self.captured.count, 1)
    XCTAssertEqual(self.captured.first?.line, line)
    XCTAssertEqual(self.captured.first?.file, #filePath)
    XCTAssertEqual(
      self.captured.first?.description,
      """
      failed - A state change does not match expectation.

            TestStoreFeature.State(
          −   count: 2,
          +   count: 1,
              items: [],
              message: nil
            )

      (Expected: −, Actual: +)
      """)
  }

  func testEffectStillRunningIsReportedAtItsSend() async {
    self.isCapturing = true
    var line = 0
    do {
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      line = #line + 1
      await store.send(.neverEnding)
    }
    self.isCapturing = false

    XCTAssertEqual(self.captured.map(\.line), [line])
    XCTAssertTrue(
      self.captured.first?.description.hasPrefix(
        "failed - An effect returned for this action is still running.") ?? false)
  }

  func testPassingTestRecordsNothing() async {
    self.isCapturing = true
    let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
    await store.send(.sendTwo)
    await store.receive(.response(1)) { $0.count = 1 }
    await store.receive(.response(2)) { $0.count = 2 }
    self.isCapturing = false
    XCTAssertTrue(self.captured.isEmpty)
  }
}
