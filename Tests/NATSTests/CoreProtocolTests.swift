import NATS
import NATSTestSupport
import Synchronization
import Testing
import Wire

/// The core protocol against a real nats-server: publish and subscribe, headers, request and
/// reply, no responders, max_payload, queue groups, auto-unsubscribe.
@Suite(
  .serialized, .timeLimit(.minutes(5)),
  .enabled(if: NATSServerBinary.isAvailable, Comment(rawValue: NATSServerBinary.skipReason)))
struct CoreProtocolTests {
  @Test func publishedMessagesReachTheSubscriberInOrderWithHeaders() async throws {
    let server = try await NATSCluster.start(size: 1, jetStream: false)
    let client = try await server.connect()
    let subscription = try await client.subscribe(to: "greetings.*")
    try await client.flush()  // the SUB is in place before the publishes
    var headers = NATSHeaders()
    headers["Trace-Id"] = "abc-1"
    headers.append("Tag", "one")
    headers.append("Tag", "two")
    try await client.publish(Array("hello".utf8), to: "greetings.world", headers: headers)
    try await client.publish(Array("second".utf8), to: "greetings.again", replyTo: "answers.here")
    try await client.publish([], to: "greetings.empty")
    var received: [NATSMessage] = []
    for try await message in subscription {
      received.append(message)
      if received.count == 3 { break }
    }
    #expect(received.map(\.subject) == ["greetings.world", "greetings.again", "greetings.empty"])
    #expect(received[0].text == "hello")
    #expect(received[0].headers?["trace-id"] == "abc-1")
    #expect(received[0].headers?.values(for: "Tag") == ["one", "two"])
    #expect(received[1].headers == nil)
    #expect(received[1].replyTo == "answers.here")
    #expect(received[2].payload.isEmpty)
    await client.close()
    await server.stop()
  }

  @Test func aRequestGetsItsReplyAndARequestNobodyServesGetsNoResponders() async throws {
    let server = try await NATSCluster.start(size: 1, jetStream: false)
    let responder = try await server.connect()
    let requester = try await server.connect()
    let service = try await responder.subscribe(to: "math.double")
    try await responder.flush()
    let serving = Task {
      for try await request in service {
        let number = Int(request.text) ?? 0
        try await responder.publish(Array(String(number * 2).utf8), to: request.replyTo!)
      }
    }
    // Many requests in flight at once: each gets its own answer.
    let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
      for number in 1...50 {
        group.addTask {
          // The responder is a task of the cooperative pool, which other suites may hold for
          // tens of seconds on a loaded machine: the suite's time limit bounds the wait.
          let reply = try await requester.request(
            Array(String(number).utf8), to: "math.double", timeout: .seconds(290))
          return (number, reply.text)
        }
      }
      var answers: [Int: String] = [:]
      for try await (number, text) in group { answers[number] = text }
      return answers
    }
    #expect(answers.count == 50)
    #expect(answers.allSatisfy { $0.value == String($0.key * 2) })
    await #expect(throws: NATSError.self) {
      _ = try await requester.request([], to: "nobody.listens", timeout: .seconds(30))
    }
    do {
      _ = try await requester.request([], to: "nobody.listens", timeout: .seconds(30))
    } catch {
      #expect(error.code == .noResponders)
    }
    serving.cancel()
    await responder.close()
    await requester.close()
    await server.stop()
  }

  @Test func aMessageOverTheServersMaxPayloadIsRefusedWithAClearErrorAndNothingIsSent() async throws {
    let server = try await NATSCluster.start(size: 1, jetStream: false, configuration: "max_payload: 1024")
    let client = try await server.connect()
    #expect(await client.serverInfo?.maxPayload == 1024)
    let subscription = try await client.subscribe(to: "big")
    try await client.flush()
    // 1,024 bytes fit; 1,025 do not, and headers count.
    try await client.publish([UInt8](repeating: 1, count: 1024), to: "big")
    do {
      try await client.publish([UInt8](repeating: 2, count: 1025), to: "big")
      Issue.record("a message over max_payload was accepted")
    } catch {
      #expect(error.code == .maxPayloadExceeded(size: 1025, limit: 1024))
      #expect(error.message.contains("max_payload"))
    }
    var headers = NATSHeaders()
    headers["Padding"] = "x"
    do {
      try await client.publish([UInt8](repeating: 3, count: 1020), to: "big", headers: headers)
      Issue.record("headers were not counted against max_payload")
    } catch {
      guard case .maxPayloadExceeded(let size, 1024) = error.code else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(size > 1024)
    }
    try await client.publish([4], to: "big")
    var sizes: [Int] = []
    for try await message in subscription {
      sizes.append(message.payload.count)
      if sizes.count == 2 { break }
    }
    // The connection is still up and only the accepted messages arrived.
    #expect(sizes == [1024, 1])
    #expect(await client.status == .connected)
    await client.close()
    await server.stop()
  }

  @Test func invalidSubjectsAndHeadersAreRefusedBeforeAnythingIsWritten() async throws {
    let server = try await NATSCluster.start(size: 1, jetStream: false)
    let client = try await server.connect()
    for subject in ["", "a b", "a\r\nPUB x 1", "a..b", "a.*", "a.>", ".a"] {
      do {
        try await client.publish([1], to: subject)
        Issue.record("published to \(subject.debugDescription)")
      } catch {
        #expect(error.code == .invalidSubject)
      }
    }
    var headers = NATSHeaders()
    headers["Evil"] = "x\r\nNats-Msg-Id: y"
    do {
      try await client.publish([1], to: "ok", headers: headers)
      Issue.record("a header with CRLF was sent")
    } catch {
      #expect(error.code == .invalidHeader)
    }
    await #expect(throws: NATSError.self) { _ = try await client.subscribe(to: "a.>.b") }
    try await client.flush()
    #expect(await client.status == .connected)
    await client.close()
    await server.stop()
  }

  @Test func queueGroupsShareMessagesAndAutoUnsubscribeEndsASubscription() async throws {
    let server = try await NATSCluster.start(size: 1, jetStream: false)
    let client = try await server.connect()
    let first = try await client.subscribe(to: "work", queue: "workers")
    let second = try await client.subscribe(to: "work", queue: "workers")
    let limited = try await client.subscribe(to: "work")
    await limited.unsubscribe(afterMessages: 3)
    try await client.flush()
    for index in 0..<100 { try await client.publish(Array(String(index).utf8), to: "work") }
    try await client.flush()
    // It ends by itself after 3 (read in the background, so that the wait has a bound).
    let limitedCounts = Collected<Int>()
    let reader = Task {
      var count = 0
      for try await _ in limited { count += 1 }
      limitedCounts.append(count)
    }
    try await waitUntil("the limited subscription ends") { limitedCounts.count == 1 }
    reader.cancel()
    #expect(limitedCounts.values == [3])
    // Each message went to exactly one member of the group.
    let received = Collected<String>()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for subscription in [first, second] {
        group.addTask {
          for try await message in subscription {
            received.append(message.text)
          }
        }
      }
      try await waitUntil("the group received 100 messages") { received.count >= 100 }
      group.cancelAll()
    }
    let texts = received.values
    #expect(texts.count == 100)
    #expect(Set(texts) == Set((0..<100).map(String.init)))
    await client.close()
    await server.stop()
  }
}
