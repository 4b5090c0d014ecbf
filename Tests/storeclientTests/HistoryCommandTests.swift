import Foundation
import Testing
import Wire

@testable import storeclient

/// `storeclient log`, `get --at` and `diff`: the real binary against the real `storehost`.
@Suite(
  .serialized, .timeLimit(.minutes(5)),
  .enabled(
    if: Binaries.available,
    "storehost and storeclient must be built next to the tests (run `swift build` first)"))
struct HistoryCommandTests {
  /// Starts a host on a fresh socket, runs `body`, stops the host.
  private func withHost(
    _ arguments: [String] = [], _ body: (HostProcess) async throws -> Void
  ) async throws {
    let host = try await HostProcess(
      socketPath: makeTemporaryDirectory() + "/host.sock", arguments: arguments)
    if !arguments.contains("--history") {
      // storehost's own start-up actions (a host action and its two effects' actions) come
      // first, so that revisions are predictable.
      try await waitUntil("storehost loaded its catalog") {
        try await storeclient(["log", "--socket", host.socketPath]).outputLines.count >= 3
      }
    }
    do {
      try await body(host)
    } catch {
      try? await host.terminate()
      throw error
    }
    try await host.terminate()
  }

  /// Sends `action` to `scope` with `storeclient send`.
  private func send(_ host: HostProcess, _ scope: String, _ action: String) async throws {
    let result = try await storeclient(["send", scope, action, "--socket", host.socketPath])
    #expect(result.status == 0, "send failed: \(result.errors)")
  }

  private static let increment = #"{"incrementButtonTapped":{}}"#

  @Test func logAndGetAtReadAKilledDurableHostsHistoryFromItsDataDirectory() async throws {
    let directory = makeTemporaryDirectory()
    // Two entries in memory: after the restart, everything before comes from the journal.
    let arguments = ["--data", directory + "/data", "--history", "2"]
    var host = try await HostProcess(socketPath: directory + "/host.sock", arguments: arguments)
    try await waitUntil("storehost loaded its catalog") {
      try await storeclient(["log", "--socket", host.socketPath]).outputLines.count >= 3
    }
    for _ in 0..<3 { try await self.send(host, "counter", Self.increment) }
    try await host.crash()

    host = try await HostProcess(socketPath: directory + "/host.sock", arguments: arguments)
    let result = try await storeclient(["log", "--socket", host.socketPath])
    #expect(result.status == 0, "\(result.errors)")
    let lines = result.outputLines
    #expect(lines.count == 6, "\(result.output)")
    let pattern = #/^rev [456]  \d\d:\d\d:\d\d\.\d{3}  storeclient\[\d+\] uid \d+  counter  incrementButtonTapped$/#
    for line in lines.suffix(3) {
      #expect(try pattern.wholeMatch(in: line) != nil, "\(line)")
    }
    let past = try await storeclient(["get", "counter", "--at", "5", "--socket", host.socketPath])
    #expect(past.status == 0, "\(past.errors)")
    #expect(past.output.contains(#""count":2"#), "\(past.output)")
    try await host.terminate()
  }

  @Test func logPrintsOneLinePerActionWithWhoSentItAndWhen() async throws {
    try await self.withHost { host in
      try await self.send(host, "counter", Self.increment)
      try await self.send(host, "counter", Self.increment)
      let result = try await storeclient(["log", "--socket", host.socketPath])
      #expect(result.status == 0)
      let lines = result.outputLines
      // storehost's own start-up action and its effect's, then the two sends.
      #expect(lines.count == 5)
      #expect(lines.first?.hasPrefix("rev 1  ") == true && lines.first?.hasSuffix("  host  shop.task") == true)
      #expect(lines.dropFirst().first?.contains("  effect  shop.productList.fetchProducts") == true)
      let pattern = #/^rev 5  \d\d:\d\d:\d\d\.\d{3}  storeclient\[(\d+)\] uid (\d+)  counter  incrementButtonTapped$/#
      let match = try #require(lines.last.flatMap { try pattern.wholeMatch(in: $0) })
      #expect(Int(match.output.2) == Int(getuid()))
      #expect(Int(match.output.1) != nil)
      let limited = try await storeclient(["log", "counter", "--limit", "1", "--socket", host.socketPath])
      #expect(limited.outputLines.count == 1 && limited.output.hasPrefix("rev 5  "))
      let since = try await storeclient(["log", "--since", "3", "--socket", host.socketPath])
      #expect(since.outputLines.map { $0.prefix(6) } == ["rev 4 ", "rev 5 "])
    }
  }

  @Test func logChangesShowWhatEachActionChangedAndJSONLinesCarryTheOps() async throws {
    try await self.withHost { host in
      try await self.send(host, "counter", Self.increment)
      try await self.send(host, "counter", Self.increment)
      try await self.send(host, "todos", #"{"addTodoButtonTapped":{}}"#)
      let text = try await storeclient(["log", "counter", "--changes", "--socket", host.socketPath])
      #expect(text.outputLines.map { $0.components(separatedBy: "  ").last } == ["/count: 0 → 1", "/count: 1 → 2"])
      let json = try await storeclient(
        ["log", "--format", "json", "--changes", "--since", "3", "--socket", host.socketPath])
      let entries = try json.outputLines.map { try JSON(parsing: $0) }
      #expect(entries.count == 3)
      #expect(entries[0]["rev"] == .int(4) && entries[0]["scope"] == .string("counter"))
      #expect(entries[0]["origin"]?["kind"] == .string("client"))
      #expect(entries[0]["origin"]?["client"] == .string("storeclient/1.0.0"))
      #expect(entries[0]["ops"] == .array([J(#"{"op":"replace","path":"/count","value":1}"#)]))
      #expect(entries[2]["action"] == J(#"{"addTodoButtonTapped":{}}"#))
      #expect(entries[2]["ops"]?[0]?["path"] == .string("/todos/0"))
    }
  }

  @Test func getAtAndDiffReadPastStates() async throws {
    try await self.withHost { host in
      for _ in 0..<3 { try await self.send(host, "counter", Self.increment) }
      let past = try await storeclient(["get", "counter", "--at", "4", "--socket", host.socketPath])
      #expect(past.status == 0)
      #expect(try JSON(parsing: past.output)["count"] == .int(1))
      let diff = try await storeclient(["diff", "counter", "3", "5", "--socket", host.socketPath])
      #expect(diff.output == "/count: 0 → 2\n")
      let patch = try await storeclient(
        ["diff", "counter", "6", "3", "--format", "patch", "--socket", host.socketPath])
      #expect(patch.output == #"[{"op":"replace","path":"/count","value":0}]"# + "\n")
      let none = try await storeclient(["diff", "todos", "1", "6", "--socket", host.socketPath])
      #expect(none.output == "(no change)\n")
      let future = try await storeclient(["get", "counter", "--at", "999", "--socket", host.socketPath])
      #expect(future.status == 1)
      #expect(future.errors.hasPrefix("Error: revision 999 does not exist yet (the host is at 6)"))
      #expect(future.errors.contains("(revision_unavailable)"))
    }
  }

  @Test func logFollowsNewActionsAndGoesOnAfterTheHostRestarts() async throws {
    let socket = makeTemporaryDirectory() + "/host.sock"
    var host = try await HostProcess(socketPath: socket)
    let follow = try ClientProcess(["log", "-f", "--limit", "1", "--socket", socket])
    try await follow.waitForLine { $0.hasPrefix("rev 3  ") }
    try await self.send(host, "counter", Self.increment)
    try await follow.waitForLine { $0.hasPrefix("rev 4  ") && $0.hasSuffix("  counter  incrementButtonTapped") }
    try await host.terminate()
    try await waitUntil("log reports the lost host") {
      follow.errors.text.contains("the host closed the connection (shutdown); waiting for the host to come back")
    }
    host = try await HostProcess(socketPath: socket)
    try await waitUntil("log reconnects") { follow.errors.text.contains("storeclient: reconnected") }
    #expect(follow.errors.text.contains("the host's history started over"))
    try await self.send(host, "counter", #"{"decrementButtonTapped":{}}"#)
    try await follow.waitForLine { $0.hasSuffix("  counter  decrementButtonTapped") }
    #expect(follow.output.lines.filter { $0.hasSuffix("  host  shop.task") }.count == 1, "the new host's history, from its start")
    #expect(follow.isRunning)
    try await follow.interrupt()
    try await host.terminate()
  }

  @Test func aHostWithoutHistoryIsExplained() async throws {
    try await self.withHost(["--history", "0"]) { host in
      let result = try await storeclient(["log", "--socket", host.socketPath])
      #expect(result.status == 1)
      #expect(
        result.errors
          == "Error: the host on \(host.socketPath) keeps no history (its welcome does not list "
          + "\"history\"); start it without --history 0\n")
      let normal = try await storeclient(["get", "counter", "--socket", host.socketPath])
      #expect(normal.status == 0)
    }
  }
}

extension JSON {
  /// Member access for tests: `entry["rev"]`.
  subscript(key: String) -> JSON? {
    guard case .object(let object) = self else { return nil }
    return object[key]
  }

  /// Element access for tests.
  subscript(index: Int) -> JSON? {
    guard case .array(let array) = self, array.indices.contains(index) else { return nil }
    return array[index]
  }
}
