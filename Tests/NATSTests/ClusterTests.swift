import NATS
import NATSTestSupport
import Testing
import Wire

/// Faults of a real 3-node JetStream cluster on loopback: the server a client is connected to
/// killed with SIGKILL, the leader of a stream killed. Nothing acknowledged is lost; an ordered
/// consumer sees every message once, in order.
@Suite(
  .serialized, .timeLimit(.minutes(10)),
  .enabled(if: NATSServerBinary.isAvailable, Comment(rawValue: NATSServerBinary.skipReason)))
struct ClusterTests {
  /// Publishes until the stream acknowledges, retrying with the same message id while the
  /// outcome is unknown (a timeout, a lost connection) or the stream has no leader: the stream
  /// stores the message once.
  static func publishAcknowledged(
    _ client: NATSClient, _ payload: String, to subject: String, attempts: Collected<String>? = nil
  ) async throws -> JetStreamPublishAck {
    var options = JetStreamPublishOptions()
    options.messageID = payload
    // A bound far above any election here, so that a client that cannot reach the stream
    // fails the test instead of hanging it.
    let deadline = ContinuousClock.now + .seconds(240)
    while true {
      do {
        return try await client.jetStream.publish(
          Array(payload.utf8), to: subject, options: options, timeout: .seconds(5))
      } catch {
        attempts?.append("\(payload): \(error)")
        let retriable =
          error.isOutcomeUnknown || error.code == .noResponders || error.code == .disconnected
          || error.jetStreamErrorCode == JetStreamErrorCode.temporarilyUnavailable
        guard retriable, ContinuousClock.now < deadline else {
          throw HarnessError("\(payload) was not acknowledged within 240 s; the last error: \(error)")
        }
        try await Task.sleep(for: .milliseconds(50))
      }
    }
  }

  /// Runs `body` in a task that the test's cancellation (its time limit) cancels too.
  static func background<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Task<T, any Error> {
    Task { try await body() }
  }

  static func value<T: Sendable>(of task: Task<T, any Error>) async throws -> T {
    try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      task.cancel()
    }
  }

  @Test func acknowledgedPublishesSurviveAKill9OfTheServerTheClientIsConnectedTo() async throws {
    let cluster = try await NATSCluster.start()
    let admin = try await cluster.connect()
    var configuration = JetStreamStreamConfiguration(name: "DURABLE", subjects: ["durable.>"])
    configuration.replicas = 3
    _ = try await admin.jetStream.createStream(configuration)
    _ = try await cluster.waitForStreamLeader("DURABLE", client: admin)

    // The client knows n1 only; the cluster advertises n2 and n3 in INFO's connect_urls.
    let n1 = cluster.nodes[0]
    let client = try await cluster.connect(urls: n1.url)
    #expect(await client.connectedServer?.port == UInt16(n1.clientPort))
    try await waitUntil("the cluster's other servers are advertised") {
      (await client.serverInfo?.connectURLs.count ?? 0) >= 3
    }
    let echo = try await client.subscribe(to: "core.echo")

    let total = 600
    let acks = Collected<(Int, UInt64)>()
    let retries = Collected<String>()
    let publisher = Self.background {
      for index in 1...total {
        let ack = try await Self.publishAcknowledged(client, "m-\(index)", to: "durable.records", attempts: retries)
        acks.append((index, ack.sequence))
      }
    }
    do {
      try await waitUntil("150 publishes are acknowledged", timeout: 240) { acks.count >= 150 }
    } catch {
      throw HarnessError("\(error): \(acks.count) acknowledged; the last retries: \(retries.values.suffix(5))")
    }
    try await n1.kill()  // kill -9 of the server the client is connected to
    try await Self.value(of: publisher)
    #expect(acks.count == total)
    #expect(await client.statistics.reconnects >= 1)
    #expect(await client.connectedServer?.port != UInt16(n1.clientPort))
    // No expectation on `retries`: a kill that falls between an ack and the next publish is
    // absorbed by the reconnect buffer (the publish leaves after the reconnection), which a
    // loaded machine makes likely; the reconnection above is what shows the kill was noticed.

    // Every acknowledged message is in the stream, once, at the sequence its ack gave.
    let info = try await admin.jetStream.streamInfo("DURABLE")
    #expect(info.state.messages == UInt64(total))
    #expect(Set(acks.values.map(\.1)).count == total)
    for (index, sequence) in acks.values {
      let stored = try await admin.jetStream.getMessage(stream: "DURABLE", .sequence(sequence))
      #expect(String(decoding: stored.payload, as: UTF8.self) == "m-\(index)")
    }
    // The core subscription was renewed on the new server.
    try await client.publish(Array("still here".utf8), to: "core.echo")
    var iterator = echo.makeAsyncIterator()
    #expect(try await iterator.next()?.text == "still here")
    await client.close()
    await admin.close()
    await cluster.stop()
  }

  /// The server the ordered consumer currently runs on.
  private func waitForConsumerHost(_ client: NATSClient, names: Collected<String>) async throws -> String {
    var host: String?
    try await waitUntil("the consumer's server is known") {
      guard let name = names.values.last else { return false }
      host = try? await client.jetStream.consumerInfo(stream: "FOLLOW", name: name).server
      return host != nil
    }
    return host!
  }

  @Test func anOrderedConsumerDeliversEveryMessageOnceInOrderAcrossKillsOfTheLeaderAndOfItsServer()
    async throws
  {
    let cluster = try await NATSCluster.start()
    let admin = try await cluster.connect()
    var configuration = JetStreamStreamConfiguration(name: "FOLLOW", subjects: ["follow.>"])
    configuration.replicas = 3
    _ = try await admin.jetStream.createStream(configuration)
    let leader = try await cluster.waitForStreamLeader("FOLLOW", client: admin)
    await admin.close()
    // Both clients on servers that survive; the consumer may live on the leader.
    let survivors = cluster.nodes.filter { $0.name != leader }.map(\.url).joined(separator: ",")
    let producer = try await cluster.connect(urls: survivors)
    let follower = try await cluster.connect(urls: survivors)

    let total = 600
    let publisher = Self.background {
      for index in 1...total {
        _ = try await Self.publishAcknowledged(producer, "m-\(index)", to: "follow.records")
      }
    }
    let consumers = Collected<String>()
    let resets = Collected<String>()
    let messages = await follower.jetStream.orderedMessages(
      stream: "FOLLOW", heartbeat: .seconds(1),
      onEvent: { event in
        switch event {
        case .created(let name, _): consumers.append(name)
        case .resetting(let reason): resets.append(reason)
        case .createFailed: break
        }
      })
    // Read in the background, so that every wait below has its bound.
    let collected = Collected<JetStreamMessage>()
    let reader = Self.background {
      for await message in messages { collected.append(message) }
    }
    try await waitUntil("100 messages are read", timeout: 240) { collected.count >= 100 }
    // 1. kill -9 of the stream's leader, which is then restarted from its store.
    let killedLeader = cluster.node(named: leader)!
    try await killedLeader.kill()
    try await waitUntil("200 messages are read", timeout: 240) { collected.count >= 200 }
    try killedLeader.start()
    #expect(try await killedLeader.waitUntilReady())
    _ = try await cluster.waitForStreamLeader("FOLLOW", client: producer)
    // 2. kill -9 of the server running the consumer: it must recreate itself from the next
    //    sequence.
    let host = try await waitForConsumerHost(follower, names: consumers)
    try await cluster.node(named: host)!.kill()
    try await Self.value(of: publisher)
    try await waitUntil("every message is read", timeout: 240) { collected.count >= total }
    reader.cancel()
    let received = collected.values

    #expect(received.map(\.streamSequence) == (1...UInt64(total)).map { $0 })
    #expect(received.map { String(decoding: $0.payload, as: UTF8.self) } == (1...total).map { "m-\($0)" })
    #expect(!resets.values.isEmpty, "the consumer's server died and it was not recreated")
    await producer.close()
    await follower.close()
    await cluster.stop()
  }
}
