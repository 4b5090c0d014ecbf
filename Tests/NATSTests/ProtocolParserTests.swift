import Foundation
import Testing
import Wire

@testable import NATS

/// The parser of what a server sends: every operation, any chunking, strictness, bounds.
@Suite struct ProtocolParserTests {
  static let session = Array(
    """
    INFO {"server_id":"S","version":"2.9.10","headers":true,"max_payload":1048576}\r
    +OK\r
    PING\r
    PONG\r
    MSG orders.new 7 5\r
    hello\r
    MSG orders.new 7 reply.to.me 0\r
    \r
    msg\tlower.case  12 \t3\r
    abc\r
    HMSG _INBOX.abc.1 3 16 16\r
    NATS/1.0 503\r
    \r
    \r
    HMSG events 4 reply 24 29\r
    NATS/1.0\r
    A: b\r
    C: d\r
    \r
    world\r
    -ERR 'Unknown Protocol Operation'\r
    -err plain text\r
    ping\r

    """.utf8)

  static let expected: [NATSServerOperation] = [
    .info(Array(#"{"server_id":"S","version":"2.9.10","headers":true,"max_payload":1048576}"#.utf8)),
    .ok, .ping, .pong,
    .message(.init(subject: "orders.new", subscriptionID: 7, replyTo: nil, headerBytes: nil, payload: Array("hello".utf8))),
    .message(.init(subject: "orders.new", subscriptionID: 7, replyTo: "reply.to.me", headerBytes: nil, payload: [])),
    .message(.init(subject: "lower.case", subscriptionID: 12, replyTo: nil, headerBytes: nil, payload: Array("abc".utf8))),
    .message(
      .init(
        subject: "_INBOX.abc.1", subscriptionID: 3, replyTo: nil,
        headerBytes: Array("NATS/1.0 503\r\n\r\n".utf8), payload: [])),
    .message(
      .init(
        subject: "events", subscriptionID: 4, replyTo: "reply",
        headerBytes: Array("NATS/1.0\r\nA: b\r\nC: d\r\n\r\n".utf8), payload: Array("world".utf8))),
    .error("Unknown Protocol Operation"), .error("plain text"), .ping,
  ]

  private func parse(_ bytes: [UInt8], chunks: [Int] = [], limits: NATSProtocolLimits = .init())
    -> (operations: [NATSServerOperation], error: NATSProtocolError?)
  {
    var parser = NATSProtocolParser(limits: limits)
    var operations: [NATSServerOperation] = []
    var offset = 0
    var index = 0
    do {
      while offset < bytes.count {
        let size = chunks.isEmpty ? bytes.count : chunks[index % chunks.count]
        index += 1
        let end = min(bytes.count, offset + size)
        try bytes[offset..<end].withUnsafeBytes { try parser.parse($0, into: &operations) }
        offset = end
      }
      return (operations, nil)
    } catch {
      return (operations, error as? NATSProtocolError)
    }
  }

  @Test func readsEveryOperationOfASession() {
    let result = self.parse(Self.session)
    #expect(result.error == nil)
    #expect(result.operations == Self.expected)
  }

  @Test func readsTheSameOperationsWhateverTheChunks() {
    // Split in two at every position, and fed one byte at a time.
    for cut in 0...Self.session.count {
      let result = self.parse(Self.session, chunks: [cut == 0 ? Self.session.count : cut, Self.session.count])
      #expect(result.error == nil, "cut at \(cut)")
      #expect(result.operations == Self.expected, "cut at \(cut)")
    }
    #expect(self.parse(Self.session, chunks: [1]).operations == Self.expected)
    #expect(self.parse(Self.session, chunks: [3, 1, 7, 2]).operations == Self.expected)
  }

  @Test(arguments: [
    ("PING\n", NATSProtocolError.Reason.badLineEnding),
    ("PING\r\r\n", .badLineEnding),
    ("PI\u{01}NG\r\n", .badLineEnding),
    ("HELLO\r\n", .unknownOperation),
    ("\r\n", .unknownOperation),
    ("PING now\r\n", .malformedArguments),
    ("INFO\r\n", .malformedArguments),
    ("MSG a\r\n", .malformedArguments),
    ("MSG a 1 2 3 4\r\n", .malformedArguments),
    ("MSG a x 3\r\nabc\r\n", .malformedArguments),
    ("MSG a 1 -3\r\n", .malformedArguments),
    ("MSG a 1 +3\r\n", .malformedArguments),
    ("MSG a 1 99999999999999999999\r\n", .malformedArguments),
    ("HMSG a 1 9 3\r\n", .malformedArguments),
    ("HMSG a 1 3\r\n", .malformedArguments),
    ("MSG a 1 3\r\nabcd\r\n", .missingPayloadTerminator),
    ("MSG a 1 3\r\nab\r\n\r\n", .missingPayloadTerminator),
  ])
  func refusesBytesThatBreakTheProtocol(input: String, reason: NATSProtocolError.Reason) {
    let result = self.parse(Array(input.utf8))
    #expect(result.error?.reason == reason, "\(input.debugDescription)")
  }

  @Test func refusesASubjectThatIsNotUTF8() {
    let bytes = Array("MSG a".utf8) + [0xFF] + Array(" 1 0\r\n\r\n".utf8)
    #expect(self.parse(bytes).error?.reason == .invalidSubject)
  }

  @Test func refusesAMessageOverTheLimitBeforeHoldingIt() {
    let limits = NATSProtocolLimits(maxMessageBytes: 100)
    #expect(self.parse(Array("MSG a 1 100\r\n".utf8) + [UInt8](repeating: 0x61, count: 100) + [13, 10], limits: limits).error == nil)
    let result = self.parse(Array("MSG a 1 101\r\n".utf8), limits: limits)
    #expect(result.error?.reason == .messageTooLarge(size: 101, limit: 100))
    // A claim of 100 GB fails at once, before a single payload byte.
    let huge = self.parse(Array("MSG a 1 100000000000\r\n".utf8))
    #expect(huge.error?.reason == .messageTooLarge(size: 100_000_000_000, limit: 8 * 1024 * 1024))
  }

  @Test func refusesAnEndlessLineAtItsLimitWhateverTheChunks() {
    let limits = NATSProtocolLimits(maxControlLineBytes: 64, maxInfoBytes: 256)
    let endless = [UInt8](repeating: 0x41, count: 10_000)
    for chunks in [[], [1], [63], [1000]] {
      #expect(self.parse(endless, chunks: chunks, limits: limits).error?.reason == .controlLineTooLong(limit: 64))
    }
    // INFO may be longer, up to its own limit.
    let info = Array("INFO {\"x\":\"".utf8) + [UInt8](repeating: 0x41, count: 200) + Array("\"}\r\n".utf8)
    #expect(self.parse(info, chunks: [10], limits: limits).error == nil)
    let longInfo = Array("INFO ".utf8) + [UInt8](repeating: 0x41, count: 300)
    #expect(self.parse(longInfo, chunks: [7], limits: limits).error?.reason == .controlLineTooLong(limit: 256))
  }

  @Test func staysFailedAfterAnError() {
    var parser = NATSProtocolParser()
    var operations: [NATSServerOperation] = []
    #expect(throws: NATSProtocolError.self) {
      try Array("PING\r\nBAD\r\nPONG\r\n".utf8).withUnsafeBytes { try parser.parse($0, into: &operations) }
    }
    #expect(operations == [.ping])  // what came before the bad line
    operations = []
    #expect(throws: NATSProtocolError.self) {
      try Array("PONG\r\n".utf8).withUnsafeBytes { try parser.parse($0, into: &operations) }
    }
    #expect(operations.isEmpty)
    #expect(!parser.isAtOperationBoundary)
  }

  @Test func theFuzzTargetSurvivesItsSeedsAndMutationsOfThem() throws {
    let directory = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fuzz/nats-corpus")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    let corpus = names.compactMap { FileManager.default.contents(atPath: directory.appendingPathComponent($0).path).map(Array.init) }
    #expect(corpus.count >= 6)
    for input in corpus { input.withUnsafeBytes { fuzzNATSProtocol($0) } }
    var generator = SplitMix64(seed: 4222)
    for round in 0..<3000 {
      var input = corpus[round % corpus.count]
      for _ in 0..<Int.random(in: 0...8, using: &generator) {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0 where !input.isEmpty:
          input[Int.random(in: 0..<input.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
        case 1:
          let special = Array(" \r\n\t0123456789:.HMSGINFO".utf8)
          input.insert(
            special[Int.random(in: 0..<special.count, using: &generator)],
            at: Int.random(in: 0...input.count, using: &generator))
        case 2 where !input.isEmpty:
          input.remove(at: Int.random(in: 0..<input.count, using: &generator))
        default:
          input += (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
      }
      input.withUnsafeBytes { fuzzNATSProtocol($0) }
    }
  }
}

/// Header blocks: status lines, fields, strictness, encoding.
@Suite struct HeadersTests {
  @Test func readsStatusLinesAndFields() throws {
    let noResponders = try NATSHeaders(parsing: Array("NATS/1.0 503\r\n\r\n".utf8))
    #expect(noResponders.status == 503 && noResponders.statusDescription.isEmpty && noResponders.fields.isEmpty)
    let heartbeat = try NATSHeaders(
      parsing: Array("NATS/1.0 100 Idle Heartbeat\r\nNats-Last-Consumer: 5\r\nNats-Last-Stream: 9\r\n\r\n".utf8))
    #expect(heartbeat.status == 100)
    #expect(heartbeat.statusDescription == "Idle Heartbeat")
    #expect(heartbeat["nats-last-consumer"] == "5")
    #expect(heartbeat["Nats-Last-Stream"] == "9")
    let plain = try NATSHeaders(parsing: Array("NATS/1.0\r\nTag: a\r\nTag:b\r\nEmpty:\r\n\r\n".utf8))
    #expect(plain.status == nil)
    #expect(plain.values(for: "TAG") == ["a", "b"])
    #expect(plain["Empty"] == "")
  }

  @Test(arguments: [
    "", "NATS/1.0\r\n", "NATS/1.1\r\n\r\n", "HTTP/1.0\r\n\r\n", "NATS/1.0 50\r\n\r\n",
    "NATS/1.0 5033\r\n\r\n", "NATS/1.0\r\nno colon\r\n\r\n", "NATS/1.0\r\n: empty name\r\n\r\n",
    "NATS/1.0\r\nsp ace: x\r\n\r\n", "NATS/1.0\r\nA: b\nC: d\r\n\r\n", "NATS/1.0\r\n\r\nextra\r\n\r\n",
    "NATS/1.0\r\nA: b\r\n\r\r\n",
  ])
  func refusesMalformedBlocks(block: String) {
    #expect(throws: NATSProtocolError.self, "\(block.debugDescription)") {
      try NATSHeaders(parsing: Array(block.utf8))
    }
  }

  @Test func encodesWhatItReadsAndRefusesWhatWouldInjectLines() throws {
    var headers = NATSHeaders()
    headers["Nats-Msg-Id"] = "host-1:42"
    headers.append("Tag", "a")
    headers.append("Tag", "b")
    headers["tag"] = "c"  // replaces both
    var block: [UInt8] = []
    headers.encode(into: &block)
    #expect(String(decoding: block, as: UTF8.self) == "NATS/1.0\r\nNats-Msg-Id: host-1:42\r\nTag: c\r\n\r\n")
    #expect(block.count == headers.encodedCount)
    #expect(try NATSHeaders(parsing: block) == headers)
    headers["Nats-Msg-Id"] = nil
    #expect(headers.fields.map(\.name) == ["Tag"])
    var status = NATSHeaders()
    status.status = 408
    status.statusDescription = "Request Timeout"
    block = []
    status.encode(into: &block)
    #expect(try NATSHeaders(parsing: block) == status)
    for (name, value) in [("A", "x\r\ny"), ("A B", "x"), ("A:B", "x"), ("", "x"), ("A", "x\ny")] {
      var bad = NATSHeaders()
      bad.append(name, value)
      #expect(bad.encodingProblem != nil, "\(name.debugDescription): \(value.debugDescription)")
    }
  }
}

/// The client's operations, byte for byte.
@Suite struct ProtocolEncoderTests {
  @Test func writesTheClientsOperations() {
    var buffer: [UInt8] = []
    Array("hi".utf8).withUnsafeBytes {
      NATSProtocolEncoder.appendPublish(subject: "a.b", replyTo: nil, headers: nil, payload: $0, into: &buffer)
    }
    Array("hi".utf8).withUnsafeBytes {
      NATSProtocolEncoder.appendPublish(
        subject: "a.b", replyTo: "r", headers: Array("NATS/1.0\r\n\r\n".utf8), payload: $0, into: &buffer)
    }
    NATSProtocolEncoder.appendSubscribe(subject: "a.*", queue: "q", id: 12, into: &buffer)
    NATSProtocolEncoder.appendSubscribe(subject: "a.>", queue: nil, id: 0, into: &buffer)
    NATSProtocolEncoder.appendUnsubscribe(id: 12, max: 5, into: &buffer)
    NATSProtocolEncoder.appendUnsubscribe(id: UInt64.max, max: nil, into: &buffer)
    #expect(
      String(decoding: buffer, as: UTF8.self)
        == "PUB a.b 2\r\nhi\r\nHPUB a.b r 12 14\r\nNATS/1.0\r\n\r\nhi\r\nSUB a.* q 12\r\nSUB a.> 0\r\nUNSUB 12 5\r\nUNSUB 18446744073709551615\r\n"
    )
  }
}
