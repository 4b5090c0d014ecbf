import Examples
import Foundation
import Remote
import Testing

/// `RemoteStore`, typed with the example features' own State and Action, against the real
/// `storehost` daemon.
@Suite(
  .serialized, .timeLimit(.minutes(3)),
  .enabled(if: Binaries.storehost != nil, "storehost must be built next to the tests (run `swift build` first)"))
struct RemoteStoreEndToEndTests {
  private func configuration(_ path: String) -> RemoteStoreConfiguration {
    RemoteStoreConfiguration(
      socketPath: path, clientName: "remote-e2e/1",
      backoff: Backoff(initial: .milliseconds(20), multiplier: 2, maximum: .milliseconds(200)))
  }

  @Test func aRemoteCounterReadsAndSendsLikeAScopedStore() async throws {
    let host = try await HostProcess(socketPath: makeTemporaryDirectory() + "/host.sock")
    let store = try await RemoteStore<Counter.State, Counter.Action>(
      scope: "counter", configuration: self.configuration(host.socketPath))
    #expect(await store.state.count == 0)
    let rev = try await store.send(.incrementButtonTapped)
    #expect(await store.state.count == 1, "the acknowledged action is already in the state")
    #expect(try await store.send(.incrementButtonTapped) == rev + 1)
    #expect(await store.withState(\.count) == 2)

    // The timer ticks in the host; its effects' changes arrive here as patches.
    var changes = store.stateChanges().makeAsyncIterator()
    #expect(await changes.next()?.count == 2)
    try await store.send(.toggleTimerButtonTapped)
    var ticked = false
    while let state = await changes.next() {
      if state.count >= 3 && state.isTimerRunning {
        ticked = true
        break
      }
    }
    #expect(ticked)
    try await store.send(.toggleTimerButtonTapped)
    #expect(await store.state.isTimerRunning == false)

    await #expect(throws: RemoteError.self) {
      _ = try await RemoteStore<Counter.State, Counter.Action>(scope: "countr", configuration: self.configuration(host.socketPath))
    }
    await store.close()
    try await host.terminate()
  }

  @Test func anElementScopeEndsWithScopeGoneWhenItsElementIsRemoved() async throws {
    let host = try await HostProcess(socketPath: makeTemporaryDirectory() + "/host.sock")
    let id = "5EED0000-0000-0000-0000-000000000001"
    let todo = try await RemoteStore<Todo.State, Todo.Action>(
      scope: "todos/\(id)", configuration: self.configuration(host.socketPath))
    #expect(await todo.state.isComplete)
    try await todo.send(.toggleCompleted)
    #expect(await todo.state.isComplete == false)
    try await todo.send(.toggleCompleted)
    let todos = try await RemoteStore<Todos.State, Todos.Action>(
      scope: "todos", configuration: self.configuration(host.socketPath))
    let count = await todos.state.todos.count
    try await todos.send(.clearCompletedButtonTapped)
    #expect(await todos.state.todos.count == count - 1)
    try await waitUntil("the element store ends") { await todo.status != .connected }
    #expect(await todo.status == .failed(.scopeGone(scope: "todos/\(id)")))
    await #expect(throws: RemoteError.scopeGone(scope: "todos/\(id)")) { try await todo.send(.toggleCompleted) }
    await #expect(throws: RemoteError.self) {
      _ = try await RemoteStore<Todo.State, Todo.Action>(scope: "todos/\(id)", configuration: self.configuration(host.socketPath))
    }
    await todos.close()
    try await host.terminate()
  }

  @Test func aRemoteStoreSurvivesAHostRestart() async throws {
    let path = makeTemporaryDirectory() + "/host.sock"
    let first = try await HostProcess(socketPath: path)
    let store = try await RemoteStore<Counter.State, Counter.Action>(scope: "counter", configuration: self.configuration(path))
    try await store.send(.incrementButtonTapped)
    try await store.send(.incrementButtonTapped)
    try await first.crash()
    try await waitUntil("the store notices") { await store.status != .connected }
    #expect(await store.state.count == 2, "the last state is kept while the host is away")
    let second = try await HostProcess(socketPath: path)
    try await waitUntil("the store reconnects") { await store.status == .connected }
    #expect(await store.state.count == 0, "a fresh snapshot from the new host")
    #expect(await store.reconnectCount == 1)
    try await store.send(.incrementButtonTapped)
    #expect(await store.state.count == 1)
    await store.close()
    try await second.terminate()
  }
}
