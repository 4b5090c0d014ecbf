import Architecture
import Foundation
import Testing

/// The test store's passing paths: each test also fails if the test store wrongly reports an
/// issue, since any issue recorded outside `withKnownIssue` fails it.
@Suite struct TestStoreTests {
  @Test func sendAssertsStateChanges() async {
    let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
    await store.send(.increment) { $0.count = 1 }
    await store.send(.increment) { $0.count = 2 }
    await store.send(.decrement) { $0.count = 1 }
    await store.send(.noop)
    #expect(store.state.count == 1)
  }

  @Test func receivesActionsFromSendEffectsInOrder() async {
    let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
    await store.send(.sendTwo)
    await store.receive(.response(1)) { $0.count = 1 }
    await store.receive(\.response, 2) { $0.count = 2 }
  }

  @Test func receivesActionsFromRunEffects() async {
    let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
    await store.send(.fetch)
    await store.receive(\.fetched) { $0.message = "test" }
    await store.finish()
  }

  @Test func receivesByPredicate() async {
    let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
    await store.send(.fetch)
    await store.receive({ if case .fetched = $0 { true } else { false } }) {
      $0.message = "test"
    }
  }

  @Test func overridesDependenciesAtCreation() async {
    let store = TestStore(initialState: TestStoreFeature.State()) {
      TestStoreFeature()
    } withDependencies: {
      $0.fetchMessage = { "overridden" }
    }
    await store.send(.fetch)
    await store.receive(.fetched("overridden")) { $0.message = "overridden" }
  }

  @Test func overridesDependenciesMidTest() async {
    let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
    await store.send(.fetch)
    await store.receive(.fetched("test")) { $0.message = "test" }
    store.dependencies.fetchMessage = { "changed" }
    await store.send(.fetch)
    await store.receive(.fetched("changed")) { $0.message = "changed" }
  }

  @Test func effectErrorsReachTheCatchHandler() async {
    let store = TestStore(initialState: TestStoreFeature.State()) {
      TestStoreFeature()
    } withDependencies: {
      $0.fetchMessage = { throw TestStoreFeatureError() }
    }
    await store.send(.fetch)
    await store.receive(.fetched("error: TestStoreFeatureError()")) {
      $0.message = "error: TestStoreFeatureError()"
    }
  }

  @Test func usesIncrementingUUIDsPerTestStore() async {
    for _ in 0..<2 {
      let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
      await store.send(.addItem) {
        $0.items.append(.init(id: UUID(uuidString: "00000000-0000-0000-0000-000000000000")!))
      }
      await store.send(.addItem) {
        $0.items.append(.init(id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!))
      }
    }
  }

  @Test func timerWithTestClock() async {
    let clock = TestClock()
    let store = TestStore(initialState: TestStoreFeature.State()) {
      TestStoreFeature()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.startTimer)
    await clock.advance(by: .seconds(1))
    await store.receive(\.tick) { $0.count = 1 }
    await clock.advance(by: .seconds(2))
    await store.receive(\.tick) { $0.count = 2 }
    await store.receive(\.tick) { $0.count = 3 }
    await store.send(.stopTimer)
  }

  @Test func receiveWaitsForSlowEffects() async {
    let store = TestStore(initialState: TestStoreFeature.State()) {
      TestStoreFeature()
    } withDependencies: {
      $0.fetchMessage = {
        try await Task.sleep(for: .milliseconds(100))
        return "slow"
      }
    }
    await store.send(.fetch)
    await store.receive(.fetched("slow"), timeout: .seconds(5)) { $0.message = "slow" }
  }

  @Test func finishWaitsForEffects() async {
    let store = TestStore(initialState: TestStoreFeature.State()) {
      TestStoreFeature()
    } withDependencies: {
      $0.fetchMessage = {
        try await Task.sleep(for: .milliseconds(50))
        return "slow"
      }
    }
    let task = await store.send(.fetch)
    await task.finish()
    await store.receive(.fetched("slow")) { $0.message = "slow" }
    await store.finish()
  }

  @Test func cancellingATestStoreTaskEndsItsEffects() async {
    let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
    let task = await store.send(.neverEnding)
    #expect(!task.isCancelled)
    await task.cancel()
    #expect(task.isCancelled)
  }

  @Test func skipReceivedActionsTakesTheirState() async {
    let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
    await store.send(.sendTwo)
    await store.skipReceivedActions()
    #expect(store.state.count == 2)
    await store.send(.increment) { $0.count = 3 }
  }

  @Test func skipInFlightEffectsCancelsThem() async {
    let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
    await store.send(.neverEnding)
    await store.skipInFlightEffects()
  }

  @Test func nonExhaustiveChecksOnlyWhatIsAsserted() async {
    let store = TestStore(initialState: TestStoreFeature.State(count: 5)) { TestStoreFeature() }
    store.exhaustivity = .off
    await store.send(.addItem)  // items changed, not asserted
    await store.send(.sendTwo)
    await store.receive(.response(2)) { $0.count = 2 }  // skips .response(1)
    await store.send(.increment) { $0.count = 3 }
    await store.send(.neverEnding)  // still running at the end: cancelled, not reported
  }

  @Test func nonExhaustiveSendSkipsPendingActions() async {
    let store = TestStore(initialState: TestStoreFeature.State()) { TestStoreFeature() }
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.sendTwo)
    await store.send(.increment) { $0.count = 3 }
  }
}
