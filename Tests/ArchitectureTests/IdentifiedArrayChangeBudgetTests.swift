import Testing

@_spi(ChangeTracking) @testable import Architecture

struct BudgetNote: Identifiable, Equatable, Sendable {
  var id: Int
  var text: String
}

/// What an identified array's change log keeps, and for whom: only changes a live cursor can
/// still ask for, within a budget of bytes shared by many logs (issue 27: 4,096 old copies of a
/// 1 MiB element were kept for nobody).
@Suite struct IdentifiedArrayChangeBudgetTests {
  /// Every element counts 1,000 bytes, so that the figures are exact.
  static func budget(limit: Int) -> IdentifiedArrayChangeBudget {
    IdentifiedArrayChangeBudget(limit: limit) { _ in 1_000 }
  }

  static func notes(_ count: Int) -> IdentifiedArray<Int, BudgetNote> {
    IdentifiedArray(uniqueElements: (0..<count).map { BudgetNote(id: $0, text: "") })
  }

  @Test func aCopyWithoutACursorRecordsNothing() {
    var notes = Self.notes(3)
    let saved = notes  // a checkpoint, say: shares the log, watches nothing
    let budget = Self.budget(limit: 1 << 20)
    do {
      let cursor = notes.changeCursor(budget: budget)
      notes[id: 1]?.text = "watched"
      #expect(notes.changes(since: cursor)?.count == 1)
    }
    #expect(budget.heldBytes > 0)
    // The cursor is gone: the next mutations record nothing, and what was kept goes.
    for step in 0..<100 { notes[id: 2]?.text = "unwatched \(step)" }
    #expect(budget.heldBytes == 0)
    #expect(budget.releasedBytes > 0)
    #expect(saved[id: 2]?.text == "")
  }

  @Test func changesBeforeTheOldestLiveCursorAreLetGo() {
    var notes = Self.notes(2)
    let budget = Self.budget(limit: 1 << 20)
    var old: IdentifiedArrayChangeCursor? = notes.changeCursor(budget: budget)
    for step in 0..<10 { notes[id: 0]?.text = "\(step)" }
    let recent = notes.changeCursor(budget: budget)
    notes[id: 1]?.text = "last"
    #expect(notes.changes(since: old!)?.count == 11)
    let whileBoth = budget.heldBytes
    old = nil
    notes[id: 1]?.text = "after"
    // Only what `recent` can still ask for is kept: its two changes.
    #expect(budget.heldBytes < whileBoth)
    #expect(notes.changes(since: recent)?.count == 2)
  }

  @Test func overItsBudgetALogDropsItsOldestChangesAndItsWatcherStartsAgain() {
    var notes = Self.notes(1)
    let budget = Self.budget(limit: 20_000)
    let behind = notes.changeCursor(budget: budget)
    for step in 0..<100 { notes[id: 0]?.text = "\(step)" }
    // 100 updates of 1,000 bytes each, for a budget of 20,000: the oldest went.
    #expect(budget.heldBytes <= 20_000)
    #expect(budget.heldBytes > 10_000)
    #expect(notes.changes(since: behind) == nil, "a watcher that far behind takes the whole array")
    // A cursor taken now still gets what follows it.
    let current = notes.changeCursor(budget: budget)
    notes[id: 0]?.text = "next"
    #expect(notes.changes(since: current)?.count == 1)
  }

  @Test func oneBudgetBoundsManyLogsTogetherTrimmingTheLargestFirst() {
    var large = Self.notes(1)
    var small = Self.notes(1)
    let budget = Self.budget(limit: 30_000)
    let largeCursor = large.changeCursor(budget: budget)
    let smallCursor = small.changeCursor(budget: budget)
    for step in 0..<3 { small[id: 0]?.text = "\(step)" }
    for step in 0..<40 { large[id: 0]?.text = "\(step)" }
    #expect(budget.heldBytes <= 30_000)
    #expect(small.changes(since: smallCursor)?.count == 3, "the small log keeps its changes")
    #expect(large.changes(since: largeCursor) == nil)
  }

  @Test func releasingUnwatchedChangesFreesWhatLeftWatchersWereKeptWithoutAMutation() {
    var notes = Self.notes(1)
    let budget = Self.budget(limit: 1 << 20)
    var cursor: IdentifiedArrayChangeCursor? = notes.changeCursor(budget: budget)
    for step in 0..<10 { notes[id: 0]?.text = "\(step)" }
    #expect(notes.changes(since: cursor!)?.count == 10)
    #expect(budget.heldBytes >= 10_000)
    cursor = nil
    // Nothing changes any more, so the log cannot notice by itself: the host sweeps.
    #expect(budget.releaseUnwatched() >= 10_000)
    #expect(budget.heldBytes == 0)
  }

  @Test func aLogsBytesLeaveTheBudgetWithIt() {
    let budget = Self.budget(limit: 1 << 20)
    do {
      var notes = Self.notes(1)
      let cursor = notes.changeCursor(budget: budget)
      for step in 0..<5 { notes[id: 0]?.text = "\(step)" }
      #expect(notes.changes(since: cursor)?.count == 5)
      #expect(budget.heldBytes > 0)
    }
    #expect(budget.heldBytes == 0)
  }
}
