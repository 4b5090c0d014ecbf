import Architecture
import Examples
import Hosting
import Remote
import Synchronization
import Testing

/// A front end for the counter, written once against `StoreProtocol` as a view model would be:
/// it shows the count it observes and sends the user's taps.
final class CounterViewModel<S: StoreProtocol>: Sendable
where S.State == Counter.State, S.Action == Counter.Action {
  let store: S
  private let shown = ShownCount()
  private let observation: Task<Void, Never>

  /// The count on screen: the last state observed.
  var displayedCount: Int? { self.shown.value }

  init(store: S) {
    self.store = store
    self.observation = Task { [shown] in
      for await state in store.stateChanges() {
        shown.value = state.count
      }
    }
  }

  deinit { self.observation.cancel() }

  /// The user tapped "+" `times` times; returns the count the store has right after.
  func incrementTapped(times: Int) async throws(S.Failure) -> Int {
    for _ in 0..<times {
      try await self.store.send(.incrementButtonTapped)
    }
    return await self.store.state.count
  }

  /// The user tapped "−".
  func decrementTapped() async throws(S.Failure) {
    try await self.store.send(.decrementButtonTapped)
  }
}

/// The observed value, written by the observation task and read by the test.
final class ShownCount: Sendable {
  private let storage = Mutex<Int?>(nil)

  var value: Int? {
    get { self.storage.withLock { $0 } }
    set { self.storage.withLock { $0 = newValue } }
  }
}

/// One piece of code, two stores: the view model above runs unchanged on a local `StoreActor` and on
/// a `RemoteStore` of a real host (a `StoreHost` serving the example app in this process).
@Suite(.timeLimit(.minutes(1))) struct StoreProtocolTests {
  /// What the test does with a counter store, whichever kind: returns the counts it saw.
  func exercise<S: StoreProtocol>(
    _ store: S
  ) async throws(S.Failure) -> [Int] where S.State == Counter.State, S.Action == Counter.Action {
    let model = CounterViewModel(store: store)
    let start = await store.state.count
    let afterIncrements = try await model.incrementTapped(times: 3)
    await eventually("the model shows the new count") { model.displayedCount == start + 3 }
    try await model.decrementTapped()
    await eventually("the model shows the decrement") { model.displayedCount == start + 2 }
    return [afterIncrements - start, (model.displayedCount ?? 0) - start]
  }

  @Test func aViewModelRunsUnchangedOnALocalStore() async {
    let store = StoreActor(initialState: Counter.State()) { Counter() }
    #expect(await self.exercise(store) == [3, 2])
  }

  @Test func aViewModelRunsUnchangedOnARemoteScopeOfARealHost() async throws {
    let host = try await StoreHost.start(
      app: "examples",
      initialState: AppFeature.State(),
      reducer: { AppFeature() },
      scopes: [.scope("counter", state: \.counter, action: \.counter)],
      configuration: HostConfiguration(socketPath: temporarySocketPath("sp")))
    do {
      await host.send(.counter(.incrementButtonTapped))
      let store = try await RemoteStore<Counter.State, Counter.Action>(
        scope: "counter", configuration: testConfiguration(host.socketPath))
      #expect(await store.state.count == 1)
      #expect(try await self.exercise(store) == [3, 2])
      #expect(await host.state.counter.count == 3, "the host's own state changed")
      await store.close()
    } catch {
      await host.shutdown()
      throw error
    }
    await host.shutdown()
  }

  @Test func aRemoteRefusalReachesGenericCodeAsItsTypedFailure() async throws {
    let host = try await StoreHost.start(
      app: "examples",
      initialState: AppFeature.State(),
      reducer: { AppFeature() },
      scopes: [.readOnly("counter", state: \.counter)],
      configuration: HostConfiguration(socketPath: temporarySocketPath("sp")))
    let store = try await RemoteStore<Counter.State, Counter.Action>(
      scope: "counter", configuration: testConfiguration(host.socketPath))
    let model = CounterViewModel(store: store)
    do {
      _ = try await model.incrementTapped(times: 1)
      Issue.record("a read-only scope accepted an action")
    } catch {
      #expect(error == .rejected(code: .forbidden, message: "'counter' is read-only"))
    }
    await store.close()
    await host.shutdown()
  }
}
