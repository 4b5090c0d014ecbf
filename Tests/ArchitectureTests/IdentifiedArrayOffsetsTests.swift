import Foundation
import Testing

@testable import Architecture

/// `remove(atOffsets:)` and `move(fromOffsets:toOffset:)`, as SwiftUI's `onDelete`/`onMove`
/// hand offsets to TCA features.
@Suite struct IdentifiedArrayOffsetsTests {
  private func letters(_ text: String) -> IdentifiedArrayOf<Counter.State> {
    IdentifiedArray(
      uniqueElements: text.unicodeScalars.map { Counter.State(id: Int($0.value), count: 0) })
  }

  private func text(_ array: IdentifiedArrayOf<Counter.State>) -> String {
    String(String.UnicodeScalarView(array.map { Unicode.Scalar(UInt32($0.id))! }))
  }

  /// Every id still finds its element after the change.
  private func isConsistent(_ array: IdentifiedArrayOf<Counter.State>) -> Bool {
    array.indices.allSatisfy { array.index(id: array[$0].id) == $0 }
      && array.ids == array.map(\.id)
  }

  @Test(arguments: [
    ([1], "acdef"), ([0, 5], "bcde"), ([1, 2, 4], "adf"), ([], "abcdef"), ([0, 1, 2, 3, 4, 5], ""),
  ])
  func removesTheElementsAtOffsets(offsets: [Int], expected: String) {
    var array = self.letters("abcdef")
    array.remove(atOffsets: IndexSet(offsets))
    #expect(self.text(array) == expected)
    #expect(self.isConsistent(array))
  }

  @Test(arguments: [
    ([0], 2, "bacdef"), ([0], 6, "bcdefa"), ([5], 0, "fabcde"), ([1, 3], 5, "acebdf"),
    ([4, 5], 1, "aefbcd"), ([2], 2, "abcdef"), ([2], 3, "abcdef"), ([0, 5], 3, "bcafde"),
  ])
  func movesTheElementsAtOffsetsBeforeTheDestination(
    offsets: [Int], destination: Int, expected: String
  ) {
    var array = self.letters("abcdef")
    array.move(fromOffsets: IndexSet(offsets), toOffset: destination)
    #expect(self.text(array) == expected)
    #expect(self.isConsistent(array))
  }

  @Test func removingAfterAnInsertAtTheFrontKeepsLookupsRight() {
    // Inserting at the front moves the array's position base: offsets must still be positions.
    var array = self.letters("abc")
    array.insert(Counter.State(id: 1, count: 0), at: 0)
    array.remove(atOffsets: IndexSet(integer: 0))
    #expect(self.text(array) == "abc")
    #expect(self.isConsistent(array))
  }
}
