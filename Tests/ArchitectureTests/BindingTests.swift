import Architecture
import Testing

/// A settings form, written as TCA's binding case studies are (minus SwiftUI).
struct SettingsForm: Reducer {
  struct State: Equatable {
    var displayName = ""
    var notificationsOn = false
    var saveCount = 0
  }

  enum Action: BindableAction, Equatable, CasePathable {
    case binding(BindingAction<State>)
    case resetButtonTapped
    case saveButtonTapped

    struct AllCasePaths {
      var binding: AnyCasePath<Action, BindingAction<State>> {
        .init(Action.binding) { if case .binding(let v) = $0 { v } else { nil } }
      }
      var resetButtonTapped: AnyCasePath<Action, Void> {
        .init(.resetButtonTapped) { if case .resetButtonTapped = $0 { true } else { false } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.displayName):
        // Runs after BindingReducer wrote the new name.
        state.displayName = String(state.displayName.prefix(8))
        return .none
      case .binding:
        return .none
      case .resetButtonTapped:
        return .run { send in await send(.binding(.set(\.displayName, "Anonymous"))) }
      case .saveButtonTapped:
        state.saveCount += 1
        return .none
      }
    }
  }
}

/// A search screen whose bindings are in its view actions, as TCA's `ViewAction` features have
/// them.
struct SearchScreen: Reducer {
  struct State: Equatable {
    var query = ""
    var appeared = false
  }

  enum Action: ViewAction, Equatable, CasePathable {
    case view(View)

    enum View: BindableAction, Equatable, CasePathable {
      case binding(BindingAction<State>)
      case onAppear

      // Implemented with a `switch` instead of the reflective default.
      var binding: BindingAction<State>? {
        if case .binding(let action) = self { action } else { nil }
      }

      struct AllCasePaths {
        var binding: AnyCasePath<View, BindingAction<State>> {
          .init(View.binding) { if case .binding(let v) = $0 { v } else { nil } }
        }
        var onAppear: AnyCasePath<View, Void> {
          .init(.onAppear) { if case .onAppear = $0 { true } else { false } }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    struct AllCasePaths {
      var view: AnyCasePath<Action, View> {
        .init(Action.view) { if case .view(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    BindingReducer(action: \.view)
    Reduce { state, action in
      switch action {
      case .view(.onAppear):
        state.appeared = true
        return .none
      case .view(.binding):
        return .none
      }
    }
  }
}

@Suite struct BindingTests {
  @Test func aBindingActionWritesItsField() async {
    let store = TestStore(initialState: SettingsForm.State()) { SettingsForm() }
    await store.send(.binding(.set(\.notificationsOn, true))) {
      $0.notificationsOn = true
    }
  }

  @Test func bindingsAreSentByCaseKeyPath() async {
    let store = TestStore(initialState: SettingsForm.State()) { SettingsForm() }
    await store.send(\.binding.displayName, "Blob") {
      $0.displayName = "Blob"
    }
    await store.send(\.binding.notificationsOn, true) {
      $0.notificationsOn = true
    }
  }

  @Test func theBindableActionShorthandSetsAField() async {
    let store = TestStore(initialState: SettingsForm.State()) { SettingsForm() }
    await store.send(.set(\.displayName, "Blob")) {
      $0.displayName = "Blob"
    }
  }

  @Test func aReducerMatchesABindingByItsKeyPathAfterTheFieldIsWritten() async {
    let store = TestStore(initialState: SettingsForm.State()) { SettingsForm() }
    await store.send(\.binding.displayName, "Blob Esquire") {
      $0.displayName = "Blob Esq"
    }
  }

  @Test func bindingsFedBackByEffectsAreReceivedByCaseKeyPath() async {
    let store = TestStore(initialState: SettingsForm.State(displayName: "Blob")) {
      SettingsForm()
    }
    await store.send(\.resetButtonTapped)
    await store.receive(\.binding.displayName, "Anonymous") {
      $0.displayName = "Anonymou"
    }
  }

  @Test func bindingActionsAreEqualForTheSameFieldAndValue() {
    typealias Binding = BindingAction<SettingsForm.State>
    #expect(Binding.set(\.displayName, "Blob") == .set(\.displayName, "Blob"))
    #expect(Binding.set(\.displayName, "Blob") != .set(\.displayName, "Blob Jr."))
    #expect(Binding.set(\.notificationsOn, true) != .set(\.displayName, "Blob"))
    let casePath = AnyCasePath(\Case<BindingAction<SettingsForm.State>>.displayName)
    #expect(casePath.extract(from: .set(\.displayName, "Blob")) == "Blob")
    #expect(casePath.extract(from: .set(\.notificationsOn, true)) == nil)
  }

  @Test func aFailureShowsTheFieldAndTheValueOfABinding() async {
    await expectTestStoreIssue(
      """
      Received unexpected action:

          − SettingsForm.Action.binding(.set(\\State.displayName, "Nobody"))
          + SettingsForm.Action.binding(.set(\\State.displayName, "Anonymous"))

      (Expected: −, Received: +)
      """
    ) { line in
      let store = TestStore(initialState: SettingsForm.State()) { SettingsForm() }
      await store.send(\.resetButtonTapped)
      line.next()
      await store.receive(.binding(.set(\.displayName, "Nobody")))
    }
  }

  @Test func viewActionsCarryBindingsForABindingReducerScopedToThem() async {
    let store = TestStore(initialState: SearchScreen.State()) { SearchScreen() }
    await store.send(.view(.onAppear)) {
      $0.appeared = true
    }
    await store.send(\.view.binding.query, "blob") {
      $0.query = "blob"
    }
    await store.send(.view(.set(\.query, "blob jr"))) {
      $0.query = "blob jr"
    }
    await store.send(\.view.onAppear)
  }
}
