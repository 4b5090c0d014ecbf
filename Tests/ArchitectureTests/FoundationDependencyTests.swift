import Foundation
import Testing

@testable import Architecture

/// A client that is its own dependency key, as TCA's case studies declare them.
private struct FactClient: DependencyKey, Sendable {
  var fetch: @Sendable (Int) async throws -> String
  static let liveValue = FactClient { "\($0) is a number." }
  static let testValue = FactClient { _ in "a test fact nobody chose" }
}

/// Uses the dependencies under test the way a feature does.
private struct NumberFact: Reducer {
  struct State: Equatable {
    var count = 0
    var fact: String?
    var startOfDay: Date?
    var isWaiting = false
  }

  enum Action: Equatable {
    case factButtonTapped
    case factResponse(String)
    case waitButtonTapped
    case waitFinished
    case startOfDayTapped(Date)
  }

  @Dependency(FactClient.self) var factClient
  @Dependency(\.suspendingClock) var clock
  @Dependency(\.calendar) var calendar

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .factButtonTapped:
      return .run { [count = state.count] send in
        await send(.factResponse(try await self.factClient.fetch(count)))
      }
    case .factResponse(let fact):
      state.fact = fact
      return .none
    case .waitButtonTapped:
      state.isWaiting = true
      return .run { send in
        try await self.clock.sleep(for: .seconds(1))
        await send(.waitFinished)
      }
    case .waitFinished:
      state.isWaiting = false
      return .none
    case .startOfDayTapped(let date):
      state.startOfDay = self.calendar.startOfDay(for: date)
      return .none
    }
  }
}

/// `@Dependency(Key.self)`, `suspendingClock`, `calendar`, `locale` and `timeZone`, as
/// swift-dependencies has them.
@Suite struct FoundationDependencyTests {
  @Test func aClientThatIsItsOwnKeyIsOverriddenThroughTheKey() async {
    let store = TestStore(initialState: NumberFact.State(count: 7)) {
      NumberFact()
    } withDependencies: {
      $0[FactClient.self] = FactClient { "\($0) is a lucky number." }
    }
    await store.send(.factButtonTapped)
    await store.receive(.factResponse("7 is a lucky number.")) {
      $0.fact = "7 is a lucky number."
    }
  }

  @Test func theSuspendingClockIsTheOverriddenOne() async {
    let store = TestStore(initialState: NumberFact.State()) {
      NumberFact()
    } withDependencies: {
      $0.suspendingClock = ImmediateClock()
    }
    await store.send(.waitButtonTapped) { $0.isWaiting = true }
    await store.receive(.waitFinished) { $0.isWaiting = false }
  }

  @Test func theCalendarIsTheOverriddenOne() async {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "Asia/Tokyo")!
    let store = TestStore(initialState: NumberFact.State()) {
      NumberFact()
    } withDependencies: {
      $0.calendar = calendar
    }
    // 2026-01-01 20:00 UTC is 2026-01-02 05:00 in Tokyo: the day starts at 2026-01-01 15:00 UTC.
    let date = Date(timeIntervalSince1970: 1_767_297_600)
    await store.send(.startOfDayTapped(date)) {
      $0.startOfDay = Date(timeIntervalSince1970: 1_767_279_600)
    }
  }

  @Test func readingTheCalendarInATestWithoutOverridingItFailsTheTest() async {
    let store = TestStore(initialState: NumberFact.State()) { NumberFact() }
    await withKnownIssue {
      await store.send(.startOfDayTapped(Date(timeIntervalSince1970: 0))) {
        $0.startOfDay = Calendar.autoupdatingCurrent.startOfDay(
          for: Date(timeIntervalSince1970: 0))
      }
    } matching: { issue in
      issue.comments.first?.rawValue.hasPrefix("Unimplemented: @Dependency(\\.calendar)") == true
    }
  }

  @Test func localeAndTimeZoneAreTheOverriddenOnes() {
    withDependencies {
      $0.locale = Locale(identifier: "fr_FR")
      $0.timeZone = TimeZone(identifier: "Europe/Paris")!
    } operation: {
      @Dependency(\.locale) var locale
      @Dependency(\.timeZone) var timeZone
      #expect(locale.identifier == "fr_FR")
      #expect(timeZone.identifier == "Europe/Paris")
    }
  }
}
