import Testing

@testable import Architecture

/// An editor that closes itself with an animation, returning `EffectOf<Self>`.
private struct Editor: Reducer {
  struct State: Equatable, Sendable { var text = "" }
  enum Action: Equatable, Sendable, CasePathable {
    case saveTapped
    case cancelTapped
    struct AllCasePaths {}
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> EffectOf<Self> {
    switch action {
    case .saveTapped:
      return .run { _ in await self.dismiss(animation: .default) }
    case .cancelTapped:
      return .run { _ in await self.dismiss(transaction: Transaction(animation: .easeOut)) }
    }
  }
}

/// A destination enum as a `@Reducer enum Destination` is written without macros.
private struct Destination: CaseReducer {
  enum State: CaseReducerState, Equatable, Sendable, CasePathable {
    typealias StateReducer = Destination
    case editor(Editor.State)
    case alert(AlertState<Never>)

    struct AllCasePaths {
      var editor: AnyCasePath<State, Editor.State> {
        .init(State.editor) { if case .editor(let v) = $0 { v } else { nil } }
      }
      var alert: AnyCasePath<State, AlertState<Never>> {
        .init(State.alert) { if case .alert(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  enum Action: Equatable, Sendable, CasePathable {
    case editor(Editor.Action)

    struct AllCasePaths {
      var editor: AnyCasePath<Action, Editor.Action> {
        .init(Action.editor) { if case .editor(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.editor, action: \.editor) { Editor() }
  }
}

/// A parent that presents the destination, with `{ Destination.body }` or without a closure.
private struct Launcher: Reducer {
  struct State: Equatable, Sendable {
    @Presents var destination: Destination.State?
  }
  enum Action: Equatable, Sendable, CasePathable {
    case destination(PresentationAction<Destination.Action>)
    struct AllCasePaths {
      var destination: AnyCasePath<Action, PresentationAction<Destination.Action>> {
        .init(Action.destination) { if case .destination(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  let withClosure: Bool

  var body: some ReducerOf<Self> {
    if self.withClosure {
      EmptyReducer().ifLet(\.$destination, action: \.destination) { Destination.body }
    } else {
      EmptyReducer().ifLet(\.$destination, action: \.destination)
    }
  }
}

/// API that real apps' reducers and tests use beyond TCA's own tests: `dismiss(animation:)`,
/// `EffectOf`, `Optional` case paths and enum destinations presented both ways.
@Suite struct AppPortingTests {
  @Test(arguments: [true, false])
  func anEnumDestinationIsPresentedAndDismissesItselfWithAnAnimation(withClosure: Bool) async {
    let store = TestStore(
      initialState: Launcher.State(destination: .editor(Editor.State(text: "Hi")))
    ) { Launcher(withClosure: withClosure) }
    await store.send(.destination(.presented(.editor(.saveTapped))))
    await store.receive(\.destination.dismiss) { $0.destination = nil }
  }

  @Test func aDismissalInATransactionDismissesToo() async {
    let store = TestStore(
      initialState: Launcher.State(destination: .editor(Editor.State()))
    ) { Launcher(withClosure: false) }
    await store.send(.destination(.presented(.editor(.cancelTapped))))
    await store.receive(\.destination.dismiss) { $0.destination = nil }
  }

  @Test func optionalCasePathsReachThroughPresentedState() {
    var state = Launcher.State(destination: .alert(AlertState { TextState("Deleted") }))
    #expect(state.destination.is(\.some.alert))
    #expect(!state.destination.is(\.some.editor))
    #expect(!state.destination.is(\.none))
    state.destination = .editor(Editor.State(text: "a"))
    #expect(state.destination[case: \.some.editor]?.text == "a")
    state.destination[case: \.some.editor]?.text = "b"
    #expect(state.destination == .editor(Editor.State(text: "b")))
    state.destination = nil
    #expect(state.destination.is(\.none))
    #expect(!state.destination.is(\.some))
  }

  @Test func anOptionalCaseKeyPathEmbedsAndExtracts() {
    let path = AnyCasePath<Int?, Int>(\.some)
    #expect(path.extract(from: 3) == 3)
    #expect(path.extract(from: nil) == nil)
    #expect(path.embed(4) == Optional(4))
  }
}
