import Architecture

/// (a) and (c): a counter.
struct Counter: Reducer {
  struct State: Equatable, Sendable { var count = 0 }
  enum Action: Sendable { case increment }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count &+= 1
      return .none
    }
  }
}

/// (b) level 3: the leaf inside each element.
struct Leaf: Reducer {
  struct State: Equatable, Sendable { var count = 0 }
  enum Action: Sendable { case increment }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .increment:
        state.count &+= 1
        return .none
      }
    }
  }
}

/// (b) the element of the collection: scopes to its leaf.
struct Item: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var title: String
    var leaf = Leaf.State()
  }
  enum Action: CasePathable, Sendable {
    case leaf(Leaf.Action)
    case rename(String)

    struct AllCasePaths {
      var leaf: AnyCasePath<Action, Leaf.Action> {
        .init(Action.leaf) { if case .leaf(let v) = $0 { v } else { nil } }
      }
      var rename: AnyCasePath<Action, String> {
        .init(Action.rename) { if case .rename(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.leaf, action: \.leaf) { Leaf() }
    Reduce { state, action in
      if case .rename(let title) = action { state.title = title }
      return .none
    }
  }
}

/// (b) level 2: the collection.
struct List: Reducer {
  struct State: Equatable, Sendable { var items: IdentifiedArrayOf<Item.State> = [] }
  enum Action: CasePathable, Sendable {
    case items(IdentifiedActionOf<Item>)

    struct AllCasePaths {
      var items: AnyCasePath<Action, IdentifiedActionOf<Item>> {
        .init(Action.items) { if case .items(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Reduce { _, _ in .none }
      .forEach(\.items, action: \.items) { Item() }
  }
}

/// (b) level 1: the root, scoping to the list.
struct Root: Reducer {
  struct State: Equatable, Sendable { var list = List.State() }
  enum Action: CasePathable, Sendable {
    case list(List.Action)

    struct AllCasePaths {
      var list: AnyCasePath<Action, List.Action> {
        .init(Action.list) { if case .list(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.list, action: \.list) { List() }
  }
}
