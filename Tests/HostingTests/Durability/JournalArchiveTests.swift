import Examples
import Foundation
import Testing
import Wire

@testable import Hosting

/// Reading a durable host's files back while it runs, off its event loop: the records after a
/// revision, the snapshot at or before one, and any past state rebuilt from them.
@Suite(.serialized)
struct JournalArchiveTests {
  /// A running host with several snapshots and segments behind it, and the state's JSON after
  /// each revision.
  private func busyHost() async throws -> (TemporaryDirectory, DurableFixture.Host, [Int64: String])
  {
    let directory = TemporaryDirectory()
    let persistence = Persistence.directory(
      directory.file("data"),
      snapshots: SnapshotPolicy(minimumJournalBytes: 400, growthPercentage: 0))
    let host = try await DurableFixture.start(in: directory, persistence: persistence)
    var states: [Int64: String] = [0: try DurableFixture.json(await host.state)]
    let client = try WireClient.greeted(path: host.socketPath)
    // Until older snapshots were pruned (snapshots are written in the background).
    var id: Int64 = 0
    while id < 30 || (host.core.durability?.archive.oldestRevision() ?? 0) == 0 {
      id += 1
      let revision: Int64
      switch id % 3 {
      case 0:
        await host.send(.counter(.decrementButtonTapped))
        revision = host.revision
      case 1:
        revision = try DurableFixture.send(client, "todos", #"{"addTodoButtonTapped":{}}"#, id: id)
      default:
        revision = try DurableFixture.send(
          client, "counter", #"{"incrementButtonTapped":{}}"#, id: id)
      }
      states[revision] = try DurableFixture.json(await host.state)
      #expect(id < 10_000, "no snapshot was pruned")
      if id >= 10_000 { break }
    }
    // No snapshot (and no pruning) happens while the test reads: nothing is sent any more.
    host.core.durability?.waitUntilSnapshotsAreWritten()
    return (directory, host, states)
  }

  /// Runs `body` on a thread of its own (never the host's loop), as the history will.
  private func offTheLoop<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T
  {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try body() }) }.start()
    }
  }

  @Test func readsTheRecordsAfterARevisionWithTheirOrigins() async throws {
    let (directory, host, _) = try await self.busyHost()
    let archive = try #require(host.core.durability?.archive)
    #expect(DataFiles.snapshots(in: directory.file("data")).count == 2, "two snapshots kept")
    let oldest = try #require(archive.oldestRevision())
    #expect(oldest > 0, "older snapshots were pruned")
    let records = try await self.offTheLoop {
      var records: [JournalRecord] = []
      try archive.forEachRecord(after: oldest, through: oldest + 9) {
        records.append($0)
        return true
      }
      return records
    }
    #expect(records.map(\.revision) == Array((oldest + 1)...(oldest + 9)))
    for record in records {
      switch record.revision % 3 {
      case 0:
        #expect(record.origin == .host)
        #expect(record.scope == nil)
        #expect(
          record.action == (try JSON(parsing: #"{"counter":{"_0":{"decrementButtonTapped":{}}}}"#)))
      case 1:
        guard case .client(_, let client, let pid, _) = record.origin else {
          Issue.record("revision \(record.revision) is not a client's: \(record.origin)")
          continue
        }
        #expect(client == "hosting-tests")
        #expect(pid == getpid())
        #expect(record.scope == "todos")
        #expect(record.draws.count == 1, "the new to-do's id")
      default:
        #expect(record.scope == "counter")
        #expect(record.action == (try JSON(parsing: #"{"incrementButtonTapped":{}}"#)))
      }
    }
    // Stopping early, and reading nothing before what is kept.
    var seen = 0
    try archive.forEachRecord(after: oldest) { _ in
      seen += 1
      return seen < 3
    }
    #expect(seen == 3)
    #expect(throws: JournalArchive.ArchiveError.self) {
      try archive.forEachRecord(after: oldest - 1) { _ in true }
    }
    await host.shutdown()
  }

  @Test func rebuildsEveryPastStateKeptWhileTheHostRuns() async throws {
    let (directory, host, states) = try await self.busyHost()
    defer { withExtendedLifetime(directory) {} }
    let durability = try #require(host.core.durability)
    let oldest = try #require(durability.archive.oldestRevision())
    let snapshot = try durability.archive.snapshot(atOrBefore: oldest + 1)
    #expect(snapshot.revision == oldest)
    let last = try #require(states.keys.max())
    let pastStates = durability.pastStates
    let rebuilt = try await self.offTheLoop {
      try (oldest...last).map { revision in
        (revision, try DurableFixture.json(try pastStates.state(at: revision)))
      }
    }
    for (revision, json) in rebuilt {
      #expect(json == states[revision], "revision \(revision) rebuilt differently")
    }
    #expect(throws: JournalArchive.ArchiveError.unavailable(revision: oldest - 1, oldest: oldest)) {
      _ = try pastStates.state(at: oldest - 1)
    }
    await host.shutdown()
  }
}
