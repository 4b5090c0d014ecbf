import Foundation
import Testing
import Wire

@testable import Hosting

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The real `storehost` on a data directory: restarts clean and killed, effects after a crash,
/// the lock, `--reset`, refusals at start, the default directory, snapshots.
@Suite(.serialized)
struct DurableHostTests {
  /// Every scope of the example app that exists now, by name, with its state (or the error
  /// code `get` answers), and the revision they were read at.
  private func everyScope(_ host: HostProcess) throws -> (scopes: [String: JSON], rev: Int64) {
    let client = try WireClient.greeted(path: host.socketPath)
    var id: Int64 = 0
    func get(_ scope: String) throws -> JSON {
      id += 1
      let reply = try client.request(#"{"type":"get","id":\#(id),"scope":"\#(scope)"}"#)
      return reply["state"] ?? reply["code"] ?? .null
    }
    var scopes: [String: JSON] = [:]
    for name in ["counter", "todos", "shop", "shop/products", "shop/cart"] {
      scopes[name] = try get(name)
    }
    for todo in scopes["todos"]?["todos"]?.array ?? [] {
      let name = "todos/" + (todo["id"]?.string ?? "")
      scopes[name] = try get(name)
    }
    for product in scopes["shop/products"]?["products"]?.array ?? [] {
      let id = product["product"]?["id"]?.int ?? product["id"]?.int ?? -1
      scopes["shop/products/\(id)"] = try get("shop/products/\(id)")
      scopes["shop/products/\(id)/addToCart"] = try get("shop/products/\(id)/addToCart")
    }
    id += 1
    let rev = try client.request(#"{"type":"get","id":\#(id),"scope":"counter"}"#)["rev"]?.int
    return (scopes, rev ?? -1)
  }

  /// Waits until the host's log has `text` (its stderr is read as it arrives).
  private func expectLog(_ host: HostProcess, _ text: String) async throws {
    do {
      try await waitUntil("the log has \(text)") { host.stderr.contains(text) }
    } catch {
      Issue.record("the log lacks \(text):\n\(host.stderr)")
    }
  }

  /// Sends an action and waits for its ack.
  @discardableResult
  private func send(_ host: HostProcess, _ scope: String, _ action: String) throws -> Int64 {
    let client = try WireClient.greeted(path: host.socketPath)
    return try DurableFixture.send(client, scope, action, id: 1)
  }

  private func count(_ host: HostProcess) throws -> Int64 {
    let client = try WireClient.greeted(path: host.socketPath)
    let reply = try client.request(#"{"type":"get","id":1,"scope":"counter"}"#)
    return try #require(reply["state"]?["count"]?.int)
  }

  /// Puts something in every part of the example app's state.
  private func populate(_ host: HostProcess) async throws {
    try await waitUntil("the catalog is loaded") {
      let client = try WireClient.greeted(path: host.socketPath)
      let reply = try client.request(#"{"type":"get","id":1,"scope":"shop/products"}"#)
      return reply["state"]?["loadingStatus"] == .string("loaded")
    }
    for _ in 0..<3 { try self.send(host, "counter", #"{"incrementButtonTapped":{}}"#) }
    for _ in 0..<3 { try self.send(host, "todos", #"{"addTodoButtonTapped":{}}"#) }
    let todos = try self.everyScope(host).scopes["todos"]?["todos"]?.array ?? []
    let first = try #require(todos.first?["id"]?.string)
    try self.send(host, "todos/\(first)", #"{"toggleCompleted":{}}"#)
    try self.send(host, "todos/\(first)", #"{"setDescription":{"_0":"Durable"}}"#)
    try self.send(host, "shop/products/1/addToCart", #"{"didTapPlusButton":{}}"#)
    try self.send(host, "shop/products/1/addToCart", #"{"didTapPlusButton":{}}"#)
    try self.send(host, "shop", #"{"cartButtonTapped":{}}"#)
  }

  @Test func aCleanRestartRestoresEveryScopeExactlyAndRevisionsContinue() async throws {
    let data = TemporaryDirectory()
    let arguments = ["--data", data.file("state")]
    var host = try HostProcess(arguments: arguments)
    try await self.populate(host)
    let before = try self.everyScope(host)
    #expect(before.scopes.count > 10)
    #expect(host.stop() == 0)
    try await waitUntil("the host logs its final snapshot") {
      host.stderr.contains("final snapshot of revision \(before.rev)")
    }

    host = try HostProcess(arguments: arguments)
    let after = try self.everyScope(host)
    #expect(after.rev == before.rev)
    for (name, state) in before.scopes {
      #expect(after.scopes[name] == state, "\(name) differs after the restart")
    }
    #expect(after.scopes.keys.sorted() == before.scopes.keys.sorted())
    #expect(try self.send(host, "counter", #"{"incrementButtonTapped":{}}"#) == before.rev + 1)
    try await waitUntil("the host logs its recovery") {
      host.stderr.contains("recovered revision \(before.rev) from \(data.file("state"))")
    }
  }

  @Test func aKilledHostRecoversAddedToDosAndTimerTicksExactly() async throws {
    let data = TemporaryDirectory()
    let arguments = ["--data", data.file("state")]
    var host = try HostProcess(arguments: arguments)
    try await self.populate(host)
    for _ in 0..<2 { try self.send(host, "todos", #"{"addTodoButtonTapped":{}}"#) }
    // The timer's ticks are actions an effect sends: journaled as the root action.
    let start = try self.count(host)
    try self.send(host, "counter", #"{"toggleTimerButtonTapped":{}}"#)
    try await waitUntil("the timer ticked three times") { try self.count(host) >= start + 3 }
    try self.send(host, "counter", #"{"toggleTimerButtonTapped":{}}"#)
    let before = try self.everyScope(host)
    #expect(host.stop(signal: SIGKILL) == SIGKILL)

    host = try HostProcess(arguments: arguments)
    let after = try self.everyScope(host)
    #expect(after.rev == before.rev)
    for (name, state) in before.scopes {
      #expect(after.scopes[name] == state, "\(name) differs after recovery")
    }
    #expect(after.scopes.keys.sorted() == before.scopes.keys.sorted())
  }

  @Test func aTimerThatWasRunningTicksAgainAfterACrash() async throws {
    let data = TemporaryDirectory()
    let arguments = ["--data", data.file("state")]
    var host = try HostProcess(arguments: arguments)
    try self.send(host, "counter", #"{"toggleTimerButtonTapped":{}}"#)
    try await waitUntil("the timer ticked") { try self.count(host) >= 1 }
    #expect(host.stop(signal: SIGKILL) == SIGKILL)

    host = try HostProcess(arguments: arguments)
    let recovered = try self.count(host)
    // The demo app resumes what the recovered state says is running (`stateRestored`).
    try await waitUntil("the timer ticks again") { try self.count(host) >= recovered + 2 }
  }

  @Test func aSecondHostOnTheSameDirectoryIsRefused() async throws {
    let data = TemporaryDirectory()
    let first = try HostProcess(arguments: ["--data", data.file("state")])
    let second = try HostProcess(
      arguments: ["--data", data.file("state")], waitForListening: false)
    #expect(second.stop(signal: 0, timeout: 20) == 1)
    try await self.expectLog(
      second, "\(data.file("state")) is in use by another host (pid \(first.processID))")
    #expect(!FileManager.default.fileExists(atPath: second.socketPath))
    _ = try WireClient.greeted(path: first.socketPath)
  }

  @Test func anUndecodableSnapshotIsRefusedUntilReset() async throws {
    let data = TemporaryDirectory()
    let directory = data.file("state")
    var host = try HostProcess(arguments: ["--data", directory])
    try self.send(host, "counter", #"{"incrementButtonTapped":{}}"#)
    #expect(host.stop() == 0)
    // As if the app's State type changed: the first to-do's `isComplete` is now a string.
    let name = try #require(DataFiles.snapshots(in: directory).last)
    let contents = try SnapshotFile.read(directory + "/" + name)
    let text = String(decoding: contents.state, as: UTF8.self)
      .replacingOccurrences(of: #""isComplete":true"#, with: #""isComplete":"yes""#)
    try SnapshotFile.write(
      state: Array(text.utf8), revision: contents.revision, time: contents.time, name: name,
      in: directory)

    host = try HostProcess(arguments: ["--data", directory], waitForListening: false)
    #expect(host.stop(signal: 0, timeout: 20) == 1)
    try await self.expectLog(host, directory + "/" + name)
    try await self.expectLog(host, "todos.todos[0].isComplete: expected bool")
    try await self.expectLog(host, "--reset")
    #expect(!host.stderr.contains("Fatal error"), "\(host.stderr)")

    host = try HostProcess(arguments: ["--data", directory, "--reset"])
    let moved = try #require(
      DataFiles.names(in: data.path).first { $0.hasPrefix("state.old-") }, "nothing moved aside")
    try await self.expectLog(host, "moved the previous data directory aside to \(data.file(moved))")
    #expect(DataFiles.snapshots(in: data.file(moved)).contains(name), "the old state is kept")
    #expect(try self.count(host) == 0)
    try await self.expectLog(host, "(new directory)")
  }

  @Test func aTornTailIsSetAsideAndTheHostStarts() async throws {
    let data = TemporaryDirectory()
    let directory = data.file("state")
    var host = try HostProcess(arguments: ["--data", directory])
    try self.send(host, "counter", #"{"incrementButtonTapped":{}}"#)
    #expect(host.stop(signal: SIGKILL) == SIGKILL)
    let segment = directory + "/" + (try #require(DataFiles.segments(in: directory).last))
    // Half a record right after the last one (a write cut short): a length announcing more
    // bytes than follow — followed, in a segment written through a mapping, by the zeros it
    // had allocated ahead.
    var end: Int64 = 0
    let ending = try SegmentReader(path: segment).forEachRecord { _, _ in }
    switch ending {
    case .clean(let offset), .zeroFilled(let offset): end = offset
    default: throw HarnessError("the segment does not end cleanly: \(ending)")
    }
    var bytes = try DataFiles.read(segment)
    let torn: [UInt8] = [40, 0, 0, 0, 1, 2, 3, 4, 1, 9]
    if bytes.count < Int(end) + torn.count {
      bytes += [UInt8](repeating: 0, count: Int(end) + torn.count - bytes.count)
    }
    bytes.replaceSubrange(Int(end)..<(Int(end) + torn.count), with: torn)
    try DataFiles.write(bytes, to: segment)

    host = try HostProcess(arguments: ["--data", directory])
    let aside = try #require(DataFiles.names(in: directory).first { $0.contains(".damaged-") })
    try await self.expectLog(host, "moved those bytes aside to \(directory)/\(aside)")
    #expect(try DataFiles.read(directory + "/" + aside) == [40, 0, 0, 0, 1, 2, 3, 4, 1, 9])
    #expect(try self.count(host) == 1)
  }

  @Test func damageInTheMiddleOfTheJournalRefusesToStart() async throws {
    let data = TemporaryDirectory()
    let directory = data.file("state")
    var host = try HostProcess(arguments: ["--data", directory])
    for _ in 0..<3 { try self.send(host, "counter", #"{"incrementButtonTapped":{}}"#) }
    #expect(host.stop(signal: SIGKILL) == SIGKILL)
    let segment = directory + "/" + (try #require(DataFiles.segments(in: directory).last))
    var offsets: [Int64] = []
    _ = try SegmentReader(path: segment).forEachRecord { _, offset in offsets.append(offset) }
    var bytes = try DataFiles.read(segment)
    let damaged = offsets[offsets.count - 2]
    bytes[Int(damaged) + 10] ^= 0x80
    try DataFiles.write(bytes, to: segment)

    host = try HostProcess(arguments: ["--data", directory], waitForListening: false)
    #expect(host.stop(signal: 0, timeout: 20) == 1)
    try await self.expectLog(host, "the journal \(segment) is damaged at offset \(damaged)")
    try await self.expectLog(host, "restore \(directory) from a backup")
    #expect(try DataFiles.read(segment) == bytes, "the journal was changed")
  }

  @Test func theDefaultDirectoryIsPrivateUnderTheStateHome() throws {
    let home = TemporaryDirectory()
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_STATE_HOME"] = home.file("xdg")
    let host = try HostProcess(environment: environment, storage: [])
    let directory = home.file("xdg/storehost/examples")
    #expect(try FileSystem.status(directory).mode == 0o700)
    #expect(!DataFiles.snapshots(in: directory).isEmpty)
    let welcome = try WireClient(path: host.socketPath).hello()
    #expect(
      welcome["features"]?.array?.contains(.string("durable")) == true, "\(welcome.compactString)")
    #expect(host.stop() == 0)

    environment["XDG_STATE_HOME"] = nil
    environment["HOME"] = home.file("home")
    let fallback = try HostProcess(environment: environment, storage: [])
    #expect(
      FileManager.default.fileExists(atPath: home.file("home/.local/state/storehost/examples/lock"))
    )
    #expect(fallback.stop() == 0)
  }

  @Test func anEphemeralHostWritesNothingAndIsNotDurable() throws {
    let home = TemporaryDirectory()
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_STATE_HOME"] = home.file("xdg")
    environment["HOME"] = home.file("home")
    let host = try HostProcess(environment: environment, storage: ["--ephemeral"])
    let welcome = try WireClient(path: host.socketPath).hello()
    #expect(welcome["features"]?.array?.contains(.string("durable")) != true)
    #expect(host.stop() == 0)
    #expect(DataFiles.names(in: home.path).isEmpty)
  }

  @Test(arguments: [
    (
      ["--ephemeral", "--data", "/tmp/x"],
      "'--ephemeral' keeps no data: it cannot be combined with '--data'"
    ),
    (
      ["--ephemeral", "--reset"],
      "'--ephemeral' keeps no data: it cannot be combined with '--reset'"
    ),
    (
      ["--fsync", "sometimes"],
      "The value 'sometimes' is invalid for '--fsync <mode>': expected one of always, everysec, no"
    ),
  ])
  func contradictoryStorageOptionsAreUsageErrors(arguments: [String], message: String) async throws
  {
    let host = try HostProcess(arguments: arguments, waitForListening: false, storage: [])
    #expect(host.stop(signal: 0, timeout: 20) == 64)
    try await self.expectLog(host, "Error: \(message)")
  }

  @Test func snapshotsAreTakenAsTheJournalGrowsAndOldFilesPruned() async throws {
    let data = TemporaryDirectory()
    let directory = data.file("state")
    let arguments = ["--data", directory, "--snapshot-min-size", "2000", "--snapshot-growth", "10"]
    var host = try HostProcess(arguments: arguments)
    let client = try WireClient.greeted(path: host.socketPath)
    // Snapshots are taken in the background: keep the journal growing until three were written.
    var id: Int64 = 0
    while host.stderr.components(separatedBy: #"written ("#).count <= 3 {
      id += 1
      try DurableFixture.send(client, "todos", #"{"addTodoButtonTapped":{}}"#, id: id)
      #expect(id < 20_000, "no third snapshot after \(id) actions:\n\(host.stderr)")
      if id >= 20_000 { return }
    }
    let snapshots = DataFiles.snapshots(in: directory)
    #expect(snapshots.count <= 2, "\(snapshots)")
    let oldest = try #require(snapshots.first.flatMap(DataLayout.snapshotRevision))
    for name in DataFiles.segments(in: directory) {
      let start = try #require(DataLayout.segmentRevision(name))
      #expect(start >= oldest, "\(name) precedes the oldest snapshot kept (\(oldest))")
    }
    let before = try self.everyScope(host)
    #expect(host.stop(signal: SIGKILL) == SIGKILL)
    host = try HostProcess(arguments: arguments)
    let after = try self.everyScope(host)
    #expect(after.rev == before.rev)
    #expect(after.scopes == before.scopes)
  }
}
