import Architecture
import Foundation
import Testing

/// `@Shared` as TCA's sharing article and swift-sharing 2 use it: references, derived and
/// unwrapped references, in-memory keys, and exhaustive test-store assertions.
@Suite struct SharedTests {
  struct SignUp: Equatable {
    var email = ""
    var phoneNumber = ""
  }

  @Test func everyHolderSeesAChangeMadeWithLock() {
    let count = Shared(value: 0)
    let copy = count
    count.withLock { $0 += 1 }
    #expect(copy.wrappedValue == 1)
    #expect(count == copy)
  }

  @Test func aDerivedReferenceChangesItsRoot() {
    @Shared(value: SignUp()) var signUp
    let phoneNumber = $signUp.phoneNumber
    phoneNumber.withLock { $0 = "555-1234" }
    #expect(signUp.phoneNumber == "555-1234")
    $signUp.withLock { $0.phoneNumber = "555-0000" }
    #expect(phoneNumber.wrappedValue == "555-0000")
  }

  @Test func anIdentifiedElementIsSharedUntilItIsRemoved() throws {
    let standup: IdentifiedArrayOf<Meeting> = [Meeting(id: 1, title: "Standup")]
    let meetings = Shared(value: standup)
    let meeting = try #require(Shared(meetings[id: 1]))
    meeting.title.withLock { $0 = "Retro" }
    #expect(meetings.wrappedValue[id: 1]?.title == "Retro")
    #expect(Shared<Meeting>(meetings[id: 2]) == nil)
    meetings.withLock { _ = $0.remove(id: 1) }
    #expect(meeting.wrappedValue.title == "Retro")
    meeting.title.withLock { $0 = "Gone" }
    #expect(meetings.wrappedValue.isEmpty)
  }

  @Test func withLockMayReadTheSameValue() {
    let count = Shared(value: 1)
    count.withLock { $0 = count.wrappedValue + 10 }
    #expect(count.wrappedValue == 11)
  }

  @Test func inMemoryKeysShareOneReferenceAndLoadOnce() {
    @Shared(.inMemory("greeting")) var first = "Hello"
    $first.withLock { $0 = "Hi" }
    @Shared(.inMemory("greeting")) var second = "Howdy"
    #expect(second == "Hi")
    $second.withLock { $0 = "Hey" }
    #expect(first == "Hey")
  }

  @Test func testsRunningConcurrentlyHaveTheirOwnScopes() async {
    let values = await withTaskGroup(of: Int.self) { group in
      for value in [1, 2] {
        group.addTask {
          @Shared(.inMemory("isolated")) var shared = value
          $shared.withLock { $0 *= 10 }
          return shared
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(values.sorted() == [10, 20])
  }

  // MARK: - Test store

  @Test func aTestStoreAssertsSharedStateLikeAnyOther() async {
    let store = TestStore(initialState: CountingParent.State()) { CountingParent() }
    await store.send(.incrementButtonTapped) {
      $0.$count.withLock { $0 = 1 }
    }
    #expect(store.state.count == 1)
  }

  @Test func featuresSharingAKeyShareTheValue() async {
    let store = TestStore(initialState: CountingParent.State()) { CountingParent() }
    await store.send(.child(.incrementButtonTapped)) {
      $0.child.$count.withLock { $0 = 1 }
    }
    #expect(store.state.count == 1)
  }

  @Test func aTestsOwnSharedIsTheFeatures() async {
    @Shared(.inMemory("count")) var count = 42
    let store = TestStore(initialState: CountingParent.State()) { CountingParent() }
    #expect(store.state.count == 42)
    await store.send(.incrementButtonTapped) { _ in
      $count.withLock { $0 = 43 }
    }
    #expect(count == 43)
  }

  @Test func eachReceivedActionIsAssertedWithTheSharedValueItProduced() async {
    let store = TestStore(initialState: CountingParent.State()) { CountingParent() }
    await store.send(.incrementTwiceTapped)
    await store.receive(\.tick) {
      $0.$count.withLock { $0 = 1 }
    }
    await store.receive(\.tick) {
      $0.$count.withLock { $0 = 2 }
    }
  }

  @Test func aChangeMadeByAnEffectIsAssertedWithAssert() async {
    let store = TestStore(initialState: CountingParent.State()) { CountingParent() }
    await store.send(.incrementInEffectTapped)
    await store.finish()
    store.assert {
      $0.$count.withLock { $0 = 1 }
    }
  }

  @Test func aNonExhaustiveStoreChecksOnlyWhatIsAsserted() async {
    let store = TestStore(initialState: CountingParent.State()) { CountingParent() }
    store.exhaustivity = .off
    await store.send(.incrementButtonTapped)
    await store.send(.incrementTwiceTapped)
    await store.skipReceivedActions()
    store.assert {
      $0.$count.withLock { $0 = 3 }
    }
  }

  @Test func aWrongExpectationShowsTheSharedValues() async {
    await expectTestStoreIssue(
      prefix: "A state change does not match expectation",
      containing: """
            −   _count: 2,
            −   child: CountingChild.State(_count: 2)
            +   _count: 1,
            +   child: CountingChild.State(_count: 1)
        """
    ) { line in
      let store = TestStore(initialState: CountingParent.State()) { CountingParent() }
      line.next()
      await store.send(.incrementButtonTapped) { $0.$count.withLock { $0 = 2 } }
    }
  }

  @Test func anUnassertedChangeFailsTheAssertion() async {
    await expectTestStoreIssue(
      prefix: "State was not expected to change, but a change occurred",
      containing: """
            −   _count: 0,
            −   child: CountingChild.State(_count: 0)
            +   _count: 1,
            +   child: CountingChild.State(_count: 1)
        """
    ) { line in
      let store = TestStore(initialState: CountingParent.State()) { CountingParent() }
      line.next()
      await store.send(.incrementButtonTapped)
    }
  }

  @Test func anEffectsChangeNeverAssertedFailsAtTheEnd() async {
    await expectTestStoreIssue(
      prefix: "Test store finished before asserting against changes to shared state.",
      containing: """
            − 0
            + 1

        (Expected: −, Actual: +)
        """
    ) { line in
      let store = TestStore(initialState: CountingParent.State()) { CountingParent() }
      line.next()
      await store.send(.incrementInEffectTapped).finish()
    }
  }
}
