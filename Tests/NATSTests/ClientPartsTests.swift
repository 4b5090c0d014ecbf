import Testing

@testable import NATS

/// The client's small parts: server URLs, subjects, the server pool, delivery metadata,
/// deadlines, the reconnect buffer.
@Suite struct ClientPartsTests {
  @Test func parsesServerURLs() throws {
    let plain = try NATSServerURL("nats://127.0.0.1:4222")
    #expect(plain.host == "127.0.0.1" && plain.port == 4222 && plain.user == nil)
    let credentials = try NATSServerURL("nats://alice:s%40cret@nats.example.com")
    #expect(credentials.host == "nats.example.com" && credentials.port == 4222)
    #expect(credentials.user == "alice" && credentials.password == "s@cret")
    #expect(credentials.description == "nats://nats.example.com:4222")  // no secret in logs
    let token = try NATSServerURL("nats://t0ken@[::1]:4223/")
    #expect(token.token == "t0ken" && token.host == "::1" && token.port == 4223)
    #expect(token.description == "nats://[::1]:4223")
    #expect(try NATSServerURL("10.0.0.2:6222").port == 6222)
    #expect(try NATSServerURL.parseList(" nats://a:1 , nats://b:2,").map(\.host) == ["a", "b"])
    for bad in ["tls://a:4222", "http://a", "nats://", "nats://a:0", "nats://a:70000", "nats://a:x", "nats://[::1", "nats://a/path"] {
      #expect(throws: NATSError.self, "\(bad)") { try NATSServerURL(bad) }
    }
    do {
      _ = try NATSServerURL("tls://a:4222")
    } catch {
      #expect(error.message.contains("TLS is not supported"))
    }
    #expect(throws: NATSError.self) { try NATSServerURL.parseList(" , ") }
  }

  @Test func checksSubjects() {
    for good in ["a", "a.b.c", "_INBOX.x.1", "$JS.API.STREAM.INFO.X", "ünïcode.ok"] {
      #expect(NATSSubject.publishProblem(good) == nil, "\(good)")
    }
    for bad in ["", "a b", "a\tb", "a\r\nb", "a..b", ".a", "a.", "a.*", "a.>", "*"] {
      #expect(NATSSubject.publishProblem(bad) != nil, "\(bad.debugDescription)")
    }
    for good in ["a.*", "a.>", "*.b", ">", "a.*.c"] {
      #expect(NATSSubject.subscribeProblem(good) == nil, "\(good)")
    }
    for bad in ["a.>.b", "> .a", "a..*"] {
      #expect(NATSSubject.subscribeProblem(bad) != nil, "\(bad)")
    }
    #expect(NATSSubject.queueGroupProblem("workers") == nil)
    #expect(NATSSubject.queueGroupProblem("two words") != nil)
  }

  @Test func theServerPoolTriesTheNextServerAtOnceAndWaitsBeforeRetryingOne() throws {
    let a = try NATSServerURL("nats://a:1")
    let b = try NATSServerURL("nats://b:2")
    var pool = NATSServerPool(urls: [a, b, a], randomize: false)
    #expect(pool.entries.count == 2)  // duplicates removed
    let start = ContinuousClock.now
    let wait = Duration.seconds(1)
    #expect(pool.next(now: start, wait: wait, maxAttempts: nil) == .now(0))
    pool.recordAttempt(0, at: start)
    pool.recordFailure(0)
    #expect(pool.next(now: start, wait: wait, maxAttempts: nil) == .now(1))
    pool.recordAttempt(1, at: start)
    pool.recordFailure(1)
    #expect(pool.next(now: start + .milliseconds(400), wait: wait, maxAttempts: nil) == .after(.milliseconds(600)))
    #expect(pool.next(now: start + .seconds(1), wait: wait, maxAttempts: nil) == .now(0))
    // With one attempt each allowed, both are used up.
    #expect(pool.next(now: start + .seconds(5), wait: wait, maxAttempts: 1) == .exhausted)
    // Servers the cluster advertises join, with the current server's credentials.
    let secret = try NATSServerURL("nats://u:p@a:1")
    pool.add(connectURLs: ["b:2", "c:3", "[::1]:4"], credentialsFrom: secret)
    #expect(pool.entries.map(\.url.host) == ["a", "b", "c", "::1"])
    #expect(pool.entries[2].url.user == "u" && pool.entries[2].isImplicit)
  }

  @Test func readsTheMetadataOfAConsumerDelivery() {
    let old = JetStreamAckMetadata(replySubject: "$JS.ACK.ORDERS.C1.2.101.7.1700000000123456789.42")
    #expect(old?.stream == "ORDERS" && old?.consumer == "C1" && old?.deliveryCount == 2)
    #expect(old?.streamSequence == 101 && old?.consumerSequence == 7 && old?.pending == 42)
    #expect(old?.timestamp == 1_700_000_000_123_456_789)
    let new = JetStreamAckMetadata(replySubject: "$JS.ACK._.ACCHASH.ORDERS.C1.1.5.3.1700000000000000000.0.xyz")
    #expect(new?.stream == "ORDERS" && new?.streamSequence == 5 && new?.consumerSequence == 3)
    for bad in ["$JS.ACK.S.C.1.2", "_INBOX.a.b.c.d.e.f.g.h", "$JS.ACK.S.C.x.1.1.1.1", "$JS.ACK.S.C.1.2.3.4.5.6"] {
      #expect(JetStreamAckMetadata(replySubject: bad) == nil, "\(bad)")
    }
  }

  @Test func deadlinesComeDueInOrder() {
    var queue = DeadlineQueue()
    let start = ContinuousClock.now
    for (offset, token) in [(5, 1), (1, 2), (3, 3), (1, 4), (9, 5)] as [(Int, UInt64)] {
      queue.insert(start + .seconds(offset), token: token)
    }
    #expect(queue.earliest == start + .seconds(1))
    var due: [UInt64] = []
    while let entry = queue.popDue(at: start + .seconds(5)) { due.append(entry.token) }
    #expect(Set(due.prefix(2)) == [2, 4])
    #expect(due.suffix(2) == [3, 1])
    #expect(queue.count == 1)
  }

  @Test func theReconnectBufferKeepsPublishesInOrderUpToItsLimit() {
    var buffer = ReconnectBuffer(limit: 20)
    #expect(buffer.append(messageSize: 1, requestToken: nil) { $0 += Array("0123456789".utf8) })
    #expect(buffer.append(messageSize: 2, requestToken: 7) { $0 += Array("abcdefghij".utf8) })
    #expect(!buffer.append(messageSize: 3, requestToken: nil) { $0 += [1] })  // full: nothing added
    var drained: [(Int, UInt64?, String)] = []
    buffer.drain { entry, bytes in drained.append((entry.messageSize, entry.requestToken, String(decoding: bytes, as: UTF8.self))) }
    #expect(drained.map(\.2) == ["0123456789", "abcdefghij"])
    #expect(drained.map(\.1) == [nil, 7])
    #expect(buffer.isEmpty)
  }
}
