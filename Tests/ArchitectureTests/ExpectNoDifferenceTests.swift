import Testing

@testable import Architecture

struct DumpedBoard: Equatable {
  var score: Int
  var letters: [String]
}

/// A model that chooses what its dumps show: its cache is hidden, its id is a short text.
struct DumpedGamer: Equatable, CustomDumpReflectable {
  var name: String
  var cache: [Int] = []

  var customDumpMirror: Mirror {
    Mirror(self, children: ["name": self.name])
  }
}

struct DumpedPlayerID: Equatable, CustomDumpStringConvertible {
  var rawValue: Int
  var customDumpDescription: String { "#\(self.rawValue)" }
}

struct DumpedTagged: Equatable, CustomDumpRepresentable {
  var rawValue: String
  var customDumpValue: Any { self.rawValue }
}

final class DumpedModel {
  var count = 0
  func increment() { self.count += 1 }
  func load() async { self.count = 42 }
}

/// `expectNoDifference`, `expectDifference` and the CustomDump protocols, with the test store's
/// diff in their failures.
@Suite struct ExpectNoDifferenceTests {
  @Test func equalValuesReportNothing() {
    expectNoDifference(DumpedBoard(score: 1, letters: ["a"]), DumpedBoard(score: 1, letters: ["a"]))
  }

  @Test func differentValuesReportTheDiffOfTheirDumps() {
    let line = #line + 2
    withKnownIssue {
      expectNoDifference(
        DumpedBoard(score: 3, letters: ["a", "b"]), DumpedBoard(score: 2, letters: ["a", "b"]))
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.map(\.rawValue) == [
          """
          expectNoDifference failed: …

                DumpedBoard(
              −   score: 3,
              +   score: 2,
                  letters: [
                    [0]: "a",
                    [1]: "b"
                  ]
                )

          (First: −, Second: +)
          """
        ]
    }
  }

  @Test func theMessageIsTheHeadline() {
    withKnownIssue {
      expectNoDifference(1, 2, "The scores differ")
    } matching: { issue in
      issue.comments.first?.rawValue.hasPrefix("expectNoDifference failed: The scores differ\n")
        == true
    }
  }

  @Test func expectDifferencePassesWhenTheOperationMakesTheChange() async {
    let model = DumpedModel()
    expectDifference(model.count) {
      model.increment()
    } changes: {
      $0 += 1
    }
    await expectDifference(model.count) {
      await model.load()
    } changes: {
      $0 = 42
    }
  }

  @Test func expectDifferenceReportsTheChangeThatWasNotMade() {
    let model = DumpedModel()
    withKnownIssue {
      expectDifference(model.count) {
        model.increment()
      } changes: {
        $0 += 2
      }
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        """
        expectDifference failed: …

            − 2
            + 1

        (Expected: −, Actual: +)
        """
      ]
    }
  }

  @Test func customDumpConformancesShapeTheDumps() {
    // One member left: on one line, as swift-custom-dump prints it (and TCA's own tests expect).
    #expect(_dumpLines(DumpedGamer(name: "Blob", cache: [1, 2, 3])) == [
      "DumpedGamer(name: \"Blob\")"
    ])
    #expect(_dumpLines([DumpedPlayerID(rawValue: 7)]) == ["[", "  [0]: #7", "]"])
    #expect(_dumpLines(DumpedTagged(rawValue: "x")) == ["\"x\""])
  }

  @Test func aTestStoresStateDiffUsesTheCustomDumps() async {
    let store = TestStore(initialState: DumpedFeature.State()) { DumpedFeature() }
    await withKnownIssue {
      await store.send(.next) { $0.player = DumpedPlayerID(rawValue: 3) }
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("    −   player: #3\n    +   player: #2")
      }
    }
  }
}

/// A feature whose state holds a value with a custom dump.
struct DumpedFeature: Reducer {
  struct State: Equatable { var player = DumpedPlayerID(rawValue: 1) }
  enum Action { case next }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.player.rawValue += 1
    return .none
  }
}
