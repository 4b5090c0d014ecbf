import Remote
import Testing
import Wire

/// RemoteStore against the FakeHost (a scripted stand-in, not the real daemon).
@Suite(.timeLimit(.minutes(1))) struct RemoteStoreTests {
  typealias Counter = RemoteStore<CounterState, CounterAction>

  @Test func attachesAndDecodesTheSnapshot() async throws {
    try await withFakeHost(count: 3, revision: 41) { host in
      let store = try await Counter(scope: "counter", configuration: testConfiguration(host.path))
      #expect(await store.state == CounterState(count: 3, isTimerRunning: false))
      #expect(await store.revision == 41)
      #expect(await store.status == .connected)
      #expect(await store.withState(\.count) == 3)
      await store.close()
    }
  }

  @Test func sendReturnsTheRevisionAndTheStateAlreadyReflectsIt() async throws {
    try await withFakeHost(count: 3, revision: 41) { host in
      let store = try await Counter(scope: "counter", configuration: testConfiguration(host.path))
      let rev = try await store.send(.incrementButtonTapped)
      #expect(rev == 42)
      #expect(await store.state.count == 4, "read your writes: the patch precedes the ack")
      #expect(try await store.send(.set(10)) == 43)
      #expect(await store.state.count == 10)
      #expect(await store.revision == 43)
      #expect(await host.received.contains(#"{"type":"send","id":3,"scope":"counter","action":{"set":{"_0":10}}}"#))
      await store.close()
    }
  }

  @Test func stateChangesStartWithTheCurrentStateAndFollowTheHost() async throws {
    try await withFakeHost(count: 0) { host in
      let store = try await Counter(scope: "counter", configuration: testConfiguration(host.path))
      var iterator = store.stateChanges().makeAsyncIterator()
      #expect(await iterator.next()?.count == 0)
      await host.setScope("counter", to: J(#"{"count":7,"isTimerRunning":true}"#))
      #expect(await iterator.next() == CounterState(count: 7, isTimerRunning: true))
      // A change outside the decoded State (an unknown member) is not a new State.
      await host.setScope("counter", to: J(#"{"count":7,"isTimerRunning":true,"extra":1}"#))
      await host.setScope("counter", to: J(#"{"count":8,"isTimerRunning":true,"extra":1}"#))
      #expect(await iterator.next()?.count == 8)
      await store.close()
      #expect(await iterator.next() == nil, "the sequence ends when the store stops")
    }
  }

  @Test func rejectedActionsAreTypedErrors() async throws {
    try await withFakeHost { host in
      let store = try await RemoteStore<JSON, JSON>(scope: "counter", configuration: testConfiguration(host.path))
      await #expect(throws: RemoteError.rejected(code: .badAction, message: "action: unknown case of Counter.Action")) {
        try await store.send(J(#"{"explode":{}}"#))
      }
      let info = try await RemoteStore<JSON, JSON>(scope: "info", configuration: testConfiguration(host.path))
      await #expect(throws: RemoteError.rejected(code: .forbidden, message: "scope 'info' is read-only")) {
        try await info.send(J(#"{"incrementButtonTapped":{}}"#))
      }
      #expect(await store.status == .connected, "a refused action does not end the store")
      await store.close()
      await info.close()
    }
  }

  @Test func unknownScopeAndNoHostAndUndecodableStateFailTheAttach() async throws {
    try await withFakeHost { host in
      await #expect(throws: RemoteError.unknownScope(message: "unknown scope 'countr'")) {
        _ = try await Counter(scope: "countr", configuration: testConfiguration(host.path))
      }
      do throws(RemoteError) {
        _ = try await Counter(scope: "info", configuration: testConfiguration(host.path))
        Issue.record("a state that does not decode was accepted")
      } catch {
        guard case .coding(let message) = error else {
          Issue.record("expected a coding error, got \(error)")
          return
        }
        #expect(message.contains("count"), "names the missing member: \(message)")
      }
      await eventually("failed attaches closed their connections") {
        await host.connectionCount == 0
      }
    }
    let path = temporarySocketPath()
    await #expect(throws: RemoteError.noHost(path: path)) {
      _ = try await Counter(scope: "counter", configuration: testConfiguration(path))
    }
  }

  @Test func aPatchWithTheWrongBaseMakesTheStoreResubscribe() async throws {
    try await withFakeHost(count: 1, revision: 10) { host in
      let store = try await Counter(scope: "counter", configuration: testConfiguration(host.path))
      let events = EventLog<RemoteEvent>()
      await events.follow(store.events())
      // The host (buggy) sends a patch that skips a revision the client never saw.
      await host.injectPatch(scope: "counter", base: 11, rev: 12, ops: [J(#"{"op":"replace","path":"/count","value":99}"#)])
      await eventually("the store resubscribed") { await store.resyncCount == 1 }
      await eventually("the store has the host's state") {
        let subscriptions = await host.subscriptionCount
        return subscriptions == 1
      }
      #expect(await store.revision == 10)
      #expect(await store.state.count == 1, "the bad patch was not applied")
      #expect(await host.received.contains(#"{"type":"unsubscribe","id":2,"sub":1}"#))
      #expect(await host.received.last == #"{"type":"subscribe","id":3,"scope":"counter"}"#)
      // The new subscription follows the host again.
      #expect(try await store.send(.incrementButtonTapped) == 11)
      #expect(await store.state.count == 2)
      let items = await events.items
      #expect(items.contains(.snapshot(Snapshot(revision: 10, state: J(#"{"count":1,"isTimerRunning":false}"#)), reason: .resynced)))
      await store.close()
    }
  }

  @Test func aPatchThatDoesNotApplyMakesTheStoreResubscribe() async throws {
    try await withFakeHost { host in
      let store = try await Counter(scope: "counter", configuration: testConfiguration(host.path))
      await host.injectPatch(scope: "counter", base: 0, rev: 1, ops: [J(#"{"op":"remove","path":"/missing"}"#)])
      await eventually("the store resubscribed") { await store.resyncCount == 1 }
      #expect(try await store.send(.incrementButtonTapped) == 1)
      #expect(await store.state.count == 1)
      await store.close()
    }
  }

  @Test func scopeGoneEndsTheStoreWithATypedError() async throws {
    try await withFakeHost { host in
      let store = try await Counter(scope: "counter", configuration: testConfiguration(host.path))
      let changes = store.stateChanges()
      await host.removeScope("counter")
      await eventually("the store failed") { await store.status != .connected }
      #expect(await store.status == .failed(.scopeGone(scope: "counter")))
      var count = 0
      for await _ in changes { count += 1 }
      #expect(count <= 1, "the sequence ended")
      await #expect(throws: RemoteError.scopeGone(scope: "counter")) {
        try await store.send(.incrementButtonTapped)
      }
    }
  }

  @Test func reconnectsAfterTheHostRestartsAndResumesFromAFreshSnapshot() async throws {
    let path = temporarySocketPath()
    let first = FakeHost.counter(path: path, count: 5, revision: 20)
    try await first.start()
    let store = try await Counter(scope: "counter", configuration: testConfiguration(path))
    let events = EventLog<RemoteEvent>()
    await events.follow(store.events())
    #expect(try await store.send(.incrementButtonTapped) == 21)
    await first.stop()
    await eventually("the store noticed") { await store.status != .connected }
    #expect(await store.state.count == 6, "the last state is kept while disconnected")
    do throws(RemoteError) {
      try await store.send(.incrementButtonTapped)
      Issue.record("a send while disconnected succeeded")
    } catch {
      #expect(error.isTransient)
    }
    // Let a few attempts fail, then bring a fresh host up on the same path.
    try await Task.sleep(for: .milliseconds(60))
    let second = FakeHost.counter(path: path, count: 100, revision: 0)
    try await second.start()
    await eventually("the store reconnected") { await store.status == .connected }
    #expect(await store.state.count == 100)
    #expect(await store.revision == 0)
    #expect(await store.reconnectCount == 1)
    #expect(try await store.send(.incrementButtonTapped) == 1)
    #expect(await store.state.count == 101)
    let items = await events.items
    #expect(items.contains { if case .disconnected(.disconnected(nil), _) = $0 { true } else { false } })
    #expect(items.contains(.snapshot(Snapshot(revision: 0, state: J(#"{"count":100,"isTimerRunning":false}"#)), reason: .reconnected)))
    await store.close()
    await second.stop()
  }

  @Test func aStoreNobodyHoldsStopsReconnecting() async throws {
    let path = temporarySocketPath()
    let host = FakeHost.counter(path: path)
    try await host.start()
    var store: Counter? = try await Counter(scope: "counter", configuration: testConfiguration(path))
    weak let released = store
    await host.stop()
    await eventually("the store is reconnecting") {
      if case .reconnecting = await store?.status { true } else { false }
    }
    store = nil
    await eventually("the store was released") { released == nil }
  }

  @Test func withoutReconnectionALostConnectionEndsTheStore() async throws {
    try await withFakeHost { host in
      let store = try await Counter(scope: "counter", configuration: testConfiguration(host.path, reconnects: false))
      await host.shutDown()
      await eventually("the store failed") { await store.status != .connected }
      #expect(await store.status == .failed(.disconnected(reason: "shutdown")))
    }
  }

  @Test func reconnectionGivesUpAfterTheConfiguredAttempts() async throws {
    let path = temporarySocketPath()
    let host = FakeHost.counter(path: path)
    try await host.start()
    let store = try await Counter(scope: "counter", configuration: testConfiguration(path, maxAttempts: 3))
    await host.stop()
    await eventually("the store gave up") { await store.status == .failed(.noHost(path: path)) }
  }

  @Test func fireAndForgetSendsKeepTheirOrderAndReportRefusals() async throws {
    try await withFakeHost { host in
      let store = try await RemoteStore<JSON, JSON>(scope: "counter", configuration: testConfiguration(host.path))
      let events = EventLog<RemoteEvent>()
      await events.follow(store.events())
      for value in 1...50 { store.sendWithoutWaiting(J(#"{"set":{"_0":\#(value)}}"#)) }
      store.sendWithoutWaiting(J(#"{"bogus":1}"#))
      await eventually("every action was reduced") { await host.revision == 50 }
      await eventually("the refusal was reported") {
        await events.items.contains(.rejected(.rejected(code: .badAction, message: "action: unknown case of Counter.Action")))
      }
      await eventually("the mirror caught up") { await store.stateJSON == J(#"{"count":50,"isTimerRunning":false}"#) }
      let sends = await host.received.filter { $0.contains(#""type":"send""#) }
      #expect(sends.count == 51)
      #expect(sends.allSatisfy { !$0.contains(#""id""#) }, "fire-and-forget sends carry no id")
      #expect(sends.first == #"{"type":"send","scope":"counter","action":{"set":{"_0":1}}}"#)
      await store.close()
    }
  }

  @Test func eventsCarryTheOpsAndTheStatesAroundThem() async throws {
    try await withFakeHost(count: 3, revision: 41) { host in
      let store = try await RemoteStore<JSON, JSON>(scope: "counter", configuration: testConfiguration(host.path))
      var events = store.events().makeAsyncIterator()
      #expect(await events.next() == .snapshot(Snapshot(revision: 41, state: J(#"{"count":3,"isTimerRunning":false}"#)), reason: .initial))
      try await store.send(J(#"{"incrementButtonTapped":{}}"#))
      #expect(
        await events.next()
          == .patch(
            base: 41, rev: 42, ops: [J(#"{"op":"replace","path":"/count","value":4}"#)],
            before: J(#"{"count":3,"isTimerRunning":false}"#), after: J(#"{"count":4,"isTimerRunning":false}"#)))
      await store.close()
      #expect(await events.next() == .ended(.closed))
      #expect(await events.next() == nil)
    }
  }
}
