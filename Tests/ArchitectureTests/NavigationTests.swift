import Testing

@testable import Architecture

/// Child effects end with their child: ifLet, forEach, presentation and stack.
@Suite struct NavigationTests {
  @Test func ifLetCancelsChildEffectsWhenTheChildBecomesNil() async {
    let clock = TestClock()
    let store = makeStore(Host.State(optional: Ticker.State()), clock: clock, Host())
    let task = await store.send(.optional(.start))
    await clock.advance(by: .seconds(2))
    #expect(await store.state.optional?.ticks == 2)
    #expect(await store.effectsInFlight == 1)
    await store.send(.setOptional(nil))
    #expect(await finishes(task))
    #expect(await store.effectsInFlight == 0)
    #expect(clock.sleeperCount == 0)
  }

  @Test func ifLetCancelsEffectsOfAReplacedIdentifiableChild() async {
    let clock = TestClock()
    let store = makeStore(Host.State(optional: Ticker.State(id: 1)), clock: clock, Host())
    let task = await store.send(.optional(.start))
    await clock.advance(by: .seconds(1))
    await store.send(.setOptional(Ticker.State(id: 2)))
    #expect(await finishes(task))
    await clock.advance(by: .seconds(3))
    #expect(await store.state.optional == Ticker.State(id: 2, ticks: 0))
  }

  @Test func forEachCancelsTheEffectsOfRemovedElementsOnly() async {
    let clock = TestClock()
    let state = Host.State(tickers: [Ticker.State(id: 1), Ticker.State(id: 2)])
    let store = makeStore(state, clock: clock, Host())
    let first = await store.send(.tickers(.element(id: 1, action: .start)))
    await store.send(.tickers(.element(id: 2, action: .start)))
    await clock.advance(by: .seconds(1))
    #expect(await store.state.tickers.map(\.ticks) == [1, 1])
    await store.send(.removeTicker(id: 1))
    #expect(await finishes(first))
    #expect(await store.effectsInFlight == 1)
    await clock.advance(by: .seconds(2))
    #expect(await store.state.tickers.map(\.ticks) == [3])
  }

  @Test func cancellationIDsAreScopedToTheirElement() async {
    let clock = TestClock()
    let state = Host.State(tickers: [Ticker.State(id: 1), Ticker.State(id: 2)])
    let store = makeStore(state, clock: clock, Host())
    let first = await store.send(.tickers(.element(id: 1, action: .start)))
    await store.send(.tickers(.element(id: 2, action: .start)))
    #expect(await eventually { clock.sleeperCount == 2 })
    // Both elements use the id "ticker"; stopping element 1 must leave element 2 running.
    await store.send(.tickers(.element(id: 1, action: .stop)))
    #expect(await finishes(first))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(2))
    #expect(await store.state.tickers.map(\.ticks) == [0, 2])
  }

  @Test func presentationRunsTheDestinationAndDismissCancelsItsEffects() async {
    let clock = TestClock()
    let warnings = Collector()
    let store = makeStore(Host.State(), clock: clock, warnings: warnings, Host())
    await store.send(.destination(.presented(.tick)))
    #expect(warnings.values.count == 1)
    await store.send(.present(Ticker.State()))
    let task = await store.send(.destination(.presented(.start)))
    await clock.advance(by: .seconds(1))
    #expect(await store.state.destination?.ticks == 1)
    #expect(await store.state.log.contains("destination tick"))
    await store.send(.destination(.dismiss))
    #expect(await store.state.destination == nil)
    #expect(await finishes(task))
    #expect(await store.effectsInFlight == 0)
  }

  @Test func replacingAPresentationCancelsThePreviousOnesEffects() async {
    let clock = TestClock()
    let store = makeStore(Host.State(), clock: clock, Host())
    await store.send(.present(Ticker.State()))
    let task = await store.send(.destination(.presented(.start)))
    // Another identity (TCA's rule: an Identifiable child's `id`) is another presentation.
    await store.send(.present(Ticker.State(id: 1)))
    #expect(await finishes(task))
    await clock.advance(by: .seconds(2))
    #expect(await store.state.destination?.ticks == 0)
  }

  @Test func ephemeralPresentationDismissesAfterItsAction() async {
    let store = makeStore(Host.State(), Host())
    await store.send(.showAlert)
    #expect(await store.state.alert == AlertState { TextState("Sure?") })
    await store.send(.alert(.presented(.confirm)))
    #expect(await store.state.alert == nil)
    #expect(await store.state.log == ["confirmed"])
    await store.send(.showAlert)
    await store.send(.alert(.dismiss))
    #expect(await store.state.alert == nil)
    #expect(await store.state.log == ["confirmed"])
  }

  @Test func stackPushesRoutesPopsAndCancelsPoppedEffects() async {
    let clock = TestClock()
    let warnings = Collector()
    let store = makeStore(Host.State(), clock: clock, warnings: warnings, Host())
    await store.send(.path(.push(id: 0, state: Ticker.State())))
    await store.send(.path(.push(id: 1, state: Ticker.State(id: 7))))
    #expect(await store.state.path.ids == [0, 1])
    let task = await store.send(.path(.element(id: 1, action: .start)))
    await store.send(.path(.element(id: 0, action: .tick)))
    await clock.advance(by: .seconds(1))
    #expect(await store.state.path.map(\.ticks) == [1, 1])
    #expect(await store.state.log.prefix(2) == ["path #1 start", "path #0 tick"])
    await store.send(.path(.popFrom(id: 1)))
    #expect(await finishes(task))
    #expect(await store.state.path.ids == [0])
    #expect(await store.effectsInFlight == 0)
    await store.send(.path(.element(id: 5, action: .tick)))
    await store.send(.path(.push(id: 0, state: Ticker.State())))
    #expect(warnings.values.count == 2)
    var path = await store.state.path
    path.append(Ticker.State())
    #expect(path.ids == [0, 2])
  }
}
