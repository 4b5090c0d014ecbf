import Testing

@testable import Architecture

/// Writing a stack element by an id the stack does not hold, as a test writes the state a
/// `push` action produces.
@Suite struct StackStateTests {
  @Test func writingAnIdTheStackDoesNotHoldPushesItInATest() {
    var stack = StackState<Int>()
    stack[id: 0] = 1
    stack[id: 5] = 2
    #expect(stack.ids == [0, 5])
    #expect(Array(stack) == [1, 2])
    stack.append(3)
    #expect(stack.ids == [0, 5, 6], "the next pushed id is past every id written")
    stack[id: 9] = nil
    #expect(stack.ids == [0, 5, 6], "removing an id it does not hold changes nothing")
  }

  @Test func aTestStoreAssertsAPushByWritingTheElement() async {
    let store = TestStore(initialState: Host.State()) { Host() }
    await store.send(.path(.push(id: 0, state: Ticker.State()))) {
      $0.path[id: 0] = Ticker.State()
    }
    await store.send(.path(.popFrom(id: 0))) {
      $0.path[id: 0] = nil
    }
  }

  @Test func poppingAnIdTheStackDoesNotHoldIsReportedAsTCAReportsIt() async {
    let store = TestStore(initialState: Host.State()) { Host() }
    await store.send(.path(.push(id: 0, state: Ticker.State()))) {
      $0.path[id: 0] = Ticker.State()
    }
    await withKnownIssue {
      await store.send(.path(.popFrom(id: 9)))
    } matching: { issue in
      let message = issue.comments.first?.rawValue ?? ""
      return message.hasPrefix(#"A "forEach" at "ArchitectureTests/Features.swift:"#)
        && message.hasSuffix(
          """
          received a "popFrom" action for a missing element.

            ID:
              #9
            Path IDs:
              [#0]
          """)
    }
  }
}
