@_spi(ChangeTracking) import Architecture
import Testing
import Wire

@testable import Hosting

/// Patches computed from identified arrays' change logs (`TrackedJSON`) against the full
/// encode-and-diff, over random sequences of every kind of mutation.
@Suite struct TrackedPatchTests {
  /// A budget far above what these tests record.
  static let budget = IdentifiedArrayChangeBudget(limit: 1 << 30, estimatingSizeWith: ByteEstimate.of(any:))

  struct Item: Codable, Equatable, Identifiable {
    var id: Int
    var name: String
    var done: Bool
  }

  struct Group: Codable, Equatable {
    var name: String
    var members: IdentifiedArrayOf<Item>
  }

  struct Board: Codable, Equatable {
    var title: String
    var items: IdentifiedArrayOf<Item>
    var groups: [Group]
  }

  /// A small deterministic generator (SplitMix64), so that a failure names a reproducible seed.
  struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  @Test func patchesFromChangeLogsTurnTheOldStateIntoTheNewOneInFewOperations() throws {
    var fellBack = 0
    var fromLogs = 0
    for seed in 0..<400 {
      var random = SeededGenerator(state: UInt64(seed))
      var nextID = 1_000
      func item(_ random: inout SeededGenerator) -> Item {
        nextID += 1
        return Item(id: nextID, name: "n\(Int.random(in: 0..<5, using: &random))", done: Bool.random(using: &random))
      }
      var board = Board(
        title: "t",
        items: IdentifiedArray(uniqueElements: (0..<Int.random(in: 0..<25, using: &random)).map { _ in item(&random) }),
        groups: [Group(name: "g", members: [item(&random), item(&random)])])
      // A first mutation gives the arrays a history, as a live store's have.
      board.items.append(item(&random))
      let base = try TypedScopeState(board).trackedJSON().base(budget: Self.budget)
      let old = try JSONValueEncoder().encode(board)
      var saved = board
      let mutations = Int.random(in: 1...10, using: &random)
      // How many operations the mutations may cost: one per insert or remove, at most two per
      // edited element (its two fields), one for the title.
      var budget = 0
      for _ in 0..<mutations {
        let before = board.items.count + board.groups[0].members.count
        self.mutate(&board, saved: &saved, item: { item(&$0) }, using: &random)
        budget += max(2, before - board.items.count - board.groups[0].members.count)
      }
      let new = try JSONValueEncoder().encode(board)
      let ops = try TypedScopeState(board).trackedJSON().operations(from: base)
      let patched = try JSONPatch.apply(ops, to: old)
      #expect(patched == new, "seed \(seed): \(ops.map(\.json.compactString))")
      // The full diff gets to the same document.
      #expect(try JSONPatch.apply(JSONPatch.diff(from: old, to: new), to: old) == patched)
      let whole = ops.contains { op in
        guard case .replace(let path, _) = op else { return false }
        return path.isRoot || path.tokens == ["items"] || path.tokens == ["groups", "0", "members"]
      }
      if whole {
        fellBack += 1
      } else {
        fromLogs += 1
        // One operation per insert or remove, at most one per changed field of an element.
        #expect(ops.count <= budget, "seed \(seed): \(ops.count) ops for \(mutations) mutations")
      }
    }
    // Most sequences are patched from the logs; the rest (reorders, sorts, stale copies) whole.
    #expect(fromLogs > 150, "\(fromLogs) from logs, \(fellBack) whole")
  }

  @Test func anUnchangedStateGivesNoOperationsAndAnEditOneReplace() throws {
    var board = Board(
      title: "t", items: [Item(id: 1, name: "a", done: false), Item(id: 2, name: "b", done: false)],
      groups: [])
    board.items.append(Item(id: 3, name: "c", done: false))
    let base = try TypedScopeState(board).trackedJSON().base(budget: Self.budget)
    #expect(try TypedScopeState(board).trackedJSON().operations(from: base).isEmpty)
    board.items[id: 2]?.done = true
    let ops = try TypedScopeState(board).trackedJSON().operations(from: base)
    #expect(ops.map(\.json.compactString) == [#"{"op":"replace","path":"/items/1/done","value":true}"#])
    // Changed and changed back: nothing to send.
    let second = try TypedScopeState(board).trackedJSON().base(budget: Self.budget)
    board.items[id: 2]?.done = false
    board.items[id: 2]?.done = true
    #expect(try TypedScopeState(board).trackedJSON().operations(from: second).isEmpty)
  }

  /// One random mutation of `board` (or of a saved copy that then replaces it).
  private func mutate(
    _ board: inout Board, saved: inout Board, item: (inout SeededGenerator) -> Item,
    using random: inout SeededGenerator
  ) {
    let count = board.items.count
    let index = count == 0 ? 0 : Int.random(in: 0..<count, using: &random)
    switch Int.random(in: 0..<18, using: &random) {
    case 0: board.items.append(item(&random))
    case 1: board.items.insert(item(&random), at: Int.random(in: 0...count, using: &random))
    case 2 where count > 0: board.items.remove(at: index)
    case 3 where count > 0: board.items.remove(id: board.items[index].id)
    case 4 where count > 0: board.items[id: board.items[index].id] = nil
    case 5 where count > 0: board.items[id: board.items[index].id]?.done.toggle()
    case 6 where count > 0: board.items[index].name += "x"
    case 7 where count > 0: board.items.move(from: index, to: Int.random(in: 0..<count, using: &random))
    case 8 where count > 0:
      var changed = board.items[index]
      changed.name = "u"
      board.items.updateOrAppend(changed)
    case 9: board.items.removeAll { $0.name == "n\(Int.random(in: 0..<5, using: &random))" }
    case 10 where count > 1: board.items.remove(atOffsets: [0, count - 1])
    case 11 where count > 1: board.items.move(fromOffsets: [0], toOffset: count)
    case 12: board.items.sort { $0.id > $1.id }
    case 13: board.title += "!"
    case 14: board.groups[0].members.append(item(&random))
    case 15: saved = board
    case 16: board = saved
    case 17:
      var copy = saved
      copy.items.append(item(&random))
      board = copy
    default:
      let new = item(&random)
      board.items[id: new.id] = new
    }
  }
}
