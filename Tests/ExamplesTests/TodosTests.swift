import Architecture
import Examples
import Foundation
import Testing

/// TCA's Todos tests, on our test store.
@Suite struct TodosTests {
  @Test func addTodo() async {
    let store = TestStore(initialState: Todos.State()) { Todos() }
    await store.send(.addTodoButtonTapped) {
      $0.todos.insert(Todo.State(id: uuid(0)), at: 0)
    }
    await store.send(.addTodoButtonTapped) {
      $0.todos.insert(Todo.State(id: uuid(1)), at: 0)
    }
    #expect(store.state.todos.ids == [uuid(1), uuid(0)])
  }

  @Test func editTodo() async {
    let store = TestStore(initialState: Todos.State(todos: [Todo.State(id: uuid(0))])) {
      Todos()
    }
    await store.send(.todos(.element(id: uuid(0), action: .setDescription("Learn Composable")))) {
      $0.todos[id: uuid(0)]?.description = "Learn Composable"
    }
  }

  @Test func completeTodo() async {
    let store = TestStore(initialState: Todos.State(todos: twoTodos())) { Todos() }
    await store.send(.todos(.element(id: uuid(0), action: .toggleCompleted))) {
      $0.todos[id: uuid(0)]?.isComplete = true
    }
    await store.send(.todos(.element(id: uuid(0), action: .toggleCompleted))) {
      $0.todos[id: uuid(0)]?.isComplete = false
    }
  }

  @Test func clearCompleted() async {
    var todos = twoTodos()
    todos[id: uuid(1)]?.isComplete = true
    let store = TestStore(initialState: Todos.State(todos: todos)) { Todos() }
    await store.send(.clearCompletedButtonTapped) {
      $0.todos = [Todo.State(description: "", id: uuid(0))]
    }
  }

  @Test func delete() async {
    let store = TestStore(initialState: Todos.State(todos: threeTodos())) { Todos() }
    await store.send(.delete([1])) {
      $0.todos.remove(id: uuid(1))
    }
  }

  @Test func deleteWhileFiltered() async {
    var todos = threeTodos()
    todos[id: uuid(2)]?.isComplete = true
    let store = TestStore(initialState: Todos.State(filter: .completed, todos: todos)) {
      Todos()
    }
    // Offset 0 of the completed list is the third to-do.
    await store.send(.delete([0])) {
      $0.todos.remove(id: uuid(2))
    }
  }

  @Test func filteredTodos() async {
    var todos = threeTodos()
    todos[id: uuid(1)]?.isComplete = true
    let store = TestStore(initialState: Todos.State(todos: todos)) { Todos() }
    #expect(store.state.filteredTodos.ids == [uuid(0), uuid(1), uuid(2)])
    await store.send(.filterPicked(.active)) { $0.filter = .active }
    #expect(store.state.filteredTodos.ids == [uuid(0), uuid(2)])
    await store.send(.filterPicked(.completed)) { $0.filter = .completed }
    #expect(store.state.filteredTodos.ids == [uuid(1)])
  }

  @Test func actionForAMissingTodoIsReportedNotACrash() async {
    await withKnownIssue {
      let store = TestStore(initialState: Todos.State(todos: twoTodos())) { Todos() }
      await store.send(.todos(.element(id: uuid(9), action: .toggleCompleted)))
    } matching: { issue in
      let message = issue.comments.first?.rawValue ?? ""
      return message.hasPrefix(#"A "forEach" at "Examples/Todos.swift:"#)
        && message.contains("received an action for a missing element.")
    }
  }

  @Test func deleteOutOfRangeIsReportedNotACrash() async {
    await withKnownIssue {
      let store = TestStore(initialState: Todos.State(todos: twoTodos())) { Todos() }
      await store.send(.delete([1, 5])) {
        $0.todos.remove(id: uuid(1))
      }
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        "Todos.Action.delete: offset 5 is out of range; 2 to-dos are shown."
      ]
    }
  }

  @Test func demoTodosHaveDistinctFixedIDs() {
    let ids = Todos.State.demo.todos.ids
    #expect(Set(ids).count == 3)
    #expect(!ids.contains(uuid(0)))
  }
}

/// The UUIDs `UUIDGenerator.incrementing` produces: `00000000-0000-0000-0000-00000000000n`.
func uuid(_ value: Int) -> UUID {
  UUID(uuidString: "00000000-0000-0000-0000-\(String(format: "%012x", value))")!
}

private func twoTodos() -> IdentifiedArrayOf<Todo.State> {
  [Todo.State(description: "", id: uuid(0)), Todo.State(description: "", id: uuid(1))]
}

private func threeTodos() -> IdentifiedArrayOf<Todo.State> {
  [
    Todo.State(description: "A", id: uuid(0)),
    Todo.State(description: "B", id: uuid(1)),
    Todo.State(description: "C", id: uuid(2)),
  ]
}
