import Testing

@testable import Architecture

/// A feature that closes itself, as a presented screen does in TCA.
private struct Closing: Reducer {
  struct State: Equatable {
    var isSaving = false
  }

  enum Action: Equatable {
    case saveTapped
    case cancelTapped
    case listen
  }

  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .saveTapped:
      state.isSaving = true
      return .run { _ in await self.dismiss() }
    case .cancelTapped:
      return .none
    case .listen:
      return .run { _ in try await Task.never() }
    }
  }
}

/// `TestStore.isDismissed`: a feature at the root of a test store that dismisses itself.
@Suite struct TestStoreDismissTests {
  @Test func dismissingEndsTheEffectsStillRunning() async {
    let store = TestStore(initialState: Closing.State()) { Closing() }
    let listening = await store.send(.listen)
    await store.send(.saveTapped) { $0.isSaving = true }
    #expect(store.isDismissed)
    // Nothing is left running at the end of the test: no "still running" failure.
    await listening.finish()
    #expect(listening.isCancelled)
  }

  @Test func aFeatureThatDismissesItselfDismissesTheTestStore() async {
    let store = TestStore(initialState: Closing.State()) { Closing() }
    #expect(!store.isDismissed)
    await store.send(.saveTapped) { $0.isSaving = true }
    #expect(store.isDismissed)
  }

  @Test func sendingToADismissedTestStoreFailsTheTest() async {
    let store = TestStore(initialState: Closing.State()) { Closing() }
    await store.send(.saveTapped) { $0.isSaving = true }
    await withKnownIssue {
      await store.send(.cancelTapped)
    } matching: { issue in
      issue.comments.first?.rawValue.hasPrefix("Can't send action to dismissed test store.")
        == true
    }
  }
}
