import Foundation
import Testing

@testable import Architecture

/// Holds Foundation values whose reflection shows nothing useful.
struct FoundationValues: Equatable, Sendable {
  var id: UUID
  var link: URL
  var date: Date
  var delay: Duration
}

/// A struct that shows reflection no children (as Foundation's `UUID` does on Linux), only a
/// description.
struct Opaque: Equatable, Sendable, CustomStringConvertible, CustomReflectable {
  let code: Int
  var description: String { "Opaque#\(self.code)" }
  var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .struct) }
}

/// A feature that makes an id with the uuid dependency, for a failure message about UUIDs.
struct MakesID: Reducer {
  struct State: Equatable, Sendable { var id: UUID? }
  enum Action: Equatable, Sendable { case makeID }

  @Dependency(\.uuid) var uuid

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.id = self.uuid()
    return .none
  }
}

/// What test failure messages (and `_printChanges`) show of values: the values themselves.
@Suite struct DumpTests {
  @Test func foundationValuesPrintWhatTheyAre() {
    let values = FoundationValues(
      id: UUID(uuidString: "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF")!,
      link: URL(string: "https://www.pointfree.co/episodes?page=2")!,
      date: Date(timeIntervalSince1970: 1_234_567_890.25),
      delay: .milliseconds(1500))
    #expect(
      _dumpLines(values) == [
        "FoundationValues(",
        "  id: UUID(DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF),",
        "  link: URL(https://www.pointfree.co/episodes?page=2),",
        "  date: Date(2009-02-13T23:31:30.250Z),",
        "  delay: Duration(1.5 seconds)",
        ")",
      ])
  }

  @Test func aValueWithoutChildrenPrintsItsDescription() {
    #expect(
      _dumpLines([Opaque(code: 1), Opaque(code: 2)]) == [
        "[",
        "  [0]: Opaque#1,",
        "  [1]: Opaque#2",
        "]",
      ])
  }

  @Test func twoDifferentUUIDsShowDifferentlyInAFailure() async {
    await expectTestStoreIssue(
      """
      A state change does not match expectation.

          − MakesID.State(id: UUID(00000000-0000-0000-0000-000000000001))
          + MakesID.State(id: UUID(00000000-0000-0000-0000-000000000000))

      (Expected: −, Actual: +)
      """
    ) { line in
      let store = TestStore(initialState: MakesID.State()) { MakesID() }
      line.next()
      await store.send(.makeID) { $0.id = UUID(1) }
    }
  }
}
