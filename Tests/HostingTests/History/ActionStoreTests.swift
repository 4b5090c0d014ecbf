import Synchronization
import Testing

@testable import Hosting

/// Counts live instances, so that a test sees every action the store held released exactly once.
private final class Tracked {
  static let live = Atomic<Int>(0)
  let value: Int
  init(_ value: Int) {
    self.value = value
    Self.live.add(1, ordering: .relaxed)
  }
  deinit { Self.live.subtract(1, ordering: .relaxed) }
}

@Suite(.serialized) struct ActionStoreTests {
  @Test func keepsActionsInOrderAcrossDropsCompactionAndGrowth() {
    let before = Tracked.live.load(ordering: .relaxed)
    do {
      let store = ActionStore<Tracked>(capacity: 16)
      var expected: [Int] = []
      var next = 0
      // Appends and drops in a pattern that both moves the held actions to the front (many
      // dropped) and doubles the buffer (few dropped).
      for round in 0..<40 {
        for _ in 0..<(round % 3 == 0 ? 30 : 7) {
          store.append(Tracked(next))
          expected.append(next)
          next += 1
        }
        let drop = round % 2 == 0 ? min(expected.count, 25) : 2
        store.dropFirst(drop)
        expected.removeFirst(drop)
        #expect(store.count == expected.count)
        #expect((0..<store.count).map { store[$0].value } == expected)
      }
      #expect(store.copy(1..<4).map(\.value) == Array(expected[1..<4]))
      #expect(Tracked.live.load(ordering: .relaxed) - before == expected.count)
    }
    #expect(Tracked.live.load(ordering: .relaxed) == before, "every action released once")
  }
}
