import NATS
import NATSTestSupport
import Testing
import Wire

/// The JetStream API against a real nats-server with JetStream: streams and the echoed
/// configuration, acknowledged publishes, message ids, expected-sequence fencing, pipelined
/// publishes, gets, consumers.
@Suite(
  .serialized, .timeLimit(.minutes(5)),
  .enabled(if: NATSServerBinary.isAvailable, Comment(rawValue: NATSServerBinary.skipReason)))
struct JetStreamTests {
  @Test func aStreamIsCreatedDescribedUpdatedAndDeleted() async throws {
    let server = try await NATSCluster.start(size: 1)
    let client = try await server.connect()
    let jetStream = client.jetStream
    var configuration = JetStreamStreamConfiguration(name: "ORDERS", subjects: ["orders.>"])
    configuration.maxMessages = 1000
    configuration.duplicateWindow = .seconds(30)
    configuration.allowDirect = true
    let created = try await jetStream.createStream(configuration)
    #expect(created.configuration.name == "ORDERS")
    #expect(created.configuration.subjects == ["orders.>"])
    #expect(created.configuration.maxMessages == 1000)
    #expect(created.configuration.duplicateWindow == .seconds(30))
    #expect(created.configuration.storage == .file)  // the server's default, filled in
    #expect(created.state.lastSequence == 0)
    // Creating it again with the same configuration succeeds; with another one, it does not.
    _ = try await jetStream.createStream(configuration)
    var other = configuration
    other.maxMessages = 5
    do {
      _ = try await jetStream.createStream(other)
      Issue.record("a stream was created over another with a different configuration")
    } catch {
      #expect(error.jetStreamErrorCode == JetStreamErrorCode.streamNameInUse)
    }
    let updated = try await jetStream.updateStream(other)
    #expect(updated.configuration.maxMessages == 5)
    #expect(try await jetStream.streamInfo("ORDERS").configuration.maxMessages == 5)
    try await jetStream.deleteStream("ORDERS")
    do {
      _ = try await jetStream.streamInfo("ORDERS")
      Issue.record("a deleted stream still has info")
    } catch {
      #expect(error.code == .notFound)
    }
    await #expect(throws: NATSError.self) { try await jetStream.createStream(.init(name: "A.B")) }
    await client.close()
    await server.stop()
  }

  @Test func settingsTheServerIgnoresAreReportedNotSilentlyLost() async throws {
    let server = try await NATSCluster.start(size: 1)
    let client = try await server.connect()
    let jetStream = client.jetStream
    // nats-server 2.9 does not know 2.10's stream compression: it creates the stream without.
    var configuration = JetStreamStreamConfiguration(name: "LOGS", subjects: ["logs.>"])
    configuration.additionalSettings["compression"] = .string("s2")
    do {
      _ = try await jetStream.createStream(configuration)
      Issue.record("an ignored stream setting went unnoticed")
    } catch {
      #expect(error.code == .configurationNotApplied)
      #expect(error.message.contains("compression"))
    }
    // Nor does it know a consumer's filter_subjects (2.10): it would deliver everything.
    var consumer = JetStreamConsumerConfiguration()
    consumer.additionalSettings["filter_subjects"] = .array([.string("logs.a"), .string("logs.b")])
    do {
      _ = try await jetStream.createConsumer(stream: "LOGS", consumer)
      Issue.record("an ignored consumer setting went unnoticed")
    } catch {
      #expect(error.code == .configurationNotApplied)
      #expect(error.message.contains("filter_subjects"))
    }
    var plain = JetStreamConsumerConfiguration()
    plain.filterSubject = "logs.a"
    let info = try await jetStream.createConsumer(stream: "LOGS", plain)
    #expect(info.stream == "LOGS")
    await client.close()
    await server.stop()
  }

  @Test func publishesAreAcknowledgedWithTheirSequenceAndAMessageIDIsStoredOnce() async throws {
    let server = try await NATSCluster.start(size: 1)
    let client = try await server.connect()
    let jetStream = client.jetStream
    _ = try await jetStream.createStream(.init(name: "EVENTS", subjects: ["events.>"]))
    for expected in UInt64(1)...3 {
      let ack = try await jetStream.publish(Array("e\(expected)".utf8), to: "events.a")
      #expect(ack.stream == "EVENTS" && ack.sequence == expected && !ack.isDuplicate)
    }
    var options = JetStreamPublishOptions()
    options.messageID = "host-1:4"
    let first = try await jetStream.publish(Array("four".utf8), to: "events.a", options: options)
    let retry = try await jetStream.publish(Array("four".utf8), to: "events.a", options: options)
    #expect(first.sequence == 4 && !first.isDuplicate)
    #expect(retry.sequence == 4 && retry.isDuplicate)
    #expect(try await jetStream.streamInfo("EVENTS").state.messages == 4)
    do {
      _ = try await jetStream.publish([1], to: "nothing.captures.this")
      Issue.record("a publish no stream captures was acknowledged")
    } catch {
      #expect(error.code == .noResponders)
    }
    await client.close()
    await server.stop()
  }

  @Test func anExpectedLastSequenceThatIsNotTheStreamsIsRefusedWith10071() async throws {
    let server = try await NATSCluster.start(size: 1)
    let client = try await server.connect()
    let jetStream = client.jetStream
    _ = try await jetStream.createStream(.init(name: "JOURNAL", subjects: ["journal.>"]))
    var options = JetStreamPublishOptions()
    options.expectedLastSequence = 0  // an empty stream
    #expect(try await jetStream.publish([1], to: "journal.records", options: options).sequence == 1)
    // Another writer appends: the first writer's expectation is now stale.
    _ = try await jetStream.publish([2], to: "journal.takeover")
    options.expectedLastSequence = 1
    do {
      _ = try await jetStream.publish([3], to: "journal.records", options: options)
      Issue.record("a stale expected last sequence was accepted")
    } catch {
      #expect(error.isWrongLastSequence)
      #expect(error.message.contains("wrong last sequence: 2"))
    }
    options.expectedLastSequence = 2
    #expect(try await jetStream.publish([3], to: "journal.records", options: options).sequence == 3)
    // Per subject: the last message on journal.records is 3, on journal.takeover 2.
    var perSubject = JetStreamPublishOptions()
    perSubject.expectedLastSubjectSequence = 2
    #expect(try await jetStream.publish([4], to: "journal.takeover", options: perSubject).sequence == 4)
    do {
      _ = try await jetStream.publish([5], to: "journal.records", options: perSubject)
      Issue.record("a stale expected last subject sequence was accepted")
    } catch {
      #expect(error.jetStreamErrorCode == 10071)
    }
    #expect(try await jetStream.streamInfo("JOURNAL").state.lastSequence == 4)
    await client.close()
    await server.stop()
  }

  @Test func pipelinedPublishesAreEachAcknowledgedInOrder() async throws {
    let server = try await NATSCluster.start(size: 1)
    let client = try await server.connect()
    _ = try await client.jetStream.createStream(.init(name: "PIPE", subjects: ["pipe.>"]))
    // 500 publishes written in one go from the loop, each expecting the previous sequence.
    let acks = try await self.pipeline(client, count: 500) { index, options in
      options.expectedLastSequence = index
      options.messageID = "pipe-\(index)"
    }
    #expect(acks.compactMap { try? $0.get().sequence } == Array(1...500))
    await client.close()
    await server.stop()
  }

  /// What part two's fencing must know: with `Nats-Expected-Last-Sequence` alone, a pipelined
  /// writer is refused once after an intruder's append, then accepted again — its next
  /// publish's prediction happens to equal the stream's new last sequence. Chained
  /// `Nats-Expected-Last-Msg-Id`s (each record expecting the previous record's id) stay
  /// refused: the chain cannot heal.
  @Test func anIntruderFencesAPipelinedWriterForGoodOnlyWhenItsRecordsAreChainedByMessageID() async throws {
    let server = try await NATSCluster.start(size: 1)
    let client = try await server.connect()
    _ = try await client.jetStream.createStream(.init(name: "FENCE", subjects: ["fence.>"]))
    // Expected last sequence only: 100 in flight, an intruder's append after the 50th.
    let bySequence = try await self.pipeline(client, count: 100, intruderAfter: 49) { index, options in
      options.expectedLastSequence = index
    }
    let refused = bySequence.indices.filter {
      if case .failure(let error) = bySequence[$0] { return error.isWrongLastSequence }
      return false
    }
    #expect(refused == [50])  // only the one right after the intruder
    #expect(bySequence.allSatisfy { if case .failure(let error) = $0 { error.isWrongLastSequence } else { true } })
    let afterFirst = try await client.jetStream.streamInfo("FENCE").state.lastSequence
    #expect(afterFirst == 100)  // 99 of the writer's + the intruder's
    // Chained by message id: everything after the intruder is refused.
    let base = afterFirst
    let chained = try await self.pipeline(client, count: 100, intruderAfter: 49) { index, options in
      options.messageID = "w-\(index)"
      if index > 0 { options.expectedLastMessageID = "w-\(index - 1)" }
      if index == 0 { options.expectedLastSequence = base }
    }
    #expect(chained.prefix(50).allSatisfy { (try? $0.get()) != nil })
    #expect(
      chained.dropFirst(50).allSatisfy {
        if case .failure(let error) = $0 { return error.isWrongLastMessageID }
        return false
      })
    #expect(try await client.jetStream.streamInfo("FENCE").state.lastSequence == base + 51)
    await client.close()
    await server.stop()
  }

  /// Writes `count` publishes to `fence.records`/`pipe.records` from the loop in one go (and an
  /// intruding publish on the same connection after index `intruderAfter`), and returns their
  /// outcomes in order.
  private func pipeline(
    _ client: NATSClient, count: Int, intruderAfter: Int? = nil,
    _ configure: @escaping @Sendable (UInt64, inout JetStreamPublishOptions) -> Void
  ) async throws -> [Result<JetStreamPublishAck, NATSError>] {
    let outcomes = Collected<(Int, Result<JetStreamPublishAck, NATSError>)>()
    try await client.withConnection { connection throws(NATSError) in
      let jetStream = JetStream(connection: connection)
      let subject = intruderAfter == nil ? "pipe.records" : "fence.records"
      for index in 0..<count {
        var options = JetStreamPublishOptions()
        configure(UInt64(index), &options)
        try jetStream.publish(Array("r\(index)".utf8), to: subject, options: options) {
          outcomes.append((index, $0))
        }
        if index == intruderAfter {
          try jetStream.publish([9], to: "fence.takeover") { _ in }
        }
      }
    }
    try await waitUntil("\(count) answers") { outcomes.count == count }
    return outcomes.values.sorted { $0.0 < $1.0 }.map(\.1)
  }

  @Test func aMessageIsGotByItsSequenceOrAsTheLastOfItsSubjectDirectlyOrFromTheLeader() async throws {
    let server = try await NATSCluster.start(size: 1)
    let client = try await server.connect()
    let jetStream = client.jetStream
    var configuration = JetStreamStreamConfiguration(name: "KV", subjects: ["kv.>"])
    configuration.allowDirect = true
    _ = try await jetStream.createStream(configuration)
    var headers = NATSHeaders()
    headers["Owner"] = "host-1"
    var options = JetStreamPublishOptions()
    options.headers = headers
    _ = try await jetStream.publish(Array("a1".utf8), to: "kv.a", options: options)
    _ = try await jetStream.publish(Array("b1".utf8), to: "kv.b")
    _ = try await jetStream.publish(Array("a2".utf8), to: "kv.a", options: options)
    for direct in [false, true] {
      let last = try await jetStream.getMessage(stream: "KV", .lastBySubject("kv.a"), direct: direct)
      #expect(last.sequence == 3)
      #expect(last.subject == "kv.a")
      #expect(String(decoding: last.payload, as: UTF8.self) == "a2")
      #expect(last.headers?["Owner"] == "host-1")
      let second = try await jetStream.getMessage(stream: "KV", .sequence(2), direct: direct)
      #expect(second.subject == "kv.b" && String(decoding: second.payload, as: UTF8.self) == "b1")
      let wildcard = try await jetStream.getMessage(stream: "KV", .lastBySubject("kv.*"), direct: direct)
      #expect(wildcard.sequence == 3)
      do {
        _ = try await jetStream.getMessage(stream: "KV", .lastBySubject("kv.none"), direct: direct)
        Issue.record("a missing message was found")
      } catch {
        #expect(error.code == .notFound)
      }
    }
    _ = try await jetStream.createStream(.init(name: "NODIRECT", subjects: ["nodirect"]))
    do {
      _ = try await jetStream.getMessage(stream: "NODIRECT", .sequence(1), direct: true)
      Issue.record("a direct get answered for a stream without allow_direct")
    } catch {
      // nats-server 2.9's API import takes the request and nobody answers it.
      #expect(error.code == .timedOut || error.code == .noResponders)
    }
    await client.close()
    await server.stop()
  }

  @Test func anOrderedConsumerDeliversEveryMessageOnceInOrderAndFollowsNewOnes() async throws {
    let server = try await NATSCluster.start(size: 1)
    let client = try await server.connect()
    let jetStream = client.jetStream
    _ = try await jetStream.createStream(.init(name: "FEED", subjects: ["feed.>"]))
    for index in 1...300 {
      _ = try await jetStream.publish(Array("m\(index)".utf8), to: index % 3 == 0 ? "feed.other" : "feed.main")
    }
    let messages = await jetStream.orderedMessages(
      // Heartbeats far apart: three missed ones recreate the consumer (and restart its
      // sequence), which a starved test process must not trigger here.
      stream: "FEED", filterSubject: "feed.main", heartbeat: .seconds(5))
    var sequences: [UInt64] = []
    var iterator = messages.makeAsyncIterator()
    while sequences.count < 200, let message = await iterator.next() {
      #expect(message.subject == "feed.main")
      #expect(String(decoding: message.payload, as: UTF8.self) == "m\(message.streamSequence)")
      sequences.append(message.streamSequence)
    }
    #expect(sequences == (1...300).filter { $0 % 3 != 0 }.map(UInt64.init))
    _ = try await jetStream.publish(Array("m301".utf8), to: "feed.main")
    let next = await iterator.next()
    #expect(next?.streamSequence == 301)
    #expect(next?.consumerSequence == 201)
    await client.close()
    await server.stop()
  }

  @Test func aPurgeRemovesTheRecordsASnapshotCoversAndLeavesTheLastSequenceForFencing() async throws {
    let server = try await NATSCluster.start(size: 1)
    let client = try await server.connect()
    let jetStream = client.jetStream
    _ = try await jetStream.createStream(.init(name: "APP", subjects: ["app.>"]))
    for index in 1...6 { _ = try await jetStream.publish([UInt8(index)], to: "app.records") }
    _ = try await jetStream.publish([0], to: "app.snapshot")  // covers records 1...4, say
    for index in 8...9 { _ = try await jetStream.publish([UInt8(index)], to: "app.records") }
    #expect(try await jetStream.purgeStream("APP", subject: "app.records", below: 5) == 4)
    let info = try await jetStream.streamInfo("APP")
    #expect(info.state.messages == 5)  // records 5, 6, 8, 9 and the snapshot
    #expect(info.state.firstSequence == 5)
    #expect(info.state.lastSequence == 9)
    var options = JetStreamPublishOptions()
    options.expectedLastSequence = 9
    #expect(try await jetStream.publish([10], to: "app.records", options: options).sequence == 10)
    #expect(try await jetStream.purgeStream("APP", subject: "app.records", keep: 1) == 4)
    #expect(try await jetStream.getMessage(stream: "APP", .lastBySubject("app.snapshot")).sequence == 7)
    await client.close()
    await server.stop()
  }

  @Test func aJetStreamPublishOverMaxPayloadIsRefusedBeforeAnythingIsSent() async throws {
    let server = try await NATSCluster.start(size: 1, configuration: "max_payload: 2048")
    let client = try await server.connect()
    _ = try await client.jetStream.createStream(.init(name: "SMALL", subjects: ["small"]))
    var options = JetStreamPublishOptions()
    options.messageID = "x"
    do {
      _ = try await client.jetStream.publish([UInt8](repeating: 0, count: 2048), to: "small", options: options)
      Issue.record("a record over max_payload was sent")
    } catch {
      guard case .maxPayloadExceeded(let size, 2048) = error.code else {
        Issue.record("unexpected error: \(error)")
        return
      }
      #expect(size > 2048)
    }
    #expect(try await client.jetStream.streamInfo("SMALL").state.messages == 0)
    await client.close()
    await server.stop()
  }
}
