import Testing

@testable import Architecture

/// A destination enum spelled out as TCA's `@Reducer enum Destination` expands: a counter to
/// edit, or an alert.
private struct Destination: CaseReducer {
  enum State: CaseReducerState, Equatable, Sendable, CasePathable {
    typealias StateReducer = Destination
    case counter(Counter.State)
    case alert(AlertState<Alert>)

    struct AllCasePaths {
      var counter: AnyCasePath<State, Counter.State> {
        .init(State.counter) { if case .counter(let v) = $0 { v } else { nil } }
      }
      var alert: AnyCasePath<State, AlertState<Alert>> {
        .init(State.alert) { if case .alert(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  enum Action: Equatable, Sendable, CasePathable {
    case counter(Counter.Action)
    case alert(Alert)

    struct AllCasePaths {
      var counter: AnyCasePath<Action, Counter.Action> {
        .init(Action.counter) { if case .counter(let v) = $0 { v } else { nil } }
      }
      var alert: AnyCasePath<Action, Alert> {
        .init(Action.alert) { if case .alert(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  enum Alert: Equatable, Sendable { case confirm }

  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: \.counter) { Counter() }
  }
}

/// A parent that presents a ``Destination`` and pushes ``Destination`` elements on a stack,
/// naming neither reducer at the call site (`ifLet`/`forEach` without a trailing closure).
private struct Navigator: Reducer {
  struct State: Equatable, Sendable {
    @Presents var destination: Destination.State?
    var path = StackState<Destination.State>()
    var confirmed = 0
  }

  enum Action: Equatable, Sendable, CasePathable {
    case destination(PresentationAction<Destination.Action>)
    case path(StackActionOf<Destination>)

    struct AllCasePaths {
      var destination: AnyCasePath<Action, PresentationAction<Destination.Action>> {
        .init(Action.destination) { if case .destination(let v) = $0 { v } else { nil } }
      }
      var path: AnyCasePath<Action, StackActionOf<Destination>> {
        .init(Action.path) { if case .path(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .destination(.presented(.alert(.confirm))) = action { state.confirmed += 1 }
      return .none
    }
    .ifLet(\.$destination, action: \.destination)
    .forEach(\.path, action: \.path)
  }
}

/// `CaseReducer`: destination enums whose reducer the parent's `ifLet` and `forEach` find from
/// the state, and the stack's `[id:case:]` subscript.
@Suite struct CaseReducerTests {
  @Test func ifLetRunsTheDestinationEnumsReducer() async {
    let store = TestStore(
      initialState: Navigator.State(destination: .counter(Counter.State()))
    ) { Navigator() }
    await store.send(\.destination.counter.increment) {
      $0.destination?.modify(\.counter) { $0.count = 1 }
    }
  }

  @Test func anAlertCaseOfTheDestinationIsDismissedByItsButtons() async {
    let store = TestStore(
      initialState: Navigator.State(destination: .alert(AlertState { TextState("Sure?") }))
    ) { Navigator() }
    await store.send(\.destination.alert, .confirm) {
      $0.confirmed = 1
      $0.destination = nil
    }
  }

  @Test func forEachRunsTheStackElementsReducer() async {
    let store = TestStore(
      initialState: Navigator.State(path: StackState([.counter(Counter.State())]))
    ) { Navigator() }
    await store.send(\.path[id: 0].counter.increment) {
      $0.path[id: 0, case: \.counter]?.count = 1
    }
    await store.send(\.path.popFrom, 0) {
      $0.path = StackState()
    }
  }

  @Test func stackElementsAreReadAndChangedThroughTheirCase() {
    var path = StackState<Destination.State>([
      .counter(Counter.State(count: 1)), .alert(AlertState { TextState("Sure?") }),
    ])
    #expect(path[id: 0, case: \.counter]?.count == 1)
    #expect(path[id: 1, case: \.counter] == nil)
    #expect(path[id: 7, case: \.counter] == nil)
    path[id: 0, case: \.counter]?.count += 1
    #expect(path[id: 0] == .counter(Counter.State(count: 2)))
    // A nil write removes the element, as `path[id:] = nil` does.
    path[id: 0, case: \.counter] = nil
    #expect(path.ids == [1])
  }

  @Test func writingAStackElementThroughAnotherCaseIsReported() {
    var path = StackState<Destination.State>([.alert(AlertState { TextState("Sure?") })])
    withKnownIssue {
      path[id: 0, case: \.counter] = Counter.State(count: 5)
    } matching: { issue in
      issue.comments.contains { $0.rawValue == #"Can't modify unrelated case "alert""# }
    }
    #expect(path[id: 0] == .alert(AlertState { TextState("Sure?") }))
  }
}
