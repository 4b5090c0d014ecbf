import Testing

@testable import Architecture

private enum SalutationKey: DependencyKey {
  static let liveValue = "Hello"
  static let testValue = "Test"
}

extension DependencyValues {
  fileprivate var salutation: String {
    get { self[SalutationKey.self] }
    set { self[SalutationKey.self] = newValue }
  }
}

/// Greets from an effect, with the salutation dependency read inside the effect.
private struct Greeter: Reducer {
  struct State: Equatable, Sendable { var greeting = "" }
  enum Action: Equatable, Sendable, CasePathable {
    case greetButtonTapped
    case greeted(String)

    struct AllCasePaths {
      var greeted: AnyCasePath<Action, String> {
        .init(Action.greeted) { if case .greeted(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  @Dependency(\.salutation) var salutation

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .greetButtonTapped:
      return .run { send in await send(.greeted(self.salutation + "!")) }
    case .greeted(let greeting):
      state.greeting = greeting
      return .none
    }
  }
}

/// Two greeters: one with the dependency overridden by the `dependency` modifier, one reduced
/// by hand inside `withDependencies`.
private struct Greeters: Reducer {
  struct State: Equatable, Sendable {
    var formal = Greeter.State()
    var casual = Greeter.State()
    var own = Greeter.State()
  }
  enum Action: Equatable, Sendable, CasePathable {
    case formal(Greeter.Action)
    case casual(Greeter.Action)
    case own(Greeter.Action)

    struct AllCasePaths {
      var formal: AnyCasePath<Action, Greeter.Action> {
        .init(Action.formal) { if case .formal(let v) = $0 { v } else { nil } }
      }
      var casual: AnyCasePath<Action, Greeter.Action> {
        .init(Action.casual) { if case .casual(let v) = $0 { v } else { nil } }
      }
      var own: AnyCasePath<Action, Greeter.Action> {
        .init(Action.own) { if case .own(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.formal, action: \.formal) {
      Greeter()
        .dependency(\.salutation, "Good morning")
    }
    Reduce { state, action in
      guard case .casual(let action) = action else { return .none }
      return withDependencies {
        $0.salutation = "Hi"
      } operation: {
        Greeter().reduce(into: &state.casual, action: action)
      }
      .map(Action.casual)
    }
    Scope(state: \.own, action: \.own) { Greeter() }
  }
}

/// Effects run with the dependencies in force where the reducer created them.
@Suite struct EffectDependencyTests {
  @Test func theDependencyModifierAppliesToTheChildsEffects() async {
    let store = TestStore(initialState: Greeters.State()) { Greeters() }
    await store.send(.formal(.greetButtonTapped))
    await store.receive(\.formal.greeted, "Good morning!") {
      $0.formal.greeting = "Good morning!"
    }
  }

  @Test func withDependenciesAroundAChildsReduceAppliesToItsEffects() async {
    let store = TestStore(initialState: Greeters.State()) { Greeters() }
    await store.send(.casual(.greetButtonTapped))
    await store.receive(\.casual.greeted, "Hi!") {
      $0.casual.greeting = "Hi!"
    }
  }

  @Test func otherChildrenKeepTheStoresValues() async {
    let store = TestStore(initialState: Greeters.State()) {
      Greeters()
    } withDependencies: {
      $0.salutation = "Hey"
    }
    await store.send(.own(.greetButtonTapped))
    await store.receive(\.own.greeted, "Hey!") { $0.own.greeting = "Hey!" }
    // The modifier wins over the store's value for its child.
    await store.send(.formal(.greetButtonTapped))
    await store.receive(\.formal.greeted, "Good morning!") {
      $0.formal.greeting = "Good morning!"
    }
  }

  @Test func aTestStoresMidTestOverrideReachesTheReducerAndItsEffects() async {
    let store = TestStore(initialState: Greeters.State()) { Greeters() }
    store.dependencies.salutation = "Yo"
    await store.send(.own(.greetButtonTapped))
    await store.receive(\.own.greeted, "Yo!") { $0.own.greeting = "Yo!" }
  }

  @Test func aPlainStoreRunsChildEffectsWithTheOverride() async {
    let store = StoreActor(initialState: Greeters.State()) { Greeters() }
    await store.send(.formal(.greetButtonTapped)).finish()
    await store.send(.own(.greetButtonTapped)).finish()
    #expect(await store.state.formal.greeting == "Good morning!")
    #expect(await store.state.own.greeting == "Test!")
  }
}
