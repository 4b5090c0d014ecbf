import Remote
import Testing
import Wire

/// HostClient against the FakeHost (a scripted stand-in, not the real daemon).
@Suite(.timeLimit(.minutes(1))) struct HostClientTests {
  @Test func handshakeAndRequests() async throws {
    try await withFakeHost(count: 2, revision: 5) { host in
      let client = try await HostClient.connect(to: host.path, client: "tests/1")
      #expect(await client.host == HostInfo(protocolVersion: 1, host: "fakehost/0", app: "fake", session: "1"))
      #expect(await host.received.first == #"{"type":"hello","protocol":1,"client":"tests/1"}"#)
      let scopes = try await client.scopes()
      #expect(scopes.map(\.pattern) == ["counter", "info"])
      #expect(scopes.first?.writable == true)
      #expect(try await client.get("counter") == Snapshot(revision: 5, state: J(#"{"count":2,"isTimerRunning":false}"#)))
      #expect(try await client.send(J(#"{"incrementButtonTapped":{}}"#), to: "counter") == 6)
      let rtt = try await client.ping()
      // A round trip took some time; how much is for benchmarks (a loaded machine stalls tests).
      #expect(rtt > .zero)
      await #expect(throws: RemoteError.unknownScope(message: "unknown scope 'nope'")) {
        try await client.get("nope")
      }
      await #expect(throws: RemoteError.rejected(code: .notSubscribed, message: "no subscription 9")) {
        try await client.unsubscribe(9)
      }
      await client.close()
      await #expect(throws: RemoteError.closed) { try await client.ping() }
    }
  }

  @Test func subscriptionEventsArriveInOrderStartingWithTheSnapshot() async throws {
    try await withFakeHost { host in
      let client = try await HostClient.connect(to: host.path)
      let log = Log()
      let (sub, snapshot) = try await client.subscribe("counter") { event in log.append(event) }
      #expect(sub == 1 && snapshot.revision == 0)
      try await client.send(J(#"{"incrementButtonTapped":{}}"#), to: "counter")
      // Read your writes: the patch was handled before the ack returned.
      #expect(log.events == [
        .subscribed(sub: 1, snapshot: snapshot),
        .patch(sub: 1, base: 0, rev: 1, ops: [J(#"{"op":"replace","path":"/count","value":1}"#)]),
      ])
      try await client.unsubscribe(sub)
      try await client.send(J(#"{"incrementButtonTapped":{}}"#), to: "counter")
      #expect(log.events.count == 2, "no events after unsubscribe")
      await client.close()
    }
  }

  @Test func requestsInFlightFailWhenTheHostGoesAway() async throws {
    try await withFakeHost { host in
      let client = try await HostClient.connect(to: host.path)
      await host.shutDown()
      let reason = await client.closed()
      #expect(reason == .disconnected(reason: "shutdown"))
      await #expect(throws: RemoteError.disconnected(reason: "shutdown")) { try await client.ping() }
    }
  }

  @Test func aHostThatNeverAnswersTimesOut() async throws {
    try await withFakeHost { host in
      await host.setAnswersHello(false)
      await #expect(throws: RemoteError.timedOut("waiting 0.2 seconds for the host's welcome")) {
        _ = try await HostClient.connect(to: host.path, timeout: .milliseconds(200))
      }
    }
  }

  @Test func garbageFromTheHostIsAProtocolViolation() async throws {
    try await withFakeHost { host in
      let client = try await HostClient.connect(to: host.path)
      await host.injectBytes([0, 0, 0, 3] + Array("{x}".utf8))
      let reason = await client.closed()
      guard case .protocolViolation(let detail) = reason else {
        Issue.record("expected a protocol violation, got \(reason)")
        return
      }
      #expect(detail.hasPrefix("the host sent invalid JSON"))
    }
    try await withFakeHost { host in
      let client = try await HostClient.connect(to: host.path)
      await host.injectBytes([0, 0, 0, 0])
      guard case .protocolViolation(let detail) = await client.closed() else {
        Issue.record("a zero-length frame was accepted")
        return
      }
      #expect(detail.contains("zero-length frame"))
    }
  }
}

/// A thread-safe list of subscription events (handlers run on the client's loop).
final class Log: Sendable {
  private let storage = Mutex<[SubscriptionEvent]>([])
  func append(_ event: SubscriptionEvent) { self.storage.withLock { $0.append(event) } }
  var events: [SubscriptionEvent] { self.storage.withLock { $0 } }
}

import Synchronization
