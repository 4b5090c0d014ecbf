import Foundation
import Testing
import Wire

/// Subscriptions, patches, acks and their ordering, against the real `storehost`.
@Suite(.serialized)
struct ServingTests {
  let host: HostProcess

  init() throws {
    // A short history: the memory test below measures what a slow reader costs, which the
    // default retention of 100,000 actions (kilobyte actions, kept on purpose) would swamp.
    host = try HostProcess(arguments: ["--history", "1000"])
  }

  /// A client's mirror of one subscription, kept by applying patches.
  struct Mirror {
    let sub: Int64
    var rev: Int64
    var state: JSON

    init(subscribed: JSON) throws {
      sub = try #require(subscribed["sub"]?.int)
      rev = try #require(subscribed["rev"]?.int)
      state = try #require(subscribed["state"])
    }

    mutating func apply(_ patch: JSON) throws {
      #expect(patch["sub"]?.int == sub)
      #expect(patch["base"]?.int == rev, "patch base must be the mirror's revision")
      let ops = try #require(patch["ops"]?.array)
      #expect(!ops.isEmpty, "a patch is never empty")
      state = try JSONPatch.apply(ops.map { try JSONPatchOperation(json: $0) }, to: state)
      rev = try #require(patch["rev"]?.int)
    }
  }

  @Test func subscribeSendPatchAckInOrder() throws {
    let client = try WireClient.greeted(path: host.socketPath)
    var mirror = try Mirror(subscribed: client.request(#"{"type":"subscribe","id":1,"scope":"counter"}"#))
    let start = try #require(mirror.state["count"]?.int)
    try client.send(#"{"type":"send","id":2,"scope":"counter","action":{"incrementButtonTapped":{}}}"#)
    let patch = try client.expect("patch")
    #expect(patch["ops"] == .array([.object(["op": .string("replace"), "path": .string("/count"), "value": .int(start + 1)])]))
    try mirror.apply(patch)
    let ack = try client.expect("ack")
    #expect(ack["id"] == .int(2))
    #expect(ack["rev"]?.int == mirror.rev, "read your writes: the mirror is at the ack's revision")
    #expect(mirror.state["count"]?.int == start + 1)
  }

  @Test func sendWithoutIDGetsNoAckButPushes() throws {
    let client = try WireClient.greeted(path: host.socketPath)
    var mirror = try Mirror(subscribed: client.request(#"{"type":"subscribe","id":1,"scope":"counter"}"#))
    try client.send(#"{"type":"send","scope":"counter","action":{"decrementButtonTapped":{}}}"#)
    try mirror.apply(client.expect("patch"))
    #expect(try client.request(#"{"type":"ping","id":5}"#)["type"] == .string("pong"))
  }

  @Test func framesSplitAtEveryByteAndManyPerWrite() throws {
    let client = try WireClient(path: host.socketPath)
    var bytes = WireClient.frame(Array(#"{"type":"hello","protocol":1}"#.utf8))
    for id in 1...20 {
      bytes += WireClient.frame(Array(#"{"type":"ping","id":\#(id)}"#.utf8))
    }
    // One byte per write: every split point, inside prefixes too.
    for byte in bytes { try client.sendRaw([byte]) }
    #expect(try client.expect("welcome")["protocol"] == .int(1))
    for id in 1...20 { #expect(try client.expect("pong")["id"] == .int(Int64(id))) }
    // Then 200 frames in a single write.
    var batch: [UInt8] = []
    for id in 1...200 { batch += WireClient.frame(Array(#"{"type":"ping","id":\#(id)}"#.utf8)) }
    try client.sendRaw(batch)
    for id in 1...200 { #expect(try client.expect("pong")["id"] == .int(Int64(id))) }
  }

  @Test func pipelinedSendsAreReducedInOrderAndAcked() throws {
    let client = try WireClient.greeted(path: host.socketPath)
    var mirror = try Mirror(subscribed: client.request(#"{"type":"subscribe","id":1,"scope":"todos"}"#))
    var batch: [UInt8] = []
    batch += WireClient.frame(Array(#"{"type":"send","id":10,"scope":"todos","action":{"filterPicked":{"_0":"active"}}}"#.utf8))
    batch += WireClient.frame(Array(#"{"type":"send","id":11,"scope":"todos","action":{"filterPicked":{"_0":"completed"}}}"#.utf8))
    batch += WireClient.frame(Array(#"{"type":"get","id":12,"scope":"todos"}"#.utf8))
    batch += WireClient.frame(Array(#"{"type":"send","id":13,"scope":"todos","action":{"filterPicked":{"_0":"all"}}}"#.utf8))
    try client.sendRaw(batch)
    var acks: [Int64] = []
    var stateReply: JSON?
    while acks.count < 3 || stateReply == nil {
      let message = try client.next()
      switch message["type"]?.string {
      case "patch": try mirror.apply(message)
      case "ack":
        acks.append(try #require(message["id"]?.int))
      case "state": stateReply = message
      default: Issue.record("unexpected \(message.compactString)")
      }
    }
    #expect(acks == [10, 11, 13])
    #expect(stateReply?["state"]?["filter"] == .string("completed"), "get sees the sends before it")
    // Pushes are coalesced: the filter went active → completed → all, so the mirror may have
    // seen no change at all, but it holds the state of the last ack.
    #expect(mirror.state["filter"] == .string("all"))
    let final = try client.request(#"{"type":"get","id":14,"scope":"todos"}"#)
    #expect(final["state"] == mirror.state)
  }

  @Test func elementScopesAndScopeGone() throws {
    let client = try WireClient.greeted(path: host.socketPath)
    var list = try Mirror(subscribed: client.request(#"{"type":"subscribe","id":1,"scope":"todos"}"#))
    // Add a todo: it is inserted at index 0 with a fresh id.
    try client.send(#"{"type":"send","id":2,"scope":"todos","action":{"addTodoButtonTapped":{}}}"#)
    try list.apply(client.expect("patch"))
    _ = try client.expect("ack")
    let todo = try #require(list.state["todos"]?[0])
    let id = try #require(todo["id"]?.string)
    #expect(todo["description"] == .string(""))

    var element = try Mirror(subscribed: client.request(#"{"type":"subscribe","id":3,"scope":"todos/\#(id)"}"#))
    #expect(element.state == todo)
    // Lower-case ids name the same element.
    let lower = try client.request(#"{"type":"get","id":4,"scope":"todos/\#(id.lowercased())"}"#)
    #expect(lower["state"] == todo)

    try client.send(#"{"type":"send","id":5,"scope":"todos/\#(id)","action":{"setDescription":{"_0":"Buy milk"}}}"#)
    var acked = false
    while !acked {
      let message = try client.next()
      switch message["type"]?.string {
      case "patch" where message["sub"]?.int == element.sub: try element.apply(message)
      case "patch": try list.apply(message)
      case "ack": acked = true
      default: Issue.record("unexpected \(message.compactString)")
      }
    }
    #expect(element.state["description"] == .string("Buy milk"))
    #expect(element.state == list.state["todos"]?[0])

    // Delete it through the list: the element subscription ends with scope_gone, before the ack.
    try client.send(
      #"{"type":"send","id":6,"scope":"todos","action":{"delete":{"_0":{"indexes":[{"location":0,"length":1}]}}}}"#)
    var gone = false
    acked = false
    while !acked {
      let message = try client.next()
      switch message["type"]?.string {
      case "unsubscribed":
        #expect(message["sub"]?.int == element.sub)
        #expect(message["reason"] == .string("scope_gone"))
        gone = true
      case "patch":
        #expect(message["sub"]?.int == list.sub, "nothing names a gone subscription")
        try list.apply(message)
      case "ack": acked = true
      default: Issue.record("unexpected \(message.compactString)")
      }
    }
    #expect(gone, "unsubscribed arrives before the ack of the action that caused it")
    let after = try client.request(#"{"type":"send","id":7,"scope":"todos/\#(id)","action":{"toggleCompleted":{}}}"#)
    #expect(after["code"] == .string("scope_unavailable"))
  }

  @Test func unsubscribeStopsPushes() throws {
    let client = try WireClient.greeted(path: host.socketPath)
    let mirror = try Mirror(subscribed: client.request(#"{"type":"subscribe","id":1,"scope":"counter"}"#))
    #expect(try client.request(#"{"type":"unsubscribe","id":2,"sub":\#(mirror.sub)}"#) == .object(["type": .string("ok"), "id": .int(2)]))
    let ack = try client.request(#"{"type":"send","id":3,"scope":"counter","action":{"incrementButtonTapped":{}}}"#)
    #expect(ack["type"] == .string("ack"), "no patch for the ended subscription")
  }

  @Test func otherClientsChangesArePushed() throws {
    let watcher = try WireClient.greeted(path: host.socketPath)
    var mirror = try Mirror(subscribed: watcher.request(#"{"type":"subscribe","id":1,"scope":"counter"}"#))
    let sender = try WireClient.greeted(path: host.socketPath)
    for id in 1...5 {
      _ = try sender.request(#"{"type":"send","id":\#(id),"scope":"counter","action":{"incrementButtonTapped":{}}}"#)
    }
    let final = try #require(sender.request(#"{"type":"get","id":9,"scope":"counter"}"#)["state"]?["count"]?.int)
    while mirror.state["count"]?.int != final { try mirror.apply(watcher.expect("patch")) }
  }

  @Test func watchersOfOneScopeShareItsPatchAndOtherScopesGetNothing() throws {
    // Two sessions on `counter`, one of them also on `counter` a second time and on `todos`:
    // the sync computes one patch per (scope, sub, base) and hands it to every watcher.
    let first = try WireClient.greeted(path: host.socketPath)
    var firstCounter = try Mirror(subscribed: first.request(#"{"type":"subscribe","id":1,"scope":"counter"}"#))
    let second = try WireClient.greeted(path: host.socketPath)
    var secondCounter = try Mirror(subscribed: second.request(#"{"type":"subscribe","id":1,"scope":"counter"}"#))
    var secondAgain = try Mirror(subscribed: second.request(#"{"type":"subscribe","id":2,"scope":"counter"}"#))
    var secondTodos = try Mirror(subscribed: second.request(#"{"type":"subscribe","id":3,"scope":"todos"}"#))
    let sender = try WireClient.greeted(path: host.socketPath)

    // A change to `todos` only: its watcher gets a patch, the counter watchers get nothing
    // (their next patch below must start from their subscription's revision).
    _ = try sender.request(#"{"type":"send","id":1,"scope":"todos","action":{"addTodoButtonTapped":{}}}"#)
    let todosBefore = secondTodos.state["todos"]?.array?.count ?? 0
    let todosPatch = try second.expect("patch")
    #expect(todosPatch["sub"]?.int == secondTodos.sub)
    try secondTodos.apply(todosPatch)
    #expect(secondTodos.state["todos"]?.array?.count == todosBefore + 1)

    let ack = try sender.request(#"{"type":"send","id":2,"scope":"counter","action":{"incrementButtonTapped":{}}}"#)
    let rev = try #require(ack["rev"]?.int)
    let firstPatch = try first.expect("patch")
    try firstCounter.apply(firstPatch)
    // `second` gets one patch per subscription, in subscription order, each from its own base.
    let patchA = try second.expect("patch")
    let patchB = try second.expect("patch")
    #expect(patchA["sub"]?.int == secondCounter.sub && patchB["sub"]?.int == secondAgain.sub)
    try secondCounter.apply(patchA)
    try secondAgain.apply(patchB)
    for patch in [firstPatch, patchA, patchB] {
      #expect(patch["rev"]?.int == rev)
      #expect(patch["ops"] == firstPatch["ops"], "watchers of one scope get the same operations")
    }
    #expect(firstCounter.state == secondCounter.state && secondCounter.state == secondAgain.state)
    #expect(firstCounter.state["count"] == .int(1))
  }

  @Test func timerEffectPushesTicksToWatchers() throws {
    let client = try WireClient.greeted(path: host.socketPath)
    var mirror = try Mirror(subscribed: client.request(#"{"type":"subscribe","id":1,"scope":"counter"}"#))
    let start = try #require(mirror.state["count"]?.int)
    try client.send(#"{"type":"send","id":2,"scope":"counter","action":{"toggleTimerButtonTapped":{}}}"#)
    var acked = false
    while !acked || mirror.state["count"]?.int ?? 0 < start + 2 {
      let message = try client.next(timeout: 5)
      if message["type"] == .string("ack") { acked = true } else { try mirror.apply(message) }
    }
    #expect(mirror.state["isTimerRunning"] == .bool(true))
    try client.send(#"{"type":"send","id":3,"scope":"counter","action":{"toggleTimerButtonTapped":{}}}"#)
    // Drain to the ack, then no more ticks arrive.
    var stopped = mirror
    while true {
      let message = try client.next()
      if message["type"] == .string("ack") { break }
      try stopped.apply(message)
    }
    #expect(stopped.state["isTimerRunning"] == .bool(false))
    #expect(throws: HarnessError.self) { try client.next(timeout: 2.5) }
  }

  @Test func concurrentSendersLoseNothingAndWatchersConverge() async throws {
    let path = host.socketPath
    let watcher = try WireClient.greeted(path: path)
    var mirror = try Mirror(subscribed: watcher.request(#"{"type":"subscribe","id":1,"scope":"counter"}"#))
    let start = try #require(mirror.state["count"]?.int)
    let senders = 8
    let actions = 1_000
    let acked = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<senders {
        group.addTask {
          let client = try WireClient.greeted(path: path)
          var batch: [UInt8] = []
          for id in 1...actions {
            batch += WireClient.frame(Array(#"{"type":"send","id":\#(id),"scope":"counter","action":{"incrementButtonTapped":{}}}"#.utf8))
          }
          try client.sendRaw(batch)
          var acks = 0
          var lastRev: Int64 = 0
          while acks < actions {
            let message = try client.expect("ack")
            #expect(message["id"]?.int == Int64(acks + 1), "acks come in request order")
            let rev = try #require(message["rev"]?.int)
            #expect(rev > lastRev)
            lastRev = rev
            acks += 1
          }
          return acks
        }
      }
      return try await group.reduce(0, +)
    }
    #expect(acked == senders * actions)
    var patches = 0
    while mirror.state["count"]?.int != start + Int64(senders * actions) {
      try mirror.apply(watcher.expect("patch"))
      patches += 1
    }
    #expect(patches <= senders * actions)
  }

  @Test func hostFiguresArePushedWithEachNewRevision() throws {
    let watcher = try WireClient.greeted(path: host.socketPath)
    // The host loads the shop's catalog at start, through an effect; on a busy machine that
    // can finish after the subscription. Let it finish first: no action may happen below.
    var loaded = false
    for attempt in 1...250 where !loaded {
      let products = try watcher.request(#"{"type":"get","id":\#(100 + attempt),"scope":"shop/products"}"#)
      loaded = !(products["state"]?["products"]?.array?.isEmpty ?? true)
      if !loaded { Thread.sleep(forTimeInterval: 0.02) }
    }
    #expect(loaded, "the shop's catalog loads at start")
    var mirror = try Mirror(subscribed: watcher.request(#"{"type":"subscribe","id":1,"scope":"_host"}"#))
    // Uptime moves, but no action happens: no patch (a patch's rev always passes its base).
    #expect(throws: HarnessError.self) { try watcher.next(timeout: 2.5) }
    let sender = try WireClient.greeted(path: host.socketPath)
    let ack = try sender.request(#"{"type":"send","id":1,"scope":"counter","action":{"incrementButtonTapped":{}}}"#)
    let patch = try watcher.expect("patch")
    let base = try #require(patch["base"]?.int)
    #expect(try #require(patch["rev"]?.int) > base)
    try mirror.apply(patch)
    #expect(mirror.state["revision"] == ack["rev"])
    #expect((mirror.state["uptimeSeconds"]?.int ?? 0) >= 2)
  }

  @Test func expensiveScopesAreCoalescedByCostAndStillConverge() throws {
    // A wait of 300× the cost of re-encoding the list (milliseconds) makes the deferral
    // certain, whatever the machine's speed.
    let host = try HostProcess(arguments: ["--costly-push-wait", "300"])
    let sender = try WireClient.greeted(path: host.socketPath)
    // A list big enough that re-encoding it for every change would dominate the host.
    var seed: [UInt8] = []
    for index in 0..<3_000 {
      seed += WireClient.frame(Array(#"{"type":"send","id":\#(index),"scope":"todos","action":{"addTodoButtonTapped":{}}}"#.utf8))
    }
    try sender.sendRaw(seed)
    for _ in 0..<3_000 { _ = try sender.expect("ack") }
    let todos = try #require(sender.request(#"{"type":"get","id":-1,"scope":"todos"}"#)["state"])
    let id = try #require(todos["todos"]?[0]?["id"]?.string)

    let watcher = try WireClient.greeted(path: host.socketPath)
    var mirror = try Mirror(subscribed: watcher.request(#"{"type":"subscribe","id":1,"scope":"todos"}"#))
    let actions = 2_000
    var batch: [UInt8] = []
    for index in 0..<actions {
      batch += WireClient.frame(Array(#"{"type":"send","id":\#(index),"scope":"todos/\#(id)","action":{"toggleCompleted":{}}}"#.utf8))
    }
    try sender.sendRaw(batch)
    for _ in 0..<actions { _ = try sender.expect("ack") }
    // The last change comes right behind the burst's push, then silence: it must still
    // arrive (deferred, not lost), though the list's next push has to wait.
    _ = try sender.request(#"{"type":"send","id":-2,"scope":"todos/\#(id)","action":{"setDescription":{"_0":"last"}}}"#)
    let final = try #require(sender.request(#"{"type":"get","id":-3,"scope":"todos"}"#)["state"])
    var patches = 0
    while mirror.state != final {
      // A deferred push waits 300× the list's encoding cost, which under ThreadSanitizer on a
      // loaded 2-core machine is tens of milliseconds: allow for seconds of waiting.
      try mirror.apply(watcher.expect("patch", timeout: 120))
      patches += 1
    }
    #expect(mirror.state["todos"]?[0]?["description"] == .string("last"))
    #expect(patches < actions / 2, "\(patches) patches for \(actions) actions")
  }

  @Test func slowReaderKeepsHostMemoryBoundedAndConverges() throws {
    let sender = try WireClient.greeted(path: host.socketPath)
    _ = try sender.request(#"{"type":"send","id":1,"scope":"todos","action":{"addTodoButtonTapped":{}}}"#)
    let todos = try #require(sender.request(#"{"type":"get","id":2,"scope":"todos"}"#)["state"])
    let id = try #require(todos["todos"]?[0]?["id"]?.string)

    let slow = try WireClient.greeted(path: host.socketPath)
    var mirror = try Mirror(subscribed: slow.request(#"{"type":"subscribe","id":1,"scope":"todos"}"#))
    let before = try #require(host.residentKilobytes)
    // The slow client now stops reading while another client makes 20,000 changes, each
    // giving a patch of about a kilobyte.
    let padding = String(repeating: "x", count: 1_000)
    let actions = 20_000
    var sent = 0
    while sent < actions {
      var batch: [UInt8] = []
      for index in sent..<(sent + 1_000) {
        batch += WireClient.frame(Array(#"{"type":"send","id":\#(index),"scope":"todos/\#(id)","action":{"setDescription":{"_0":"\#(index) \#(padding)"}}}"#.utf8))
      }
      try sender.sendRaw(batch)
      for _ in 0..<1_000 { _ = try sender.expect("ack") }
      sent += 1_000
    }
    let final = try #require(sender.request(#"{"type":"get","id":-2,"scope":"todos"}"#)["state"])
    let after = try #require(host.residentKilobytes)
    #expect(after - before < 32 * 1024, "host memory grew by \(after - before) KiB")
    // Now the slow client reads: it converges with far fewer patches than actions.
    var patches = 0
    while mirror.state != final {
      try mirror.apply(slow.expect("patch"))
      patches += 1
    }
    #expect(patches < actions / 10, "\(patches) patches for \(actions) actions")
  }
}
