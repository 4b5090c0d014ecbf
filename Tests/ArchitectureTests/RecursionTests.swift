import Foundation
import Testing

@testable import Architecture

/// A feature whose rows are the feature again, as in TCA's recursion case study: every row has a
/// name and rows of its own, to any depth.
private struct Nested: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: UUID
    var name = ""
    var rows: IdentifiedArrayOf<State> = []
  }

  enum Action: Equatable, Sendable, CasePathable {
    case addRowButtonTapped
    case nameTextFieldChanged(String)
    case onDelete(IndexSet)
    // `indirect`: the rows' actions hold this very action type.
    indirect case rows(IdentifiedActionOf<Nested>)

    struct AllCasePaths {
      var rows: AnyCasePath<Action, IdentifiedActionOf<Nested>> {
        .init(Action.rows) { if case .rows(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addRowButtonTapped:
        state.rows.append(State(id: self.uuid()))
        return .none
      case .nameTextFieldChanged(let name):
        state.name = name
        return .none
      case .onDelete(let offsets):
        state.rows.remove(atOffsets: offsets)
        return .none
      case .rows:
        return .none
      }
    }
    .forEach(\.rows, action: \.rows) { Self() }
  }
}

/// The same shape with the inner feature wrapped in modifiers, which build their base when they
/// are built: the recursion must still stop.
private struct NestedWithModifiers: Reducer {
  typealias State = Nested.State
  typealias Action = Nested.Action

  let printed: Collector

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .nameTextFieldChanged(let name) = action { state.name = name }
      return .none
    }
    .forEach(\.rows, action: \.rows) {
      Self(printed: self.printed)._printChanges(to: { self.printed.append($0) })
    }
  }
}

/// A presented copy of the feature inside the feature (a drill-down to any depth), with an
/// effect in each level so that cancellation is scoped level by level.
private struct Drill: Reducer {
  struct State: Equatable, Sendable {
    var depth = 0
    var ticks = 0
    @Presents var child: State?
  }

  enum Action: Equatable, Sendable, CasePathable {
    case child(PresentationAction<Action>)
    case drillButtonTapped
    case startTicking
    case tick

    struct AllCasePaths {
      var child: AnyCasePath<Action, PresentationAction<Action>> {
        .init(Action.child) { if case .child(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  @Dependency(\.clock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .child:
        return .none
      case .drillButtonTapped:
        state.child = State(depth: state.depth + 1)
        return .none
      case .startTicking:
        return .run { send in
          for await _ in self.clock.timer(interval: .seconds(1)) { await send(.tick) }
        }
      case .tick:
        state.ticks += 1
        return .none
      }
    }
    .ifLet(\.$child, action: \.child) { Self() }
  }
}

/// The action `action` sent to the row at a path of ids, outermost first.
private func row(_ path: UUID..., action: Nested.Action) -> Nested.Action {
  path.reversed().reduce(action) { action, id in .rows(.element(id: id, action: action)) }
}

@Suite struct RecursionTests {
  @Test func aFeatureThatContainsItselfIsBuiltOnlyAsDeepAsItsActionsReach() async {
    let store = TestStore(initialState: Nested.State(id: UUID(0))) { Nested() }
    await store.send(.addRowButtonTapped) {
      $0.rows.append(Nested.State(id: UUID(0)))
    }
    // The store's own uuid counter started at 0 too: the first row shares the root's id, as in
    // TCA's case study (ids are only unique among siblings).
    await store.send(row(UUID(0), action: .addRowButtonTapped)) {
      $0.rows[id: UUID(0)]?.rows.append(Nested.State(id: UUID(1)))
    }
    await store.send(row(UUID(0), UUID(1), action: .addRowButtonTapped)) {
      $0.rows[id: UUID(0)]?.rows[id: UUID(1)]?.rows.append(Nested.State(id: UUID(2)))
    }
    await store.send(row(UUID(0), UUID(1), UUID(2), action: .nameTextFieldChanged("Deep"))) {
      $0.rows[id: UUID(0)]?.rows[id: UUID(1)]?.rows[id: UUID(2)]?.name = "Deep"
    }
    await store.send(row(UUID(0), action: .onDelete([0]))) {
      $0.rows[id: UUID(0)]?.rows = []
    }
  }

  @Test func aStoreOfARecursiveFeatureIsCreatedAndSentTo() async {
    // A plain store too (the test store wraps the reducer): creating it used to overflow the
    // stack, building rows of rows forever.
    let store = StoreActor(initialState: Nested.State(id: UUID(0))) { Nested() }
    await store.send(.addRowButtonTapped)
    await store.send(.addRowButtonTapped)
    await store.send(.rows(.element(id: UUID(1), action: .nameTextFieldChanged("Second"))))
    #expect(await store.state.rows.map(\.name) == ["", "Second"])
  }

  @Test func modifiersAroundTheInnerFeatureDoNotBuildItForever() async {
    let printed = Collector()
    let child = Nested.State(id: UUID(1), rows: [Nested.State(id: UUID(2))])
    let store = StoreActor(initialState: Nested.State(id: UUID(0), rows: [child])) {
      NestedWithModifiers(printed: printed)
    }
    await store.send(row(UUID(1), UUID(2), action: .nameTextFieldChanged("x")))
    #expect(await store.state.rows[id: UUID(1)]?.rows[id: UUID(2)]?.name == "x")
    // Both levels below the root printed the action they received.
    #expect(printed.values.count == 2)
  }

  @Test func aPresentedCopyOfTheFeatureDrillsDownAndEndsItsOwnEffectsOnly() async {
    let clock = TestClock()
    let store = TestStore(initialState: Drill.State()) {
      Drill()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.drillButtonTapped) { $0.child = Drill.State(depth: 1) }
    await store.send(.child(.presented(.drillButtonTapped))) {
      $0.child?.child = Drill.State(depth: 2)
    }
    await store.send(.child(.presented(.startTicking)))
    await store.send(.child(.presented(.child(.presented(.startTicking)))))
    await clock.advance(by: .seconds(1))
    await store.receive(\.child) { $0.child?.ticks = 1 }
    await store.receive(\.child) { $0.child?.child?.ticks = 1 }
    // Dismissing the innermost level ends its timer; the middle one keeps ticking.
    await store.send(.child(.presented(.child(.dismiss)))) { $0.child?.child = nil }
    await clock.advance(by: .seconds(1))
    await store.receive(\.child) { $0.child?.ticks = 2 }
    await store.send(.child(.dismiss)) { $0.child = nil }
  }
}
