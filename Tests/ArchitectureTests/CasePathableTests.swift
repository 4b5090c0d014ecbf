import Testing

@testable import Architecture

private struct LoadError: Error, Equatable {}

/// A feature that loads a number and reports the outcome as a `Result`.
private struct Loader: Reducer {
  struct State: Equatable, Sendable {
    var number: Int?
    var failed = false
  }
  enum Action: Equatable, Sendable, CasePathable {
    case loadButtonTapped(fail: Bool)
    case response(Result<Int, LoadError>)

    struct AllCasePaths {
      var response: AnyCasePath<Action, Result<Int, LoadError>> {
        .init(Action.response) { if case .response(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .loadButtonTapped(let fail):
      return .run { send in
        await send(.response(fail ? .failure(LoadError()) : .success(42)))
      }
    case .response(.success(let number)):
      state.number = number
      return .none
    case .response(.failure):
      state.failed = true
      return .none
    }
  }
}

/// A screen whose whole state is a `Result`: a counter once loaded, an error otherwise.
private struct Outcome: Reducer {
  typealias State = Result<Counter.State, LoadError>
  enum Action: Equatable, Sendable, CasePathable {
    case counter(Counter.Action)

    struct AllCasePaths {
      var counter: AnyCasePath<Action, Counter.Action> {
        .init(Action.counter) { if case .counter(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.success, action: \.counter) { Counter() }
  }
}

/// A destination enum, as TCA's `@Reducer enum Destination` state.
@dynamicMemberLookup
private enum Destination: Equatable, Sendable, CasePathable {
  case edit(Counter.State)
  case alert(String)

  struct AllCasePaths {
    var edit: AnyCasePath<Destination, Counter.State> {
      .init(Destination.edit) { if case .edit(let v) = $0 { v } else { nil } }
    }
    var alert: AnyCasePath<Destination, String> {
      .init(Destination.alert) { if case .alert(let v) = $0 { v } else { nil } }
    }
  }
  static var allCasePaths: AllCasePaths { AllCasePaths() }
}

/// `Result`/`TaskResult` case paths and `CasePathable.modify`.
@Suite struct CasePathableTests {
  @Test func aResultIsReceivedByItsCase() async {
    let store = TestStore(initialState: Loader.State()) { Loader() }
    await store.send(.loadButtonTapped(fail: false))
    await store.receive(\.response.success, 42) { $0.number = 42 }
    await store.send(.loadButtonTapped(fail: true))
    await store.receive(\.response.failure) { $0.failed = true }
  }

  @Test func resultCasePathsEmbedAndExtract() {
    let success = AnyCasePath(\Case<Result<Int, LoadError>>.success)
    let failure = AnyCasePath(\Case<Result<Int, LoadError>>.failure)
    #expect(success.extract(from: .success(1)) == 1)
    #expect(success.extract(from: .failure(LoadError())) == nil)
    #expect(failure.extract(from: .failure(LoadError())) == LoadError())
    #expect(success.embed(2) == .success(2))
  }

  @Test func taskResultCasePathsEmbedAndExtract() {
    let success = AnyCasePath(\Case<TaskResult<Int>>.success)
    let failure = AnyCasePath(\Case<TaskResult<Int>>.failure)
    #expect(success.extract(from: .success(1)) == 1)
    #expect(failure.extract(from: .failure(LoadError())) is LoadError)
    #expect(success.embed(3) == .success(3))
  }

  @Test func aChildScopesIntoTheSuccessOfAResultState() async {
    let store = TestStore(initialState: .success(Counter.State())) { Outcome() }
    await store.send(.counter(.increment)) {
      $0.modify(\.success) { $0.count = 1 }
    }
    let failed = StoreActor(initialState: .failure(LoadError())) { Outcome() }
    await failed.send(.counter(.increment))
    #expect(await failed.state == .failure(LoadError()))
  }

  @Test func modifyChangesThePayloadOfTheCurrentCase() {
    var destination: Destination? = .edit(Counter.State())
    destination?.modify(\.edit) { $0.count = 5 }
    #expect(destination == .edit(Counter.State(count: 5)))
    destination.modify(\.edit) { $0.count += 1 }
    #expect(destination == .edit(Counter.State(count: 6)))
  }

  @Test func modifyingAnotherCaseIsReportedAndChangesNothing() {
    var destination: Destination = .alert("Sure?")
    withKnownIssue {
      destination.modify(\.edit) { $0.count = 5 }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasPrefix("Can't modify") }
    }
    #expect(destination == .alert("Sure?"))
  }

  @Test func aCaseIsReadAndWrittenBySubscript() {
    var destination: Destination = .edit(Counter.State(count: 1))
    #expect(destination[case: \.edit] == Counter.State(count: 1))
    #expect(destination[case: \.alert] == nil)
    destination[case: \.edit]?.count += 1
    #expect(destination == .edit(Counter.State(count: 2)))
    // Writing another case's payload changes nothing.
    destination[case: \.alert] = "Sure?"
    #expect(destination == .edit(Counter.State(count: 2)))
  }

  @Test func aCaseIsReadAndWrittenByName() {
    var destination: Destination? = .alert("Sure?")
    #expect(destination?.alert == "Sure?")
    #expect(destination?.edit == nil)
    destination?.alert = "Really?"
    #expect(destination == .alert("Really?"))
    destination?.edit = Counter.State()
    #expect(destination == .alert("Really?"))
  }

  @Test func isTellsTheCase() {
    let destination: Destination = .alert("Sure?")
    #expect(destination.is(\.alert))
    #expect(!destination.is(\.edit))
    let result: Result<Int, LoadError> = .failure(LoadError())
    #expect(result.is(\.failure))
    #expect(!result.is(\.success))
  }
}
