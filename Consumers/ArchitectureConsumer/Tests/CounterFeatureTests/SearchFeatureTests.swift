import Architecture
import CounterFeature
import Foundation
import Testing

/// The search, tested with schedulers and `expectNoDifference` as a TCA app's tests are.
@MainActor
@Suite struct SearchFeatureTests {
  @Test func typingIsDebouncedOnTheMainQueue() async {
    let mainQueue = DispatchQueue.test
    let store = TestStore(initialState: SearchFeature.State()) {
      SearchFeature()
    } withDependencies: {
      $0.mainQueue = mainQueue.eraseToAnyScheduler()
      $0.mainRunLoop = RunLoop.test.eraseToAnyScheduler()
    }

    await store.send(.queryChanged("c")) {
      $0.query = "c"
    }
    await mainQueue.advance(by: .milliseconds(100))
    await store.send(.queryChanged("ca")) {
      $0.query = "ca"
    }
    await mainQueue.advance(by: .milliseconds(300))
    await store.receive(\.search) {
      $0.searches = [.init(query: "ca", date: Date(timeIntervalSince1970: 0))]
    }
    expectNoDifference(store.state.searches.map(\.query), ["ca"])
  }

  @Test func anImmediateQueueSearchesAtOnce() async {
    let store = TestStore(initialState: SearchFeature.State()) {
      SearchFeature()
    } withDependencies: {
      $0.mainQueue = .immediate
      $0.mainRunLoop = .immediate
    }
    store.exhaustivity = .off

    await store.send(.queryChanged("cat"))
    await store.receive(\.search)
    expectNoDifference(store.state.searches.map(\.query), ["cat"])
  }

  @Test func aDifferenceIsReportedWithTheDiffOfBothValues() {
    withKnownIssue {
      expectNoDifference(SearchFeature.State().query, "dog")
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("(First: −, Second: +)") }
    }
  }
}
