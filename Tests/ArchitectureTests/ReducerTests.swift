import Testing

@testable import Architecture

/// Appends its name to the log, to observe order.
private struct Logging: Reducer {
  let name: String
  func reduce(into state: inout [String], action: Bool) -> Effect<Bool> {
    state.append(self.name)
    return .none
  }
}

private struct Built: Reducer {
  let flag: Bool
  let names: [String]
  var body: some Reducer<[String], Bool> {
    Logging(name: "first")
    if self.flag {
      Logging(name: "if")
    } else {
      Logging(name: "else")
    }
    if self.flag {
      Logging(name: "optional")
    }
    for name in self.names {
      Logging(name: name)
    }
    CombineReducers {
      Logging(name: "combined 1")
      Logging(name: "combined 2")
    }
    EmptyReducer()
  }
}

@Suite struct ReducerTests {
  @Test func builderRunsReducersInOrderThroughEveryConstruct() {
    var log: [String] = []
    _ = Built(flag: true, names: ["x", "y"]).reduce(into: &log, action: true)
    #expect(log == ["first", "if", "optional", "x", "y", "combined 1", "combined 2"])
    log = []
    _ = Built(flag: false, names: []).reduce(into: &log, action: true)
    #expect(log == ["first", "else", "combined 1", "combined 2"])
  }

  @Test func bodyIsEvaluatedOnceByTheStore() async {
    final class Counter: Sendable {
      let count = _Lock(0)
    }
    struct Counted: Reducer {
      let evaluations: Counter
      var body: some Reducer<Int, Void> {
        let _ = self.evaluations.count.withLock { $0 += 1 }
        Reduce { state, _ in
          state += 1
          return .none
        }
      }
    }
    let evaluations = Counter()
    let store = StoreActor(initialState: 0) { Counted(evaluations: evaluations) }
    for _ in 0..<10 { await store.send(()) }
    #expect(await store.state == 10)
    #expect(evaluations.count.withLock { $0 } == 1)
  }

  @Test func scopeRunsTheChildOnlyForChildActionsAndMapsItsEffects() async {
    struct Child: Reducer {
      func reduce(into state: inout Int, action: Counter.Action) -> Effect<Counter.Action> {
        if action == .increment {
          state += 1
          return .send(.set(state * 10))
        }
        if case .set(let value) = action { state = value }
        return .none
      }
    }
    struct ParentFeature: Reducer {
      var body: some Reducer<Parent.State, Parent.Action> {
        Scope(state: \.counter.count, action: \.counter) { Child() }
        Reduce { state, action in
          state.log.append("\(action)")
          return .none
        }
      }
    }
    let store = StoreActor(initialState: Parent.State()) { ParentFeature() }
    await store.send(.counter(.increment))
    #expect(await store.state.counter.count == 10)
    #expect(
      await store.state.log == [
        "counter(ArchitectureTests.Counter.Action.increment)",
        "counter(ArchitectureTests.Counter.Action.set(10))",
      ])
    await store.send(.optional(.increment))
    #expect(await store.state.counter.count == 10)
  }

  @Test func scopeOnAnEnumCaseOnlyRunsInThatCase() async {
    struct Feature: Reducer {
      var body: some Reducer<Mode.State, Mode.Action> {
        Scope(state: \.counting, action: \.counting) { Counter() }
        Reduce { state, action in
          if action == .start { state = .counting(Counter.State()) }
          return .none
        }
      }
    }
    let store = StoreActor(initialState: Mode.State.idle) { Feature() }
    await store.send(.counting(.increment))
    #expect(await store.state == .idle)
    await store.send(.start)
    await store.send(.counting(.increment))
    await store.send(.counting(.increment))
    #expect(await store.state == .counting(Counter.State(count: 2)))
  }

  @Test func ifLetRunsTheChildBeforeTheParentAndWarnsWhenNil() async {
    let warnings = Collector()
    let store = makeStore(Parent.State(), warnings: warnings, Parent())
    await store.send(.optional(.increment))
    #expect(warnings.values.count == 1)
    #expect(warnings.values.first?.contains("\"ifLet\"") == true)
    #expect(warnings.values.first?.contains(#"received a child action when child state was "nil""#) == true)
    await store.send(.setOptional(Counter.State()))
    await store.send(.optional(.increment))
    #expect(await store.state.optional?.count == 1)
    #expect(warnings.values.count == 1)
  }

  @Test func ifCaseLetRunsTheChildInItsCaseAndWarnsOtherwise() async {
    let warnings = Collector()
    let store = makeStore(Mode.State.idle, warnings: warnings, Mode())
    await store.send(.counting(.increment))
    #expect(warnings.values.count == 1)
    #expect(warnings.values.first?.contains("\"ifCaseLet\"") == true)
    await store.send(.start)
    await store.send(.counting(.increment))
    #expect(await store.state == .counting(Counter.State(count: 1)))
  }

  @Test func forEachRoutesByIDAndReportsMissingIDsWithoutCrashing() async {
    let warnings = Collector()
    var state = Parent.State()
    state.counters = [Counter.State(id: 1), Counter.State(id: 2)]
    let store = makeStore(state, warnings: warnings, Parent())
    await store.send(.counters(.element(id: 2, action: .increment)))
    await store.send(.counters(.element(id: 2, action: .increment)))
    await store.send(.counters(.element(id: 1, action: .decrement)))
    #expect(await store.state.counters.map(\.count) == [-1, 2])
    await store.send(.counters(.element(id: 9, action: .increment)))
    #expect(warnings.values.count == 1)
    #expect(warnings.values.first?.contains("missing element") == true)
    #expect(warnings.values.first?.contains(#"received an action for a missing element"#) == true)
    #expect(await store.state.counters.map(\.count) == [-1, 2])
  }

  @Test func onChangeRunsOnlyWhenTheValueChangesWithOldAndNewValues() {
    struct Feature: Reducer {
      var body: some Reducer<Parent.State, Parent.Action> {
        Scope(state: \.counter, action: \.counter) { Counter() }
          .onChange(
            of: { $0.counter.count },
            { oldValue, newValue in
              Reduce { state, _ in
                state.log.append("\(oldValue) -> \(newValue)")
                return .none
              }
            })
      }
    }
    var state = Parent.State()
    let feature = Feature()
    _ = feature.reduce(into: &state, action: .counter(.increment))
    _ = feature.reduce(into: &state, action: .counter(.noop))
    _ = feature.reduce(into: &state, action: .counter(.set(5)))
    _ = feature.reduce(into: &state, action: .counter(.set(5)))
    #expect(state.log == ["0 -> 1", "1 -> 5"])
  }

  @Test func printChangesPrintsTheActionAndALineDiff() {
    let output = Collector()
    let feature = Parent()._printChanges(to: { output.append($0) })
    var state = Parent.State()
    _ = feature.reduce(into: &state, action: .counter(.increment))
    #expect(
      output.values.first == """
        received action:
          Parent.Action.counter(.increment)
          Parent.State(
            counter: Counter.State(
              id: 0,
        -     count: 0
        +     count: 1
            ),
            optional: nil,
            counters: [],
        -   log: []
        +   log: [
        +     [0]: "parent"
        +   ]
          )
        """)
    _ = Reduce<Int, Int> { _, _ in .none }._printChanges(to: { output.append($0) })
      .reduce(into: &state.counter.count, action: 3)
    #expect(output.values.last == "received action:\n  3\n  (No state changes)")
  }
}
