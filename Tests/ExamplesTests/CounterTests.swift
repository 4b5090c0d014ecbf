import Architecture
import Examples
import Testing

/// The counter, tested as TCA's "Testing your feature" tutorial does.
@Suite struct CounterTests {
  @Test func basics() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.incrementButtonTapped) { $0.count = 1 }
    await store.send(.decrementButtonTapped) { $0.count = 0 }
  }

  @Test func changingTheCountClearsTheFact() async {
    let store = TestStore(initialState: Counter.State(count: 3, fact: "3 is odd.")) { Counter() }
    await store.send(.incrementButtonTapped) {
      $0.count = 4
      $0.fact = nil
    }
  }

  @Test func countSaturatesInsteadOfCrashing() async {
    let store = TestStore(initialState: Counter.State(count: .max)) { Counter() }
    await store.send(.incrementButtonTapped)
    let low = TestStore(initialState: Counter.State(count: .min)) { Counter() }
    await low.send(.decrementButtonTapped)
  }

  @Test func timer() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.clock = clock
    }

    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = true }
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick) { $0.count = 1 }
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick) { $0.count = 2 }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = false }
    // Cancelled: time passing no longer ticks.
    await clock.advance(by: .seconds(5))
  }

  @Test func numberFact() async {
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) is a good number." }
    }

    await store.send(.factButtonTapped) { $0.isLoading = true }
    await store.receive(\.factResponse, timeout: .seconds(1)) {
      $0.isLoading = false
      $0.fact = "0 is a good number."
    }
  }

  @Test func numberFactFailure() async {
    struct Offline: Error {}
    let store = TestStore(initialState: Counter.State(count: 7)) {
      Counter()
    } withDependencies: {
      $0.numberFact.fetch = { _ in throw Offline() }
    }

    await store.send(.factButtonTapped) { $0.isLoading = true }
    await store.receive(.factResponse("Couldn't load a fact about 7: Offline().")) {
      $0.isLoading = false
      $0.fact = "Couldn't load a fact about 7: Offline()."
    }
  }

  @Test func numberFactIsUnimplementedInTests() async {
    await withKnownIssue {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await store.receive(\.factResponse) {
        $0.isLoading = false
        $0.fact = "Couldn't load a fact about 0: Unimplemented: NumberFactClient.fetch."
      }
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        "Unimplemented: NumberFactClient.fetch was called in a test context."
          + " Override it with withDependencies."
      ]
    }
  }

  @Test(arguments: [
    (
      0,
      "0 is an even number that is neither prime nor composite. Its square is 0, it has 1"
        + " digit and its digits add up to 0."
    ),
    (
      1,
      "1 is an odd number that is neither prime nor composite. Its square is 1, it has 1 digit"
        + " and its digits add up to 1."
    ),
    (2, "2 is an even prime number. Its square is 4, it has 1 digit and its digits add up to 2."),
    (7, "7 is an odd prime number. Its square is 49, it has 1 digit and its digits add up to 7."),
    (
      42,
      "42 is an even number divisible by 2. Its square is 1764, it has 2 digits and its digits"
        + " add up to 6."
    ),
    (
      -9,
      "-9 is a negative odd number, so it is not prime. Its square is 81, it has 1 digit and"
        + " its digits add up to 9."
    ),
    (
      1_000_000_007,
      "1000000007 is an odd prime number. Its square is 1000000014000000049, it"
        + " has 10 digits and its digits add up to 8."
    ),
    (
      Int.max,
      "9223372036854775807 is an odd number divisible by 7. Its square does not fit in"
        + " 64 bits, it has 19 digits and its digits add up to 88."
    ),
  ])
  func liveNumberFacts(number: Int, fact: String) async throws {
    #expect(NumberFacts.fact(about: number) == fact)
    #expect(try await NumberFactClient.liveValue.fetch(number) == fact)
  }

  @Test func primalityOfLargeNumbers() {
    // 2^61 − 1 is prime; (2^31 − 1)² has no divisor up to 10,000 but is composite.
    #expect(NumberFacts.fact(about: 2_305_843_009_213_693_951).contains("odd prime number"))
    #expect(NumberFacts.fact(about: 4_611_686_014_132_420_609).contains("odd composite number"))
  }
}
