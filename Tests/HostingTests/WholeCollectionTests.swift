import Foundation
import Testing
import Wire

/// A watcher of a whole collection (`todos`) against the real `storehost`: its patches carry
/// each change as a few operations, and its mirror always equals the host's state.
@Suite(.serialized)
struct WholeCollectionTests {
  let host: HostProcess

  init() throws {
    host = try HostProcess(arguments: ["--history", "1000"])
  }

  /// Sends `action` to `scope` and applies every patch up to its ack (read your writes: they
  /// all come before it), returns the patches.
  private func send(
    _ client: WireClient, _ mirror: inout ServingTests.Mirror, scope: String, action: String, id: Int
  ) throws -> [JSON] {
    try client.send(#"{"type":"send","id":\#(id),"scope":"\#(scope)","action":\#(action)}"#)
    var patches: [JSON] = []
    while true {
      let message = try client.next()
      switch message["type"]?.string {
      case "patch":
        try mirror.apply(message)
        patches.append(message)
      case "ack":
        // An action that changed nothing (a filter picked again) gets no patch.
        #expect(message["rev"]!.int! >= mirror.rev)
        return patches
      default:
        Issue.record("unexpected \(message.compactString)")
        return patches
      }
    }
  }

  @Test func everyKindOfChangeReachesAWholeListWatcherAsAFewOperations() throws {
    let client = try WireClient.greeted(path: host.socketPath)
    var mirror = try ServingTests.Mirror(
      subscribed: client.request(#"{"type":"subscribe","id":1,"scope":"todos"}"#))
    var id = 10
    for _ in 0..<200 {
      id += 1
      let patches = try self.send(client, &mirror, scope: "todos", action: #"{"addTodoButtonTapped":{}}"#, id: id)
      #expect(patches.count == 1 && patches.first?["ops"]?.array?.count == 1, "an insert is one add")
    }
    var random = TrackedPatchTests.SeededGenerator(state: 17)
    for _ in 0..<300 {
      id += 1
      let todos = try #require(mirror.state["todos"]?.array)
      guard !todos.isEmpty else { break }
      let index = Int.random(in: 0..<todos.count, using: &random)
      let todo = try #require(todos[index]["id"]?.string)
      let kind = Int.random(in: 0..<8, using: &random)
      let (scope, action): (String, String) =
        switch kind {
        case 0, 1: ("todos/\(todo)", #"{"toggleCompleted":{}}"#)
        case 2: ("todos/\(todo)", #"{"setDescription":{"_0":"d\#(id)"}}"#)
        case 3: ("todos", #"{"todos":{"_0":{"element":{"id":"\#(todo)","action":{"toggleCompleted":{}}}}}}"#)
        case 4: ("todos", #"{"addTodoButtonTapped":{}}"#)
        case 5: ("todos", #"{"delete":{"_0":{"indexes":[{"location":\#(index),"length":1}]}}}"#)
        case 6: ("todos", #"{"filterPicked":{"_0":"\#(["all", "active", "completed"].randomElement(using: &random)!)"}}"#)
        default: ("todos", #"{"clearCompletedButtonTapped":{}}"#)
        }
      let patches = try self.send(client, &mirror, scope: scope, action: action, id: id)
      let ops = patches.flatMap { $0["ops"]?.array ?? [] }
      switch kind {
      case 0, 1, 2, 3:
        // An edit of one to-do is one replace inside it, at its position.
        #expect(ops.count == 1, "\(action): \(ops.map(\.compactString))")
        #expect(ops.first?["path"]?.string?.hasPrefix("/todos/\(index)/") == true)
      case 4:
        #expect(ops.count == 1, "\(action): \(ops.map(\.compactString))")
      case 5:
        // An offset into the filtered list; out of its range, nothing is deleted.
        #expect(ops.count <= 1, "\(action): \(ops.map(\.compactString))")
      default:
        break
      }
    }
    let final = try client.request(#"{"type":"get","id":1000,"scope":"todos"}"#)
    #expect(final["state"] == mirror.state)
    #expect(try #require(final["state"]?["todos"]?.array).count > 50)
  }

  @Test func aLateWatcherAndAnEarlyOneAgree() throws {
    let sender = try WireClient.greeted(path: host.socketPath)
    let early = try WireClient.greeted(path: host.socketPath)
    var first = try ServingTests.Mirror(
      subscribed: early.request(#"{"type":"subscribe","id":1,"scope":"todos"}"#))
    for id in 1...20 {
      try sender.send(#"{"type":"send","id":\#(id),"scope":"todos","action":{"addTodoButtonTapped":{}}}"#)
      _ = try sender.expect("ack")
    }
    let late = try WireClient.greeted(path: host.socketPath)
    var second = try ServingTests.Mirror(
      subscribed: late.request(#"{"type":"subscribe","id":1,"scope":"todos"}"#))
    let todo = try #require(second.state["todos"]?[3]?["id"]?.string)
    try sender.send(#"{"type":"send","id":99,"scope":"todos/\#(todo)","action":{"toggleCompleted":{}}}"#)
    let ack = try sender.expect("ack")
    let rev = try #require(ack["rev"]?.int)
    for (client, index) in [(early, 0), (late, 1)] {
      while (index == 0 ? first.rev : second.rev) < rev {
        let patch = try client.expect("patch")
        if index == 0 { try first.apply(patch) } else { try second.apply(patch) }
      }
    }
    #expect(first.state == second.state)
    #expect(second.state["todos"]?[3]?["isComplete"] == .bool(true))
  }
}
