import Testing

@testable import Architecture

/// A child that closes itself when saved, after an effect, as TCA's presented features do.
private struct Editor: Reducer {
  struct State: Equatable, Sendable {
    var title = ""
    var isSaving = false
  }
  enum Action: Equatable, Sendable {
    case saveButtonTapped
    case titleChanged(String)
  }

  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .saveButtonTapped:
      state.isSaving = true
      return .run { _ in await self.dismiss() }
    case .titleChanged(let title):
      state.title = title
      return .none
    }
  }
}

/// A list that presents an editor in a sheet and pushes editors on a stack.
private struct Library: Reducer {
  struct State: Equatable, Sendable {
    @Presents var editor: Editor.State?
    var path = StackState<Editor.State>()
    var saved: [String] = []
  }
  enum Action: Equatable, Sendable, CasePathable {
    case addButtonTapped
    case editor(PresentationAction<Editor.Action>)
    case path(StackActionOf<Editor>)

    struct AllCasePaths {
      var editor: AnyCasePath<Action, PresentationAction<Editor.Action>> {
        .init(Action.editor) { if case .editor(let v) = $0 { v } else { nil } }
      }
      var path: AnyCasePath<Action, StackActionOf<Editor>> {
        .init(Action.path) { if case .path(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        state.editor = Editor.State()
        return .none
      case .editor(.dismiss):
        // The parent sees the dismissal before the state goes away.
        if let title = state.editor?.title { state.saved.append(title) }
        return .none
      case .path(.popFrom(let id)):
        if let title = state.path[id: id]?.title { state.saved.append(title) }
        return .none
      case .editor, .path:
        return .none
      }
    }
    .ifLet(\.$editor, action: \.editor) { Editor() }
    .forEach(\.path, action: \.path) { Editor() }
  }
}

/// `@Dependency(\.dismiss)` dismisses the presented feature or stack element that calls it.
@Suite struct DismissEffectTests {
  @Test func aPresentedChildDismissesItself() async {
    let store = TestStore(initialState: Library.State()) { Library() }
    await store.send(.addButtonTapped) { $0.editor = Editor.State() }
    await store.send(.editor(.presented(.titleChanged("Milk")))) { $0.editor?.title = "Milk" }
    await store.send(.editor(.presented(.saveButtonTapped))) { $0.editor?.isSaving = true }
    await store.receive(\.editor.dismiss) {
      $0.editor = nil
      $0.saved = ["Milk"]
    }
  }

  @Test func aStackElementPopsItself() async {
    let store = TestStore(
      initialState: Library.State(
        path: StackState([Editor.State(title: "A"), Editor.State(title: "B")]))
    ) {
      Library()
    }
    await store.send(.path(.element(id: 1, action: .saveButtonTapped))) {
      $0.path[id: 1]?.isSaving = true
    }
    await store.receive(\.path.popFrom, 1) {
      $0.path.pop(from: 1)
      $0.saved = ["B"]
    }
    #expect(store.state.path.ids == [0])
  }

  @Test func theInnermostPresentationIsTheOneDismissed() async {
    // The bottom element of the stack dismisses itself while another element sits above it:
    // the pop is of its own id (and everything above), not of the top.
    let store = TestStore(
      initialState: Library.State(
        path: StackState([Editor.State(title: "A"), Editor.State(title: "B")]))
    ) {
      Library()
    }
    await store.send(.path(.element(id: 0, action: .saveButtonTapped))) {
      $0.path[id: 0]?.isSaving = true
    }
    await store.receive(\.path.popFrom, 0) {
      $0.path.removeAll()
      $0.saved = ["A"]
    }
  }

  @Test func aFeatureTestedOnItsOwnUsesTheOverride() async {
    let isDismissed = LockIsolated(false)
    let store = TestStore(initialState: Editor.State()) {
      Editor()
    } withDependencies: {
      $0.dismiss = DismissEffect { isDismissed.setValue(true) }
    }
    await store.send(.saveButtonTapped) { $0.isSaving = true }
    await store.finish()
    #expect(isDismissed.value)
  }
}
