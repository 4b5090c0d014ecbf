import Foundation
import Testing
import XCTest

@testable import Architecture

/// `Store` as TCA's documentation writes it: a main-actor class whose `send` is synchronous.
@Suite struct MainActorStoreTests {
  @MainActor @Test func sendReducesBeforeItReturnsWithNoAwait() {
    let store = Store(initialState: Parent.State()) { Parent() }
    store.send(.counter(.increment))
    store.send(.counter(.increment))
    #expect(store.withState(\.counter.count) == 2)
    #expect(store.counter.count == 2, "dynamic member lookup reads the state")
    #expect(store.state.log == ["parent", "parent"])
  }

  @MainActor @Test func theTaskFormOfSendIsNilWithoutEffectsAndFinishesWithThem() async {
    // A test's dependencies are the test values: an effect that sleeps needs a test clock.
    let store = Store(initialState: Effects.State()) { Effects() } withDependencies: {
      $0.clock = TestClock()
    }
    let none: Task<Void, Never>? = store.send(.record("x"))
    #expect(none == nil)
    await store.send(.runMany(3))?.value
    #expect(store.log == ["x", "1", "2", "3"])
    let forever: Task<Void, Never>? = store.send(.runForever(id: "f"))
    forever?.cancel()
    await forever?.value
    #expect(store.effectsInFlight == 0, "cancelling the task cancels the effects")
  }

  @MainActor @Test func scopedStoresReadThroughTheRootAndSendThroughIt() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let child: StoreOf<Counter> = store.scope(state: \.counter, action: \.counter)
    child.send(.increment)
    #expect(store.counter.count == 1)
    #expect(store.log == ["parent"], "the root's reducer saw the embedded action")
    store.send(.counter(.set(41)))
    #expect(child.count == 41)
  }

  @MainActor @Test func anOptionalScopeIsNilWhenTheStateIsAndIgnoresActionsOnceItIsGone() {
    let store = Store(initialState: Parent.State()) { Parent() }
    #expect(store.scope(state: \.optional, action: \.optional) == nil)
    store.send(.setOptional(Counter.State(count: 5)))
    let child = store.scope(state: \.optional, action: \.optional)
    #expect(child?.count == 5)
    child?.send(.increment)
    #expect(store.optional?.count == 6)
    store.send(.setOptional(nil))
    child?.send(.increment)
    #expect(store.log.count == 3, "the action sent to the dismissed child never reached the root")
    #expect(child?.count == 6, "the child keeps showing its last state")
  }

  @available(*, deprecated, message: "Tests the deprecated closure-based scope.")
  @MainActor @Test func aStoreScopedWithClosuresComputesItsStateOnlyWhenRead() {
    var calls = 0
    let store = Store(initialState: Parent.State()) { Parent() }
    let counts = store.scope(
      state: { (state: Parent.State) -> Int in
        calls += 1
        return state.counter.count
      },
      action: { (action: Counter.Action) in Parent.Action.counter(action) })
    counts.send(.increment)
    #expect(calls == 0)
    #expect(counts.state == 1)
    #expect(calls == 1)
  }

  @MainActor @Test func theInitialStateAndTheReducerSeeTheStoresDependencies() {
    struct Stamped: Reducer {
      struct State: Equatable {
        var stamp: Date
        init() {
          @Dependency(\.date) var date
          self.stamp = date()
        }
      }
      let built: Date
      func reduce(into state: inout State, action: Void) -> Effect<Void> {
        state.stamp = self.built
        return .none
      }
    }
    @Dependency(\.date) var date
    let store = Store(initialState: Stamped.State()) {
      Stamped(built: date().addingTimeInterval(1))
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSince1970: 1_000))
    }
    #expect(store.stamp == Date(timeIntervalSince1970: 1_000))
    store.send(())
    #expect(store.stamp == Date(timeIntervalSince1970: 1_001))
  }

  @MainActor @Test func releasingTheLastStoreOfATreeCancelsItsEffects() async {
    let clock = TestClock()
    let cancelled = Locked(false)
    struct Sleeper: Reducer {
      let clock: TestClock<Duration>
      let cancelled: Locked<Bool>
      func reduce(into state: inout Int, action: Void) -> Effect<Void> {
        .run { [clock, cancelled] _ in
          do {
            try await clock.sleep(for: .seconds(60))
          } catch {
            cancelled.withLock { $0 = true }
          }
        }
      }
    }
    var child: Store<Int, Void>? = {
      let store = Store(initialState: 0) { Sleeper(clock: clock, cancelled: cancelled) }
      store.send(())
      return store.scope(state: \.self, action: \.self)
    }()
    await Task.yield()
    #expect(!cancelled.value, "a scoped store keeps the tree, and its effects, alive")
    child = nil
    var waited = 0
    while !cancelled.value && waited < 5_000 {
      try? await Task.sleep(for: .milliseconds(1))
      waited += 1
    }
    #expect(cancelled.value, "releasing the last store cancelled the effect")
    _ = child
  }
}

/// Where a `Store`'s effects send their actions: under XCTest the main actor is the main thread,
/// so the thread tells whether an action was reduced on the main actor.
final class MainActorStoreXCTests: XCTestCase {
  @MainActor
  func testActionsEffectsSendBackAreReducedOnTheMainActor() async {
    struct Feature: Reducer {
      func reduce(into state: inout [String], action: String) -> Effect<String> {
        state.append("\(action) on \(Thread.isMainThread ? "the main thread" : "another thread")")
        guard action == "start" else { return .none }
        return .run { send in
          await send("from a task")
          await send("again")
        }
      }
    }
    let store = Store(initialState: [String]()) { Feature() }
    await store.send("start").finish()
    XCTAssertEqual(
      store.state,
      ["start on the main thread", "from a task on the main thread", "again on the main thread"])
  }
}
