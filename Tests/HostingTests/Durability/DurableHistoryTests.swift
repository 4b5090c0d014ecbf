import Foundation
import Testing
import Wire

@testable import Hosting

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The history of a durable `storehost` (PROTOCOL.md §8) read back from its data directory:
/// entries and past states from before a restart (clean or `kill -9`), with their origins,
/// reaching back to the oldest snapshot kept and no further. The hosts keep 4 entries in memory
/// (`--history 4`), so nearly everything is read from the journal.
@Suite(.serialized)
struct DurableHistoryTests {
  /// An increment the test sent, and what it saw.
  private struct Sent {
    let revision: Int64
    let client: String
    /// The counter's count right after it.
    let count: Int64
  }

  private func start(_ data: TemporaryDirectory) throws -> HostProcess {
    try HostProcess(arguments: ["--data", data.file("state"), "--history", "4"])
  }

  /// A client that said hello as `name`.
  private func client(_ host: HostProcess, name: String) throws -> WireClient {
    let client = try WireClient(path: host.socketPath)
    try client.send(#"{"type":"hello","protocol":1,"client":"\#(name)"}"#)
    let welcome = try client.expect("welcome")
    #expect(welcome["features"]?.array?.contains(.string("durable")) == true)
    #expect(welcome["features"]?.array?.contains(.string("history")) == true)
    return client
  }

  /// Sends `count` increments as `name`, returning what each produced.
  private func increment(
    _ host: HostProcess, as name: String, times: Int, after previous: [Sent]
  ) throws -> [Sent] {
    let client = try self.client(host, name: name)
    var sent = previous
    for index in 0..<times {
      let revision = try DurableFixture.send(
        client, "counter", #"{"incrementButtonTapped":{}}"#, id: Int64(index + 1))
      sent.append(Sent(revision: revision, client: name, count: Int64(sent.count + 1)))
    }
    return sent
  }

  /// The scope's state at `revision`, or the error code.
  private func state(_ client: WireClient, _ scope: String, at revision: Int64) throws -> JSON {
    try client.send(#"{"type":"get","id":90,"scope":"\#(scope)","at":\#(revision)}"#)
    let reply = try client.next(timeout: 60)
    if reply["type"] == .string("state") {
      #expect(reply["rev"]?.int == revision)
      return reply["state"] ?? .null
    }
    return reply["code"] ?? .null
  }

  /// Every entry after `since`, read with `history` pages of at most 10,000.
  private func entries(_ client: WireClient, since: Int64) throws -> (oldest: Int64, [JSON]) {
    var all: [JSON] = []
    var since = since
    var oldest: Int64 = -1
    while true {
      try client.send(#"{"type":"history","id":91,"since":\#(since),"limit":10000}"#)
      let reply = try client.next(timeout: 60)
      #expect(reply["type"] == .string("history"), "\(reply.compactString)")
      oldest = reply["oldest"]?.int ?? -1
      let page = reply["entries"]?.array ?? []
      all += page
      guard let last = page.last?["rev"]?.int, last < (reply["rev"]?.int ?? 0) else { break }
      since = last
    }
    return (oldest, all)
  }

  /// Checks that `entries` are contiguous from `first`, and that each increment in `sent` is
  /// there with its origin: the client's name, this process's pid and uid.
  private func check(_ entries: [JSON], from first: Int64, contain sent: [Sent]) {
    let revisions = entries.compactMap { $0["rev"]?.int }
    #expect(revisions == Array(first..<(first + Int64(revisions.count))), "contiguous entries")
    let byRevision = Dictionary(
      entries.compactMap { entry in entry["rev"]?.int.map { ($0, entry) } },
      uniquingKeysWith: { first, _ in first })
    for increment in sent {
      guard let entry = byRevision[increment.revision] else {
        Issue.record("no entry for revision \(increment.revision)")
        continue
      }
      let origin = entry["origin"]
      #expect(origin?["kind"] == .string("client"))
      #expect(origin?["client"] == .string(increment.client))
      #expect(origin?["pid"]?.int == Int64(getpid()))
      #expect(origin?["uid"]?.int == Int64(getuid()))
      #expect(entry["scope"] == .string("counter"))
      #expect(entry["action"]?.compactString == #"{"incrementButtonTapped":{}}"#)
    }
  }

  @Test func entriesAndPastStatesFromBeforeAKillAndARestartAreReadFromTheJournal() async throws {
    let data = TemporaryDirectory()
    var host = try self.start(data)
    var sent = try self.increment(host, as: "alpha", times: 6, after: [])
    // A to-do with a fresh id: its state at that revision must come back exactly.
    let alpha = try self.client(host, name: "alpha")
    let added = try DurableFixture.send(alpha, "todos", #"{"addTodoButtonTapped":{}}"#, id: 7)
    let todosThen = try #require(
      try alpha.request(#"{"type":"get","id":8,"scope":"todos"}"#)["state"])
    #expect(host.stop(signal: SIGKILL) == SIGKILL)

    // After kill -9: everything from before comes from the journal.
    host = try self.start(data)
    sent = try self.increment(host, as: "beta", times: 3, after: sent)
    let reader = try self.client(host, name: "reader")
    let (oldest, entries) = try self.entries(reader, since: 0)
    #expect(oldest == 1, "a new directory's history starts at its first revision")
    self.check(entries, from: 1, contain: sent)
    for increment in sent {
      let counter = try self.state(reader, "counter", at: increment.revision)
      #expect(counter["count"]?.int == increment.count, "count at \(increment.revision)")
    }
    #expect(try self.state(reader, "todos", at: added) == todosThen)

    // The newest entries without `since`, though memory holds only the last few.
    let newest = try reader.request(#"{"type":"history","id":20,"limit":8}"#)
    let newestRevisions = newest["entries"]?.array?.compactMap { $0["rev"]?.int } ?? []
    let now = try #require(newest["rev"]?.int)
    #expect(newestRevisions == Array((now - 7)...now))

    // A tail from the start gets the journal's entries, then memory's, in order, and every
    // entry up to an ack before the ack.
    let tailer = try self.client(host, name: "tailer")
    let tailing = try tailer.request(#"{"type":"tail","id":1,"since":0}"#)
    let sub = try #require(tailing["sub"]?.int)
    try tailer.send(
      #"{"type":"send","id":2,"scope":"counter","action":{"incrementButtonTapped":{}}}"#)
    var tailed: [Int64] = []
    while true {
      let message = try tailer.next(timeout: 60)
      if message["type"] == .string("ack") {
        #expect(tailed.last == message["rev"]?.int, "the tail reached the ack's revision first")
        break
      }
      #expect(message["type"] == .string("entry"), "\(message.compactString)")
      #expect(message["sub"]?.int == sub)
      if let revision = message["rev"]?.int { tailed.append(revision) }
    }
    #expect(tailed == Array(1...(tailed.last ?? 0)))
    #expect(host.stop() == 0)
  }

  @Test func theHistoryReachesBackToTheOldestSnapshotKeptAndNoFurther() async throws {
    let data = TemporaryDirectory()
    var sent: [Sent] = []
    // Each clean stop writes a snapshot; the host keeps the last two.
    for (round, name) in ["one", "two", "three"].enumerated() {
      let host = try self.start(data)
      sent = try self.increment(host, as: name, times: 3 + round, after: sent)
      #expect(host.stop() == 0)
    }
    let snapshots = DataFiles.snapshots(in: data.file("state")).compactMap {
      Int64($0.dropFirst("snapshot-".count).prefix { $0.isNumber })
    }.sorted()
    #expect(snapshots.count == 2)
    let kept = try #require(snapshots.first)
    #expect(kept > 0, "the oldest snapshot kept is the second stop's")

    let host = try self.start(data)
    let reader = try self.client(host, name: "reader")
    let (oldest, entries) = try self.entries(reader, since: 0)
    #expect(oldest == kept + 1)
    self.check(entries, from: kept + 1, contain: sent.filter { $0.revision > kept })
    for increment in sent where increment.revision >= kept {
      let counter = try self.state(reader, "counter", at: increment.revision)
      #expect(counter["count"]?.int == increment.count, "count at \(increment.revision)")
    }
    #expect(try self.state(reader, "counter", at: kept - 1) == .string("revision_unavailable"))
    #expect(try self.state(reader, "counter", at: 1) == .string("revision_unavailable"))
    // A tail from before what is kept is told what it missed, then gets the rest.
    let tailing = try reader.request(#"{"type":"tail","id":1,"since":0}"#)
    #expect(tailing["type"] == .string("tailing"))
    let gap = try reader.next(timeout: 60)
    #expect(gap["type"] == .string("entry_gap"))
    #expect(gap["from"]?.int == 0)
    #expect(gap["to"]?.int == kept)
    #expect(try reader.next(timeout: 60)["rev"]?.int == kept + 1)
    #expect(host.stop() == 0)
  }

  @Test func aTailFromTheStartReadsALongJournalInChunksWithoutAHole() async throws {
    let data = TemporaryDirectory()
    var host = try self.start(data)
    // More than two chunks of the backfill (1,000 entries each), pipelined.
    let total = 2_500
    let sender = try self.client(host, name: "sender")
    // The acknowledged revisions: the app's launch effect (the shop's catalog) may reduce its
    // actions between them, so they need not be the last `total` revisions.
    var acknowledged: [Int64] = []
    for batch in 0..<(total / 250) {
      for index in 0..<250 {
        let id = batch * 250 + index + 1
        try sender.send(
          #"{"type":"send","id":\#(id),"scope":"counter","action":{"incrementButtonTapped":{}}}"#)
      }
      for _ in 0..<250 {
        let ack = try sender.expect("ack", timeout: 60)
        acknowledged.append(try #require(ack["rev"]?.int))
      }
    }
    #expect(host.stop(signal: SIGKILL) == SIGKILL)

    host = try self.start(data)
    let tailer = try self.client(host, name: "tailer")
    let tailing = try tailer.request(#"{"type":"tail","id":1,"since":0,"scope":"counter"}"#)
    #expect(tailing["type"] == .string("tailing"))
    var revisions: [Int64] = []
    while revisions.count < total {
      let entry = try tailer.next(timeout: 60)
      #expect(entry["type"] == .string("entry"), "\(entry.compactString)")
      guard let revision = entry["rev"]?.int else { break }
      #expect(entry["origin"]?["client"] == .string("sender"))
      revisions.append(revision)
    }
    #expect(revisions == acknowledged)
    #expect(host.stop() == 0)
  }
}
