import Architecture
import CounterFeature
import XCTest

/// The counter, tested with XCTest as TCA's documentation did before Swift Testing.
final class CounterFeatureXCTests: XCTestCase {
  @MainActor
  func testBasics() async {
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

  @MainActor
  func testNumberFact() async {
    let store = TestStore(initialState: CounterFeature.State()) {
      CounterFeature()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) is a good number." }
    }

    await store.send(.incrementButtonTapped) {
      $0.count = 1
    }
    await store.send(.factButtonTapped) {
      $0.isLoading = true
    }
    await store.receive(\.factResponse, timeout: .seconds(1)) {
      $0.isLoading = false
      $0.fact = "1 is a good number."
    }
  }
}
