import Testing

@testable import Architecture

@Suite struct TestClockTests {
  @Test func sleepersResumeInDeadlineOrder() async {
    let clock = TestClock()
    let order = Locked<[Int]>([])
    await withTaskGroup(of: Void.self) { group in
      for seconds in [3, 1, 2] {
        group.addTask {
          try? await clock.sleep(for: .seconds(seconds))
          order.withLock { $0.append(seconds) }
        }
      }
      #expect(await eventually { clock.sleeperCount == 3 })
      await clock.advance(by: .seconds(3))
    }
    #expect(order.value == [1, 2, 3])
    #expect(clock.now == TestClock.Instant(offset: .seconds(3)))
  }

  @Test func advanceOnlyResumesDueSleepersAndMovesNow() async {
    let clock = TestClock()
    let woke = Locked(false)
    let sleeper = Task {
      try? await clock.sleep(for: .seconds(2))
      woke.withLock { $0 = true }
    }
    #expect(await eventually { clock.sleeperCount == 1 })
    await clock.advance(by: .seconds(1))
    #expect(!woke.value)
    #expect(clock.now.offset == .seconds(1))
    await clock.advance(by: .seconds(1))
    await sleeper.value
    #expect(woke.value)
  }

  @Test func cancellingASleeperThrowsAtOnce() async {
    let clock = TestClock()
    let sleeper = Task { () -> Bool in
      do {
        try await clock.sleep(for: .seconds(60))
        return false
      } catch {
        return error is CancellationError
      }
    }
    #expect(await eventually { clock.sleeperCount == 1 })
    sleeper.cancel()
    #expect(await sleeper.value)
    #expect(clock.sleeperCount == 0)
    #expect(clock.now.offset == .zero)
  }

  @Test func runAdvancesUntilNothingSleeps() async {
    let clock = TestClock()
    let ticks = Locked(0)
    let sleeper = Task {
      for _ in 0..<5 {
        try? await clock.sleep(for: .seconds(10))
        ticks.withLock { $0 += 1 }
      }
    }
    #expect(await eventually { clock.sleeperCount == 1 })
    await clock.run()
    await sleeper.value
    #expect(ticks.value == 5)
    #expect(clock.now.offset == .seconds(50))
  }

  @Test func aTimerEffectTicksOncePerAdvancedSecondAndStopsWhenCancelled() async {
    let clock = TestClock()
    let store = makeStore(Effects.State(), clock: clock, Effects())
    let timer = await store.send(.timer)
    #expect(await eventually { clock.sleeperCount == 1 })
    await clock.advance(by: .seconds(3))
    #expect(await store.state.count == 3)
    timer.cancel()
    await timer.finish()
    await clock.advance(by: .seconds(3))
    #expect(await store.state.count == 3)
    #expect(clock.sleeperCount == 0)
  }
}
