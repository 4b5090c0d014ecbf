import Architecture
import Foundation

/// TCA's classic Todos: a list of to-dos to add, complete, delete and filter.
///
/// ```swift
/// let store = Store(initialState: Todos.State()) { Todos() }
/// await store.send(.addTodoButtonTapped)
/// await store.send(.todos(.element(id: id, action: .setDescription("Milk"))))
/// ```
///
/// Element actions go through `forEach` by id: `\.todos[id: id]` names one to-do's actions
/// (the host's `todos/{id}` scope), and an action for an id that is not in the list is reported
/// as a runtime warning, not a crash.
public struct Todos: Reducer, Sendable {
  /// The list and its filter.
  public struct State: Codable, Equatable, Sendable {
    /// Which to-dos are shown.
    public var filter: Filter
    /// Every to-do, newest first.
    public var todos: IdentifiedArrayOf<Todo.State>

    /// Creates a to-do list.
    ///
    /// - Parameters:
    ///   - filter: Which to-dos are shown.
    ///   - todos: The to-dos.
    public init(filter: Filter = .all, todos: IdentifiedArrayOf<Todo.State> = []) {
      self.filter = filter
      self.todos = todos
    }

    /// The to-dos the filter shows, in order: what `delete` offsets index into.
    public var filteredTodos: IdentifiedArrayOf<Todo.State> {
      switch self.filter {
      case .all: self.todos
      case .active: self.todos.filter { !$0.isComplete }
      case .completed: self.todos.filter(\.isComplete)
      }
    }

    /// A few to-dos for the demo host, with fixed ids.
    public static let demo = State(
      todos: [
        Todo.State(
          description: "Read the protocol",
          id: UUID(uuidString: "5EED0000-0000-0000-0000-000000000001")!,
          isComplete: true),
        Todo.State(
          description: "Subscribe to the counter",
          id: UUID(uuidString: "5EED0000-0000-0000-0000-000000000002")!),
        Todo.State(
          description: "Buy milk", id: UUID(uuidString: "5EED0000-0000-0000-0000-000000000003")!),
      ]
    )
  }

  /// The list's actions.
  public enum Action: Codable, Equatable, Sendable, CasePathable {
    /// Inserts a new, empty to-do (with a fresh id from the `uuid` dependency) at the top.
    case addTodoButtonTapped
    /// Removes the completed to-dos.
    case clearCompletedButtonTapped
    /// Removes the to-dos at these offsets of ``State/filteredTodos`` (as a SwiftUI `onDelete`
    /// gives them). Offsets out of range are reported as a runtime warning and ignored.
    ///
    /// `IndexSet` is `Codable` through Foundation as ranges, so the action's JSON is
    /// `{"delete":{"_0":{"indexes":[{"length":1,"location":0},{"length":2,"location":3}]}}}`
    /// for the offsets 0, 3 and 4 (the same shape on Linux and Apple platforms).
    case delete(IndexSet)
    /// Chooses which to-dos are shown.
    case filterPicked(Filter)
    /// An action of one to-do: `{"todos":{"_0":{"element":{"action":…,"id":"…"}}}}`.
    case todos(IdentifiedActionOf<Todo>)

    /// The case paths of ``Todos/Action``.
    public struct AllCasePaths: Sendable {
      /// `.addTodoButtonTapped`.
      public var addTodoButtonTapped: AnyCasePath<Action, Void> {
        .init(.addTodoButtonTapped) { if case .addTodoButtonTapped = $0 { true } else { false } }
      }
      /// `.clearCompletedButtonTapped`.
      public var clearCompletedButtonTapped: AnyCasePath<Action, Void> {
        .init(.clearCompletedButtonTapped) {
          if case .clearCompletedButtonTapped = $0 { true } else { false }
        }
      }
      /// `.delete`.
      public var delete: AnyCasePath<Action, IndexSet> {
        .init(Action.delete) { if case .delete(let v) = $0 { v } else { nil } }
      }
      /// `.filterPicked`.
      public var filterPicked: AnyCasePath<Action, Filter> {
        .init(Action.filterPicked) { if case .filterPicked(let v) = $0 { v } else { nil } }
      }
      /// `.todos`; `\.todos[id: id]` reaches one to-do's actions.
      public var todos: AnyCasePath<Action, IdentifiedActionOf<Todo>> {
        .init(Action.todos) { if case .todos(let v) = $0 { v } else { nil } }
      }
    }

    /// The case paths of ``Todos/Action``.
    public static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  @Dependency(\.uuid) var uuid
  @Dependency(\.runtimeWarnings) var runtimeWarnings

  /// Creates the to-do list feature.
  public init() {}

  /// The list's logic, with each to-do's logic run by `forEach`.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addTodoButtonTapped:
        state.todos.insert(Todo.State(id: self.uuid()), at: 0)
        return .none

      case .clearCompletedButtonTapped:
        state.todos.removeAll(where: \.isComplete)
        return .none

      case .delete(let offsets):
        let filteredTodos = state.filteredTodos
        for offset in offsets {
          guard filteredTodos.indices.contains(offset) else {
            self.runtimeWarnings(
              "Todos.Action.delete: offset \(offset) is out of range; \(filteredTodos.count)"
                + " to-dos are shown.")
            continue
          }
          state.todos.remove(id: filteredTodos[offset].id)
        }
        return .none

      case .filterPicked(let filter):
        state.filter = filter
        return .none

      case .todos:
        return .none
      }
    }
    .forEach(\.todos, action: \.todos) {
      Todo()
    }
  }
}
