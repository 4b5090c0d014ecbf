import Testing

@testable import Architecture

@Suite struct EffectTests {
  @Test func sendEffectsAreReducedRightAfterTheActionInOrder() async {
    let store = makeStore(Effects.State(), Effects())
    await store.send(.sendTwo)
    // No await of effects: `.send` actions are processed before `send` returns.
    #expect(await store.state.log == ["a", "b"])
  }

  @Test func actionsSentByARunEffectAreReducedInOrder() async {
    let store = makeStore(Effects.State(), Effects())
    await store.send(.runMany(200)).finish()
    #expect(await store.state.log == (1...200).map { "\($0)" })
    #expect(await store.effectsInFlight == 0)
  }

  @Test func concatenateRunsEachEffectAfterThePreviousFinishes() async {
    let store = makeStore(Effects.State(), Effects())
    await store.send(.concatenated).finish()
    #expect(await store.state.log == ["first", "second", "third"])
  }

  @Test func mergeRunsEffectsConcurrently() async {
    let clock = TestClock()
    let store = makeStore(Effects.State(), clock: clock, Effects())
    let task = await store.send(.merged)
    await clock.advance(by: .seconds(2))
    #expect(await finishes(task))
    // Concurrent: the 1 s effect finishes first although it was listed second.
    #expect(await store.state.log == ["fast", "slow"])
  }

  @Test func mapTransformsTheActionsOfEveryKindOfEffect() async {
    let effect = Effect<Int>.merge(
      .send(1),
      .run { send in await send(2) },
      .concatenate(.send(3), .run { send in await send(4) })
    )
    .map { "\($0 * 10)" }
    struct Feature: Reducer {
      let effect: Effect<String>
      func reduce(into state: inout [String], action: String) -> Effect<String> {
        state.append(action)
        return action == "start" ? self.effect : .none
      }
    }
    let store = StoreActor(initialState: [String]()) { Feature(effect: effect) }
    await store.send("start").finish()
    #expect(await Set(store.state) == ["start", "10", "20", "30", "40"])
  }

  @Test func cancelIsPromptAndLeavesNothingRunning() async {
    let store = makeStore(Effects.State(), Effects())
    let task = await store.send(.runForever(id: "a"))
    #expect(await eventually { await store.state.log == ["start a"] })
    #expect(await store.effectsInFlight == 1)
    // The effect sleeps on a test clock that never advances: only cancellation ends it. The
    // bound is generous because the full suite runs hundreds of tests in parallel on 2 cores.
    await store.send(.cancel(id: "a"))
    #expect(await finishes(task, within: .seconds(10)))
    #expect(await store.effectsInFlight == 0)
    #expect(await store.state.log == ["start a"])
  }

  @Test func cancelOnlyCancelsItsID() async {
    let clock = TestClock()
    let store = makeStore(Effects.State(), clock: clock, Effects())
    let a = await store.send(.runForever(id: "a"))
    let b = await store.send(.runForever(id: "b"))
    await store.send(.cancel(id: "a"))
    #expect(await finishes(a))
    #expect(await store.effectsInFlight == 1)
    #expect(!b.isCancelled)
    b.cancel()
    #expect(await finishes(b))
    #expect(b.isCancelled)
    #expect(await store.effectsInFlight == 0)
  }

  @Test func cancelInFlightReplacesTheRunningEffect() async {
    let clock = TestClock()
    let store = makeStore(Effects.State(), clock: clock, Effects())
    let first = await store.send(.restart(id: "r"))
    #expect(await eventually { await store.state.log == ["start r"] })
    await store.send(.restart(id: "r"))
    #expect(await finishes(first))
    #expect(await eventually { await store.state.log == ["start r", "start r"] })
    #expect(await store.effectsInFlight == 1)
    await store.send(.cancel(id: "r"))
    #expect(await eventually { await store.effectsInFlight == 0 })
  }

  @Test func cancellationIsScopedPerStore() async {
    let clock = TestClock()
    let one = makeStore(Effects.State(), clock: clock, Effects())
    let two = makeStore(Effects.State(), clock: clock, Effects())
    let task = await one.send(.runForever(id: "same"))
    await two.send(.runForever(id: "same"))
    await two.send(.cancel(id: "same"))
    #expect(await eventually { await two.effectsInFlight == 0 })
    #expect(await one.effectsInFlight == 1)
    #expect(!task.isCancelled)
    task.cancel()
    #expect(await finishes(task))
  }

  @Test func sendAfterCancellationIsANoOp() async {
    struct Feature: Reducer {
      func reduce(into state: inout [Int], action: Int) -> Effect<Int> {
        state.append(action)
        guard action == 0 else { return .none }
        return .run { send in
          withUnsafeCurrentTask { $0?.cancel() }
          await send(1)
        }
      }
    }
    let store = StoreActor(initialState: [Int]()) { Feature() }
    await store.send(0).finish()
    #expect(await store.state == [0])
  }

  @Test func debounceRunsOnlyTheLastEffectAfterTheQuietPeriod() async {
    let clock = TestClock()
    let store = makeStore(Effects.State(), clock: clock, Effects())
    await store.send(.search("a"))
    await clock.advance(by: .milliseconds(200))
    await store.send(.search("ab"))
    await clock.advance(by: .milliseconds(200))
    let last = await store.send(.search("abc"))
    await clock.advance(by: .milliseconds(299))
    #expect(await store.state.log == [])
    await clock.advance(by: .milliseconds(1))
    await last.finish()
    #expect(await store.state.log == ["search abc"])
    #expect(await store.effectsInFlight == 0)
  }

  @Test func catchHandlesErrorsAndUnhandledErrorsAreReported() async {
    let warnings = Collector()
    let store = makeStore(Effects.State(), warnings: warnings, Effects())
    await store.send(.failing(handled: true)).finish()
    #expect(await store.state.log == ["failed: Failure()"])
    #expect(warnings.values.isEmpty)
    await store.send(.failing(handled: false)).finish()
    #expect(warnings.values.count == 1)
    let warning = warnings.values.first ?? ""
    #expect(warning.contains("threw an unhandled error.") && warning.contains("Failure()"))
  }

  @Test func taskResultAndResultCaptureAsyncWork() async throws {
    struct Boom: Error, Equatable { var code: Int }
    struct Opaque: Error {}
    let success = await TaskResult { 42 }
    let failure = await TaskResult<Int> { throw Boom(code: 1) }
    #expect(success == .success(42))
    #expect(failure == .failure(Boom(code: 1)))
    #expect(failure != .failure(Boom(code: 2)))
    #expect(TaskResult<Int>.failure(Opaque()) == .failure(Opaque()))
    #expect(TaskResult<Int>.failure(Opaque()) != .failure(Boom(code: 1)))
    #expect(try success.value == 42)
    let work: @Sendable () async throws -> Int = {
      await Task.yield()
      throw Boom(code: 3)
    }
    let result = await Result<Int, any Error> { try await work() }
    #expect(throws: Boom(code: 3)) { try result.get() }
  }

  @Test func mergeAndConcatenateOfNoneStayNone() {
    #expect(Effect<Int>.merge(.none, .none).isNone)
    #expect(Effect<Int>.concatenate(.none, .none).isNone)
    #expect(Effect<Int>.none.map { $0 + 1 }.isNone)
    #expect(Effect<Int>.none.cancellable(id: 1).isNone)
  }
}
