import Foundation
import Testing
import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The history of PROTOCOL.md §8 — entries, `history`, `tail`, `get` with `at` — against the
/// real `storehost`.
@Suite(.serialized)
struct HistoryTests {
  private static let increment = #"{"incrementButtonTapped":{}}"#

  /// A send frame to `scope` (with an `id` when given).
  private static func send(_ scope: String, _ action: String, id: Int? = nil) -> [UInt8] {
    let id = id.map { #","id":\#($0)"# } ?? ""
    return WireClient.frame(Array(#"{"type":"send"\#(id),"scope":"\#(scope)","action":\#(action)}"#.utf8))
  }

  /// Starts a host and waits until its own start-up actions (the shop's catalog: a host action
  /// and its two effect actions, revisions 1 to 3) are reduced, so that revisions are
  /// predictable.
  private func settledHost(arguments: [String] = []) throws -> HostProcess {
    let host = try HostProcess(arguments: arguments)
    let client = try WireClient.greeted(path: host.socketPath)
    let deadline = Date().addingTimeInterval(20)
    while try client.request(#"{"type":"history","id":1,"limit":1}"#)["rev"]?.int ?? 0 < 3 {
      guard Date() < deadline else { throw HarnessError("storehost did not load its catalog") }
      usleep(10_000)
    }
    return host
  }

  /// Reads frames until the reply with `id`, returning it and the pushes before it.
  private func reply(_ id: Int64, from client: WireClient) throws -> (JSON, [JSON]) {
    var pushes: [JSON] = []
    while true {
      let message = try client.next()
      if message["id"]?.int == id { return (message, pushes) }
      pushes.append(message)
    }
  }

  // MARK: - Entries

  @Test func welcomeListsHistoryUnlessItIsTurnedOff() throws {
    let host = try HostProcess()
    let welcome = try WireClient(path: host.socketPath).hello()
    #expect(welcome["features"] == .array([.string("history")]))

    let without = try HostProcess(arguments: ["--history", "0"])
    let client = try WireClient(path: without.socketPath)
    #expect(try client.hello()["features"] == nil)
    let refused = try client.request(#"{"type":"history","id":1}"#)
    #expect(refused["code"] == .string("bad_message"))
  }

  @Test func entriesNameTheRealClientTheHostAndEffects() throws {
    let host = try self.settledHost()
    let client = try WireClient(path: host.socketPath)
    let session = try #require(client.hello()["session"]?.string)
    try client.sendRaw(Self.send("counter", Self.increment, id: 1))
    let rev = try #require(client.expect("ack")["rev"]?.int)
    let page = try client.request(#"{"type":"history","id":2}"#)
    #expect(page["type"] == .string("history"))
    #expect(page["rev"]?.int == rev && page["oldest"]?.int == 1)
    let entries = try #require(page["entries"]?.array)
    #expect(entries.map { $0["rev"]?.int } == (1...rev).map { Optional($0) }, "every reduced action")
    // storehost loads the shop's catalog itself at start: a host action, then its effect's.
    #expect(entries.first?["origin"] == .object(["kind": .string("host")]))
    #expect(entries.first?["scope"] == .null)
    #expect(entries.first?["action"] == J(#"{"shop":{"_0":{"task":{}}}}"#))
    #expect(entries.dropFirst().first?["origin"] == .object(["kind": .string("effect")]))
    let mine = try #require(entries.last)
    #expect(
      mine["origin"]
        == .object([
          "kind": .string("client"), "session": .string(session),
          "client": .string("hosting-tests"), "pid": .int(Int64(getpid())),
          "uid": .int(Int64(getuid())),
        ]))
    #expect(mine["scope"] == .string("counter"))
    #expect(mine["action"] == J(Self.increment))
    let time = try #require(mine["time"]?.string)
    #expect(time.count == 24 && time.hasSuffix("Z") && time.contains("T"), "RFC 3339 UTC with ms: \(time)")
  }

  @Test func theTimersTicksAreEffectEntries() throws {
    let host = try self.settledHost()
    let client = try WireClient.greeted(path: host.socketPath)
    _ = try client.request(#"{"type":"tail","id":1,"scope":"counter"}"#)
    let effects = try client.request(#"{"type":"tail","id":2}"#)
    let all = try #require(effects["sub"]?.int)
    try client.sendRaw(Self.send("counter", #"{"toggleTimerButtonTapped":{}}"#, id: 3))
    // The first tick arrives about a second later, as an effect's entry.
    var tick: JSON?
    let deadline = Date().addingTimeInterval(30)
    while tick == nil, Date() < deadline {
      let message = try client.next(timeout: 30)
      if message["type"] == .string("entry"), message["origin"]?["kind"] == .string("effect") {
        #expect(message["sub"]?.int == all, "an effect entry is not sent to a scope's tail")
        tick = message
      }
    }
    try #require(tick != nil, "no effect entry within 30 s")
    #expect(tick?["scope"] == .null)
    #expect(tick?["action"] == J(#"{"counter":{"_0":{"timerTick":{}}}}"#))
    try client.sendRaw(Self.send("counter", #"{"toggleTimerButtonTapped":{}}"#, id: 4))
  }

  // MARK: - history

  @Test func historyFiltersBySinceLimitScopeAndPattern() throws {
    let host = try self.settledHost()
    let client = try WireClient.greeted(path: host.socketPath)
    var batch: [UInt8] = []
    for _ in 0..<3 { batch += Self.send("todos", #"{"addTodoButtonTapped":{}}"#) }
    for _ in 0..<5 { batch += Self.send("counter", Self.increment) }
    try client.sendRaw(batch)
    let todos = try #require(client.request(#"{"type":"get","id":1,"scope":"todos"}"#)["state"])
    let id = try #require(todos["todos"]?[0]?["id"]?.string)
    try client.sendRaw(Self.send("todos/\(id)", #"{"toggleCompleted":{}}"#, id: 2))
    let rev = try #require(client.expect("ack")["rev"]?.int)  // 3 start-up + 3 + 5 + 1

    func revs(_ request: String) throws -> [Int64] {
      let page = try client.request(request)
      return try #require(page["entries"]?.array).compactMap { $0["rev"]?.int }
    }
    #expect(try revs(#"{"type":"history","id":3,"limit":2}"#) == [rev - 1, rev])
    #expect(try revs(#"{"type":"history","id":4,"since":3,"limit":2}"#) == [4, 5])
    #expect(try revs(#"{"type":"history","id":5,"since":10}"#) == [11, 12])
    #expect(try revs(#"{"type":"history","id":6,"scope":"counter","limit":3}"#) == [9, 10, 11])
    #expect(try revs(#"{"type":"history","id":7,"scope":"counter","since":6,"limit":2}"#) == [7, 8])
    #expect(try revs(#"{"type":"history","id":8,"scope":"todos/{id}"}"#) == [12])
    #expect(try revs(#"{"type":"history","id":9,"scope":"todos/\#(id)"}"#) == [12])
    #expect(try revs(#"{"type":"history","id":10,"scope":"todos"}"#) == [4, 5, 6])
    #expect(try revs(#"{"type":"history","id":11,"scope":"shop"}"#) == [])
    let unknown = try client.request(#"{"type":"history","id":12,"scope":"countr"}"#)
    #expect(unknown["code"] == .string("unknown_scope"))
    let zero = try client.request(#"{"type":"history","id":13,"limit":0}"#)
    #expect(zero["code"] == .string("bad_message"))
  }

  @Test func extremeRevisionsAreAnsweredAndTheHostGoesOn() throws {
    let host = try self.settledHost()
    let client = try WireClient.greeted(path: host.socketPath)
    let max = Int64.max
    let min = Int64.min
    let future = try client.request(#"{"type":"history","id":1,"since":\#(max)}"#)
    #expect(future["entries"] == .array([]))
    let past = try client.request(#"{"type":"history","id":2,"since":\#(min),"limit":1}"#)
    #expect(past["entries"]?[0]?["rev"] == .int(1))
    for at in [max, min] {
      let state = try client.request(#"{"type":"get","id":5,"scope":"counter","at":\#(at)}"#)
      #expect(state["code"] == .string("revision_unavailable"))
    }
    #expect(try client.request(#"{"type":"tail","id":3,"since":\#(max)}"#)["type"] == .string("tailing"))
    #expect(try client.request(#"{"type":"tail","id":4,"since":\#(min)}"#)["type"] == .string("tailing"))
    // The tail from the start sends the kept entries; the host is alive and answers.
    try client.send(#"{"type":"ping","id":6}"#)
    let (pong, pushes) = try self.reply(6, from: client)
    #expect(pong["type"] == .string("pong"))
    #expect(pushes.map { $0["rev"]?.int } == [1, 2, 3])
  }

  @Test func aLimitOverTenThousandIsReadAsTenThousand() throws {
    let host = try self.settledHost()
    let client = try WireClient.greeted(path: host.socketPath)
    let frame = Self.send("counter", Self.increment)
    var batch: [UInt8] = []
    for _ in 0..<10_050 { batch += frame }
    try client.sendRaw(batch)
    let page = try client.request(#"{"type":"history","id":1,"limit":1000000}"#)
    let entries = try #require(page["entries"]?.array)
    #expect(entries.count == 10_000)
    #expect(entries.last?["rev"] == page["rev"])
  }

  @Test func historyKeepsTheLastNEntriesAndSaysWhichIsOldest() throws {
    let host = try self.settledHost(arguments: ["--history", "8"])
    let client = try WireClient.greeted(path: host.socketPath)
    var rev: Int64 = 0
    for id in 0..<40 {
      try client.sendRaw(Self.send("counter", Self.increment, id: id))
      rev = try #require(client.expect("ack")["rev"]?.int)
    }
    let page = try client.request(#"{"type":"history","id":2,"since":0,"limit":100}"#)
    let oldest = try #require(page["oldest"]?.int)
    let revs = try #require(page["entries"]?.array).compactMap { $0["rev"]?.int }
    #expect(revs == Array(oldest...rev), "entries from the oldest kept, contiguous")
    #expect(revs.count >= 8 && revs.count <= 8 + 2 + 1, "at least --history entries, at most a quarter more")
  }

  // MARK: - tail

  @Test func tailsGetEveryEntryInOrderBeforeTheAcksThatFollowThem() throws {
    let host = try self.settledHost()
    let reader = try WireClient.greeted(path: host.socketPath)
    let other = try WireClient.greeted(path: host.socketPath)
    let tailing = try reader.request(#"{"type":"tail","id":1}"#)
    #expect(tailing["type"] == .string("tailing"))
    let sub = try #require(tailing["sub"]?.int)
    var expected = try #require(tailing["rev"]?.int) + 1
    // Another connection's actions interleave with this one's.
    var theirs: [UInt8] = []
    for _ in 0..<200 { theirs += Self.send("counter", #"{"decrementButtonTapped":{}}"#) }
    try other.sendRaw(theirs)
    for id in 2..<102 {
      try reader.sendRaw(Self.send("counter", Self.increment, id: id))
    }
    for id in Int64(2)..<102 {
      let (ack, pushes) = try self.reply(id, from: reader)
      for entry in pushes {
        #expect(entry["type"] == .string("entry") && entry["sub"]?.int == sub)
        #expect(entry["rev"]?.int == expected, "entries come in revision order, none skipped")
        expected += 1
      }
      let rev = try #require(ack["rev"]?.int)
      #expect(expected > rev, "before ack{rev: \(rev)} the tail had every entry up to it")
    }
  }

  @Test func aTailWithSinceSendsTheKeptEntriesFirstThenUnsubscribeEndsIt() throws {
    let host = try self.settledHost()
    let client = try WireClient.greeted(path: host.socketPath)
    var batch: [UInt8] = []
    for _ in 0..<5 { batch += Self.send("counter", Self.increment) }
    try client.sendRaw(batch)
    _ = try client.request(#"{"type":"ping","id":1}"#)
    let tailing = try client.request(#"{"type":"tail","id":2,"since":4,"scope":"counter"}"#)
    #expect(tailing["rev"]?.int == 8)
    let sub = try #require(tailing["sub"]?.int)
    try client.send(#"{"type":"ping","id":3}"#)
    let (pong, pushes) = try self.reply(3, from: client)
    #expect(pong["type"] == .string("pong"))
    #expect(pushes.map { $0["rev"]?.int } == [5, 6, 7, 8])
    let ok = try client.request(#"{"type":"unsubscribe","id":4,"sub":\#(sub)}"#)
    #expect(ok["type"] == .string("ok"))
    try client.sendRaw(Self.send("counter", Self.increment, id: 5))
    #expect(try client.next()["type"] == .string("ack"), "no entry after the tail ended")
    let again = try client.request(#"{"type":"unsubscribe","id":6,"sub":\#(sub)}"#)
    #expect(again["code"] == .string("not_subscribed"))
  }

  @Test func tailsCountAgainstTheSubscriptionLimit() throws {
    let host = try HostProcess(arguments: ["--max-subscriptions", "2"])
    let client = try WireClient.greeted(path: host.socketPath)
    #expect(try client.request(#"{"type":"subscribe","id":1,"scope":"counter"}"#)["type"] == .string("subscribed"))
    #expect(try client.request(#"{"type":"tail","id":2}"#)["type"] == .string("tailing"))
    #expect(try client.request(#"{"type":"tail","id":3}"#)["code"] == .string("overloaded"))
    #expect(try client.request(#"{"type":"subscribe","id":4,"scope":"todos"}"#)["code"] == .string("overloaded"))
  }

  @Test func aStalledReaderGetsAGapAndTheHostsMemoryStaysBounded() throws {
    let host = try HostProcess(arguments: ["--history", "1000"])
    let stalled = try WireClient.greeted(path: host.socketPath)
    let sender = try WireClient.greeted(path: host.socketPath)
    _ = try sender.request(#"{"type":"send","id":1,"scope":"todos","action":{"addTodoButtonTapped":{}}}"#)
    let todos = try #require(sender.request(#"{"type":"get","id":2,"scope":"todos"}"#)["state"])
    let id = try #require(todos["todos"]?[0]?["id"]?.string)
    let start = try #require(stalled.request(#"{"type":"tail","id":1}"#)["rev"]?.int)
    let before = try #require(host.residentKilobytes)
    // The reader does not read while 100,000 actions are reduced: far more than its socket
    // holds or the history keeps.
    let padding = String(repeating: "x", count: 200)
    let frame = Self.send("todos/\(id)", #"{"setDescription":{"_0":"\#(padding)"}}"#)
    for _ in 0..<100 {
      var batch: [UInt8] = []
      for _ in 0..<1_000 { batch += frame }
      try sender.sendRaw(batch)
      _ = try sender.request(#"{"type":"ping","id":2}"#)
    }
    let after = try #require(host.residentKilobytes)
    #expect(after - before < 32 * 1024, "host memory grew by \(after - before) KiB")
    let final = try #require(sender.request(#"{"type":"ping","id":3}"#)["type"]) == .string("pong")
    #expect(final)
    // Now it reads: every revision is covered once, in order, by an entry or a gap.
    var next = start + 1
    var gaps = 0
    while next <= start + 100_000 {
      let message = try stalled.next(timeout: 30)
      if message["type"] == .string("entry") {
        #expect(message["rev"]?.int == next)
        next += 1
      } else {
        #expect(message["type"] == .string("entry_gap"))
        #expect(message["from"]?.int == next - 1)
        let to = try #require(message["to"]?.int)
        #expect(to >= next)
        next = to + 1
        gaps += 1
      }
    }
    #expect(gaps >= 1)
    #expect(next == start + 100_001)
  }

  // MARK: - get with at

  @Test func getAtEqualsTheStateTheHostHadAtThatRevision() throws {
    let host = try self.settledHost(arguments: ["--history", "40"])
    let client = try WireClient.greeted(path: host.socketPath)
    var recorded: [Int64: (counter: JSON, todos: JSON)] = [:]
    func record() throws {
      let counter = try client.request(#"{"type":"get","id":100,"scope":"counter"}"#)
      let todos = try client.request(#"{"type":"get","id":101,"scope":"todos"}"#)
      #expect(counter["rev"] == todos["rev"])
      recorded[try #require(counter["rev"]?.int)] = (try #require(counter["state"]), try #require(todos["state"]))
    }
    try record()
    for step in 0..<60 {
      let action =
        switch step % 4 {
        case 0: Self.send("counter", Self.increment, id: step)
        case 1: Self.send("todos", #"{"addTodoButtonTapped":{}}"#, id: step)
        case 2: Self.send("counter", #"{"decrementButtonTapped":{}}"#, id: step)
        default: Self.send("counter", Self.increment, id: step)
        }
      try client.sendRaw(action)
      _ = try client.expect("ack")
      try record()
    }
    let page = try client.request(#"{"type":"history","id":1,"limit":1}"#)
    let oldest = try #require(page["oldest"]?.int) - 1
    var checked = 0
    for (rev, states) in recorded.sorted(by: { $0.key < $1.key }) {
      let counter = try client.request(#"{"type":"get","id":2,"scope":"counter","at":\#(rev)}"#)
      guard rev >= oldest else {
        #expect(counter["code"] == .string("revision_unavailable"))
        #expect(counter["message"]?.string?.contains("the oldest available revision is \(oldest)") == true)
        continue
      }
      #expect(counter["rev"]?.int == rev)
      #expect(counter["state"] == states.counter, "counter at \(rev)")
      // The to-dos' ids and dates were drawn by the reducer: replay gives back the recorded ones.
      let todos = try client.request(#"{"type":"get","id":3,"scope":"todos","at":\#(rev)}"#)
      #expect(todos["state"] == states.todos, "todos at \(rev)")
      checked += 1
    }
    #expect(checked >= 40)
  }

  @Test func getAtAnswersInRequestOrderAndSaysWhatIsUnavailable() throws {
    let host = try self.settledHost()
    let client = try WireClient.greeted(path: host.socketPath)
    var batch: [UInt8] = []
    for _ in 0..<2_000 { batch += Self.send("counter", Self.increment) }
    try client.sendRaw(batch)
    // A replay, then requests behind it: their replies keep the order of the requests.
    try client.send(#"{"type":"get","id":1,"scope":"counter","at":1003}"#)
    try client.send(#"{"type":"ping","id":2}"#)
    try client.sendRaw(Self.send("counter", Self.increment, id: 3))
    try client.send(#"{"type":"get","id":4,"scope":"counter","at":5}"#)
    let first = try client.next()
    #expect(first["id"] == .int(1) && first["rev"] == .int(1003))
    #expect(first["state"]?["count"] == .int(1000))
    #expect(try client.next()["id"] == .int(2))
    #expect(try client.next()["id"] == .int(3))
    let fourth = try client.next()
    #expect(fourth["id"] == .int(4) && fourth["state"]?["count"] == .int(2))

    let future = try client.request(#"{"type":"get","id":5,"scope":"counter","at":999999}"#)
    #expect(future["code"] == .string("revision_unavailable"))
    #expect(future["message"]?.string?.contains("the oldest available revision is 0") == true)
    let figures = try client.request(#"{"type":"get","id":6,"scope":"_host","at":1}"#)
    #expect(figures["code"] == .string("revision_unavailable"))
    let unknown = try client.request(#"{"type":"get","id":7,"scope":"countr","at":1}"#)
    #expect(unknown["code"] == .string("unknown_scope"))
    try client.sendRaw(Self.send("todos", #"{"addTodoButtonTapped":{}}"#, id: 8))
    _ = try client.expect("ack")
    let todos = try #require(client.request(#"{"type":"get","id":9,"scope":"todos"}"#)["state"])
    let id = try #require(todos["todos"]?[0]?["id"]?.string)
    let before = try client.request(#"{"type":"get","id":10,"scope":"todos/\#(id)","at":3}"#)
    #expect(before["code"] == .string("scope_unavailable"))
  }
}

/// Parses JSON text written in a test.
private func J(_ text: String) -> JSON {
  do {
    return try JSON(parsing: text)
  } catch {
    fatalError("bad JSON in a test: \(error): \(text)")
  }
}
