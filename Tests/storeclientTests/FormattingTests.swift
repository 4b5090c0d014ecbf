import Remote
import Testing
import Wire

@testable import storeclient

func J(_ text: String) -> JSON {
  do {
    return try JSON(parsing: text)
  } catch {
    fatalError("bad JSON in a test: \(error): \(text)")
  }
}

@Suite struct WatchFormatterTests {
  let text = WatchFormatter(format: .text, label: nil)

  @Test func aReplaceShowsTheOldAndNewValue() {
    let line = self.text.patch(
      scope: "counter", base: 41, rev: 42, ops: [J(#"{"op":"replace","path":"/count","value":4}"#)],
      before: J(#"{"count":3,"isTimerRunning":false}"#), after: J(#"{"count":4,"isTimerRunning":false}"#))
    #expect(line == "rev 42  /count: 3 → 4")
  }

  @Test func severalOperationsReadTheStateAsItWasBeforeEachOne() {
    let before = J(#"{"todos":[{"title":"Eggs"},{"title":"Milk"}],"count":1}"#)
    let ops = [
      J(#"{"op":"remove","path":"/todos/0"}"#),
      J(#"{"op":"replace","path":"/todos/0/title","value":"Oat milk"}"#),
      J(#"{"op":"add","path":"/todos/-","value":{"title":"Tea"}}"#),
      J(#"{"op":"replace","path":"/count","value":2}"#),
    ]
    let line = self.text.describe(ops, before: before)
    #expect(line == #"/todos/0: - {"title":"Eggs"}; /todos/0/title: "Milk" → "Oat milk"; /todos/-: + {"title":"Tea"}; /count: 1 → 2"#)
  }

  @Test func theWholeStateAndLongValues() {
    let long = String(repeating: "x", count: 100)
    let line = self.text.describe([J(#"{"op":"replace","path":"","value":"\#(long)"}"#)], before: J("[1]"))
    #expect(line == "(state): [1] → \"" + String(repeating: "x", count: 58) + "…")
  }

  @Test func snapshotsAndLabelsForSeveralScopes() {
    let snapshot = Snapshot(revision: 7, state: J(#"{"count":3}"#))
    #expect(self.text.snapshot(snapshot, scope: "counter") == #"rev 7  {"count":3}"#)
    let labelled = WatchFormatter(format: .text, label: "counter")
    #expect(labelled.snapshot(snapshot, scope: "counter") == #"counter  rev 7  {"count":3}"#)
  }

  @Test func jsonFormatPrintsTheFullStateAfterEachChange() {
    let json = WatchFormatter(format: .json, label: nil)
    let after = J(#"{"count":4,"isTimerRunning":false}"#)
    #expect(
      json.patch(scope: "counter", base: 1, rev: 2, ops: [], before: .null, after: after)
        == #"{"count":4,"isTimerRunning":false}"#)
    let several = WatchFormatter(format: .json, label: "counter")
    #expect(
      several.patch(scope: "counter", base: 1, rev: 2, ops: [], before: .null, after: after)
        == #"{"scope":"counter","rev":2,"state":{"count":4,"isTimerRunning":false}}"#)
  }

  @Test func patchFormatPrintsTheRawOperations() {
    let patch = WatchFormatter(format: .patch, label: nil)
    let ops = [J(#"{"op":"replace","path":"/count","value":4}"#)]
    #expect(
      patch.patch(scope: "counter", base: 41, rev: 42, ops: ops, before: .null, after: .null)
        == #"{"scope":"counter","base":41,"rev":42,"ops":[{"op":"replace","path":"/count","value":4}]}"#)
    #expect(
      patch.snapshot(Snapshot(revision: 41, state: J("{}")), scope: "counter")
        == #"{"scope":"counter","rev":41,"state":{}}"#)
  }
}

@Suite struct TableAndTextTests {
  @Test func tablesPadColumnsButNotTheLast() {
    let lines = ScopesCommand.table([
      ScopeInfo(pattern: "counter", writable: true, description: "The counter."),
      ScopeInfo(pattern: "todos/{id}", writable: true, description: "One todo."),
      ScopeInfo(pattern: "_host", writable: false),
    ])
    #expect(lines == [
      "PATTERN     WRITABLE  DESCRIPTION",
      "counter     yes       The counter.",
      "todos/{id}  yes       One todo.",
      "_host       no",
    ])
  }

  @Test func durationsAndNumbers() {
    #expect(Durations.describe(.nanoseconds(850)) == "850 ns")
    #expect(Durations.describe(.microseconds(87)) == "87 µs")
    #expect(Durations.describe(.microseconds(1240)) == "1.24 ms")
    #expect(Durations.describe(.milliseconds(3050)) == "3.05 s")
    #expect(Durations.grouped(1_234_567) == "1,234,567")
    #expect(Durations.grouped(999) == "999")
    #expect(Durations.grouped(-1000) == "-1,000")
    #expect(Durations.fixed(0.005, 2) == "0.01")
    #expect(Durations.fixed(12, 0) == "12")
  }

  @Test func badJSONArgumentsPointAtTheMistake() {
    do {
      _ = try JSONArgument.parse(#"{"set":{"_0" 5}}"#, name: "<action-json>")
      Issue.record("bad JSON was accepted")
    } catch {
      let lines = error.message.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.count == 3)
      #expect(lines[0].hasPrefix("The value for '<action-json>' is not valid JSON: "))
      #expect(lines[0].hasSuffix("at byte 13"), "\(lines[0])")
      #expect(lines[1] == #"  {"set":{"_0" 5}}"#)
      #expect(lines[2] == "               ^")
    }
    #expect((try? JSONArgument.parse(#"{"incrementButtonTapped":{}}"#, name: "x")) == J(#"{"incrementButtonTapped":{}}"#))
  }
}
