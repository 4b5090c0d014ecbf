import Foundation
import NATS
import NATSTestSupport
import Synchronization
import Testing
import Wire

/// The client facing servers that break the protocol, stay silent or refuse it — fake servers
/// in the test, on loopback — and its reconnection: clear errors, the connection dropped and
/// re-established, never a crash, a hang or unbounded memory.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct FakeServerTests {
  /// A well-behaved server: INFO, handshake, then PONG to every PING.
  static let wellBehaved: @Sendable (FakeNATSServer.Peer, FakeNATSServer) -> Void = { peer, server in
    peer.sendInfo()
    guard peer.completeHandshake() else { return }
    peer.serve { server.record($0) }
  }

  private func configuration(_ urls: [String], _ adjust: (inout NATSConfiguration) -> Void = { _ in })
    throws -> NATSConfiguration
  {
    var configuration = try NATSConfiguration(urls: urls.joined(separator: ","))
    configuration.reconnectWait = .milliseconds(50)
    configuration.connectTimeout = .seconds(10)
    adjust(&configuration)
    return configuration
  }

  /// Waits until `events` holds an event `matching`. Events reach the collector through another
  /// task, which may lag behind the client on a busy machine: a test waits for the last event
  /// it expects before it reads the earlier ones (the stream keeps their order).
  static func waitForEvent(
    _ events: Collected<NATSConnectionEvent>, _ what: String,
    _ matching: @escaping @Sendable (NATSConnectionEvent) -> Bool
  ) async throws {
    try await waitUntil(what) { events.values.contains(where: matching) }
  }

  /// What a broken or hostile server may send first.
  static let garbage: [(String, [UInt8])] = {
    var cases: [(String, [UInt8])] = []
    cases.append(("an unknown operation", Array("HELLO WORLD\r\n".utf8)))
    cases.append(("binary noise", (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) }))
    cases.append(("an INFO that is not JSON", Array("INFO {this is not json}\r\n".utf8)))
    cases.append(("a message before INFO", Array("MSG a 1 5\r\nhello\r\n".utf8)))
    cases.append(("a line without CR", Array("PING\n".utf8)))
    let endless: [UInt8] = Array("INFO ".utf8) + [UInt8](repeating: 0x78, count: 1_048_576)
    cases.append(("an endless INFO line", endless))
    let huge: [UInt8] = Array("INFO {\"headers\":true}\r\nMSG a 1 99999999999999\r\n".utf8)
    cases.append(("a message size beyond any limit", huge))
    return cases
  }()

  @Test(arguments: Self.garbage)
  func garbageFromAServerFailsTheAttemptAndTheClientMovesToTheNextServer(
    what: String, garbage: [UInt8]
  ) async throws {
    let liar = try FakeNATSServer { peer, _ in
      peer.send(garbage)
      _ = peer.readLine(timeout: 30, where: { _ in false })  // until the client hangs up
    }
    let honest = try FakeNATSServer(script: Self.wellBehaved)
    let client = NATSClient(configuration: try self.configuration([liar.url, honest.url]))
    let events = Collected<NATSConnectionEvent>()
    let watching = Task { for await event in client.events { events.append(event) } }
    try await client.start()
    #expect(await client.connectedServer?.port == UInt16(honest.port), "\(what)")
    try await Self.waitForEvent(events, "the connection is reported") { $0.isConnected }
    let failure = events.values.compactMap { event -> NATSError? in
      if case .connectAttemptFailed(let url, let error) = event, url.port == UInt16(liar.port) {
        return error
      }
      return nil
    }.first
    #expect(failure?.code == .protocolViolation, "\(what): \(String(describing: failure))")
    try await client.flush()
    await client.close()
    watching.cancel()
    liar.stop()
    honest.stop()
  }

  @Test func garbageAfterTheHandshakeDropsTheConnectionAndTheClientReconnectsAndResubscribes()
    async throws
  {
    let server = try FakeNATSServer { peer, server in
      peer.sendInfo()
      guard peer.completeHandshake(), let sub = peer.readLine(where: { $0.hasPrefix("SUB ") }).line
      else { return }
      server.record("\(peer.index): \(sub)")
      if peer.index == 0 {
        // A message that claims to be 100 GB: the client must not try to hold it.
        peer.send("MSG updates 1 100000000000\r\n")
        _ = peer.readLine(timeout: 30, where: { _ in false })
      } else {
        peer.send("MSG updates 1 5\r\nfresh\r\n")
        peer.serve()
      }
    }
    let client = NATSClient(configuration: try self.configuration([server.url]))
    let events = Collected<NATSConnectionEvent>()
    let watching = Task { for await event in client.events { events.append(event) } }
    try await client.start()
    let updates = try await client.subscribe(to: "updates")
    var iterator = updates.makeAsyncIterator()
    let message = try await iterator.next()
    #expect(message?.text == "fresh")
    #expect(server.accepted == 2)
    #expect(server.lines == ["0: SUB updates 1", "1: SUB updates 1"])
    try await Self.waitForEvent(events, "the reconnection is reported") { $0.isReconnected }
    let drop = events.values.compactMap { event -> NATSError? in
      if case .disconnected(let error) = event { return error }
      return nil
    }
    #expect(drop.first?.code == .protocolViolation)
    #expect(drop.first?.message.contains("100000000000") == true)
    #expect(await client.statistics.reconnects == 1)
    await client.close()
    watching.cancel()
    server.stop()
  }

  @Test func aMessageWithAMalformedHeaderBlockIsDeliveredWithTheErrorAndTheConnectionStays()
    async throws
  {
    let server = try FakeNATSServer { peer, _ in
      peer.sendInfo()
      guard peer.completeHandshake(), peer.readLine(where: { $0.hasPrefix("SUB ") }).line != nil
      else { return }
      // Other publishers write the header blocks; the server passes them on unchecked.
      peer.send("HMSG updates 1 11 14\r\nGARBAGE\r\n\r\nabc\r\n")
      let block = "NATS/1.0\r\nKey:  spaced  \r\n\r\n"
      peer.send("HMSG updates 1 \(block.utf8.count) \(block.utf8.count + 2)\r\n\(block)ok\r\n")
      peer.serve()
    }
    let client = try await NATSClient.connect(try self.configuration([server.url]))
    let updates = try await client.subscribe(to: "updates")
    var iterator = updates.makeAsyncIterator()
    let broken = try await iterator.next()
    #expect(broken?.headers == nil)
    #expect(broken?.headerError?.reason == .malformedHeaders)
    #expect(broken?.text == "abc")
    let good = try await iterator.next()
    #expect(good?.headers?["Key"] == "spaced")
    #expect(good?.text == "ok")
    #expect(server.accepted == 1)
    #expect(await client.status == .connected)
    await client.close()
    server.stop()
  }

  @Test func aRefusedHandshakeFailsTheConnectionWithTheServersReason() async throws {
    let server = try FakeNATSServer { peer, _ in
      peer.sendInfo(extra: ",\"auth_required\":true")
      _ = peer.readLine(where: { $0.hasPrefix("CONNECT ") })
      peer.send("-ERR 'Authorization Violation'\r\n")
    }
    let client = NATSClient(
      configuration: try self.configuration(["nats://bob:wrong@127.0.0.1:\(server.port)"]))
    let events = Collected<NATSConnectionEvent>()
    let watching = Task { for await event in client.events { events.append(event) } }
    do {
      try await client.start()
      Issue.record("a refused connection succeeded")
    } catch {
      #expect(error.code == .noServersAvailable)
      #expect(error.message.contains("Authorization Violation"))
    }
    try await Self.waitForEvent(events, "the close is reported") { $0.isClosed }
    let attempt = events.values.compactMap { event -> NATSError? in
      if case .connectAttemptFailed(_, let error) = event { return error }
      return nil
    }.first
    #expect(attempt?.code == .authorizationViolation)
    #expect(await client.status == .closed)
    watching.cancel()
    server.stop()
  }

  @Test func aServerRequiringTLSIsRefusedWithAClearError() async throws {
    let server = try FakeNATSServer { peer, _ in
      peer.sendInfo(extra: ",\"tls_required\":true")
      _ = peer.readLine(timeout: 30, where: { _ in false })
    }
    let configuration = try self.configuration([server.url])
    do {
      _ = try await NATSClient.connect(configuration)
      Issue.record("connected to a TLS-only server")
    } catch {
      #expect(error.message.contains("TLS"))
    }
    server.stop()
  }

  @Test func aServerThatStopsAnsweringPingsIsDroppedAsStaleAndAnotherAttemptIsMade() async throws {
    let server = try FakeNATSServer { peer, _ in
      peer.sendInfo()
      guard peer.completeHandshake() else { return }
      if peer.index == 0 {
        _ = peer.readLine(timeout: 30, where: { _ in false })  // silent: no PONG
      } else {
        peer.serve()
      }
    }
    let client = NATSClient(
      configuration: try self.configuration([server.url]) {
        $0.pingInterval = .milliseconds(100)
        $0.maxPingsOutstanding = 2
      })
    let events = Collected<NATSConnectionEvent>()
    let watching = Task { for await event in client.events { events.append(event) } }
    try await client.start()
    try await waitUntil("the client reconnects") {
      events.values.contains { if case .reconnected = $0 { true } else { false } }
    }
    let drop = events.values.compactMap { event -> NATSError? in
      if case .disconnected(let error) = event { return error }
      return nil
    }.first
    #expect(drop?.message.contains("stale") == true)
    await client.close()
    watching.cancel()
    server.stop()
  }

  @Test func aServerThatNeverCompletesTheHandshakeTimesOutAndTheNextIsTried() async throws {
    let mute = try FakeNATSServer { peer, _ in
      peer.sendInfo()
      _ = peer.readLine(timeout: 30, where: { _ in false })  // never answers the PING
    }
    let honest = try FakeNATSServer(script: Self.wellBehaved)
    let client = NATSClient(
      configuration: try self.configuration([mute.url, honest.url]) {
        $0.connectTimeout = .milliseconds(500)
        // The honest server must also finish within 500 ms, which a loaded machine may miss:
        // then the client goes round the list again instead of failing the test.
        $0.retriesInitialConnect = true
      })
    let events = Collected<NATSConnectionEvent>()
    let watching = Task { for await event in client.events { events.append(event) } }
    try await client.start()
    #expect(await client.connectedServer?.port == UInt16(honest.port))
    try await Self.waitForEvent(events, "the connection is reported") { $0.isConnected }
    let failure = events.values.compactMap { event -> NATSError? in
      if case .connectAttemptFailed(_, let error) = event { return error }
      return nil
    }.first
    #expect(failure?.code == .timedOut)
    await client.close()
    watching.cancel()
    mute.stop()
    honest.stop()
  }

  @Test func publishesMadeWhileReconnectingAreSentInOrderAfterTheSubscriptionsAndBoundedInBytes()
    async throws
  {
    let gate = Gate()
    let server = try FakeNATSServer { peer, server in
      if peer.index == 1 {
        gate.wait()  // the client stays disconnected until the test has published
      }
      peer.sendInfo()
      guard peer.completeHandshake() else { return }
      if peer.index == 0 {
        // A request arrives; the connection drops before any answer.
        guard peer.readLine(where: { $0.hasPrefix("PUB service.slow ") }).line != nil else { return }
        return
      }
      var inbox: (prefix: String, sid: String)?
      peer.serve { line in
        server.record(line)
        let words = line.split(separator: " ").map(String.init)
        if words.first == "SUB", words[1].hasPrefix("_INBOX.") {
          inbox = (String(words[1].dropLast()), words[2])
        }
        if words.first == "PUB", words[1] == "service.echo", let inbox, words[2].hasPrefix(inbox.prefix) {
          peer.send("MSG \(words[2]) \(inbox.sid) 4\r\npong\r\n")
        }
      }
    }
    let client = NATSClient(
      configuration: try self.configuration([server.url]) { $0.reconnectBufferBytes = 4096 })
    let events = Collected<NATSConnectionEvent>()
    let watching = Task { for await event in client.events { events.append(event) } }
    try await client.start()
    let updates = try await client.subscribe(to: "updates")  // kept: dropping it unsubscribes
    // A request whose message left before the connection dropped: its outcome is unknown.
    do {
      _ = try await client.request([1], to: "service.slow", timeout: .seconds(60))
      Issue.record("a request on a lost connection succeeded")
    } catch {
      #expect(error.code == .connectionLost)
    }
    #expect(await client.status == .reconnecting)
    // Kept while disconnected, in order; beyond 4 KiB, refused with a clear error.
    for index in 1...3 { try await client.publish(Array("m\(index)".utf8), to: "buffered.\(index)") }
    do {
      try await client.publish([UInt8](repeating: 0, count: 5000), to: "too.much")
      Issue.record("the reconnect buffer grew past its limit")
    } catch {
      #expect(error.code == .reconnectBufferFull(limit: 4096))
    }
    let reply = Task { try await client.request(Array("ping".utf8), to: "service.echo", timeout: .seconds(60)) }
    try await waitUntil("the request is buffered") {
      await client.statistics.messagesSent >= 5
    }
    gate.open()
    let answer = try await reply.value
    #expect(answer.text == "pong")
    let lines = server.lines.filter { !$0.hasPrefix("CONNECT") }
    let subscriptions = lines.filter { $0.hasPrefix("SUB ") }
    let publishes = lines.filter { $0.hasPrefix("PUB ") }
    #expect(subscriptions.count == 2, "\(lines)")  // updates and the inbox, renewed
    #expect(publishes.map { $0.split(separator: " ")[1] } == ["buffered.1", "buffered.2", "buffered.3", "service.echo"])
    // Subscriptions renewed before any kept publish is sent.
    #expect(lines.firstIndex { $0.hasPrefix("PUB ") }! > lines.lastIndex { $0.hasPrefix("SUB ") }!)
    withExtendedLifetime(updates) {}
    await client.close()
    watching.cancel()
    server.stop()
  }
}

/// A flag a test opens and a fake server's script waits for.
final class Gate: Sendable {
  private let isOpen = Mutex(false)

  func open() { self.isOpen.withLock { $0 = true } }

  /// Waits (on the fake server's thread) until opened, at most 60 s.
  func wait() {
    let deadline = Date().addingTimeInterval(60)
    while !self.isOpen.withLock({ $0 }) && Date() < deadline { usleep(1000) }
  }
}

extension NATSConnectionEvent {
  var isConnected: Bool { if case .connected = self { true } else { false } }
  var isReconnected: Bool { if case .reconnected = self { true } else { false } }
  var isClosed: Bool { if case .closed = self { true } else { false } }
}
