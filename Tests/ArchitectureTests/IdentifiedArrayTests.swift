import Foundation
import Testing

@testable import Architecture

private struct Item: Identifiable, Equatable, Hashable, Codable, Sendable {
  var id: Int
  var value: String
}

@Suite struct IdentifiedArrayTests {
  @Test func lookupsStayCorrectAfterInsertAtZeroAndRemovalsInTheMiddle() {
    var array = IdentifiedArrayOf<Item>()
    var model: [Item] = []
    var generator = SystemRandomNumberGenerator()
    var nextID = 0
    for step in 0..<2_000 {
      switch Int.random(in: 0..<4, using: &generator) {
      case 0:
        let item = Item(id: nextID, value: "\(step)")
        nextID += 1
        array.insert(item, at: 0)
        model.insert(item, at: 0)
      case 1:
        let item = Item(id: nextID, value: "\(step)")
        nextID += 1
        array.append(item)
        model.append(item)
      case 2 where !model.isEmpty:
        let index = Int.random(in: 0..<model.count, using: &generator)
        #expect(array.remove(id: model[index].id) == model[index])
        model.remove(at: index)
      case _ where !model.isEmpty:
        let index = Int.random(in: 0..<model.count, using: &generator)
        array[id: model[index].id]?.value += "!"
        model[index].value += "!"
      default:
        break
      }
    }
    #expect(Array(array) == model)
    #expect(array.ids == model.map(\.id))
    for (index, item) in model.enumerated() {
      #expect(array.index(id: item.id) == index)
      #expect(array[id: item.id] == item)
    }
  }

  @Test func updateByIDMutatesInPlaceWithoutCopyingTheStorage() {
    var array = IdentifiedArrayOf<Item>(uniqueElements: (0..<1_000).map { Item(id: $0, value: "") })
    let before = array._elements.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    for id in 0..<1_000 { array[id: id]?.value = "x" }
    _ = array._modify(id: 5) { $0.value = "y" }
    let after = array._elements.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    #expect(before == after)
    #expect(array[id: 5]?.value == "y")
    #expect(array[id: 6]?.value == "x")
  }

  @Test func assigningThroughIDAppendsAndNilRemoves() {
    var array: IdentifiedArrayOf<Item> = [Item(id: 1, value: "a"), Item(id: 2, value: "b")]
    array[id: 3] = Item(id: 3, value: "c")
    #expect(array.ids == [1, 2, 3])
    array[id: 1] = nil
    #expect(array.ids == [2, 3])
    #expect(array.index(id: 3) == 1)
    #expect(array[id: 1] == nil)
    #expect(array.append(Item(id: 2, value: "dup")) == (false, 0))
    #expect(array[id: 2]?.value == "b")
  }

  @Test func removeAllWhereAndMoveKeepPositions() {
    var array = IdentifiedArrayOf<Item>(uniqueElements: (0..<10).map { Item(id: $0, value: "") })
    array.removeAll { $0.id % 2 == 0 }
    #expect(array.ids == [1, 3, 5, 7, 9])
    array.move(from: 4, to: 0)
    #expect(array.ids == [9, 1, 3, 5, 7])
    #expect(array.ids.indices.allSatisfy { array.index(id: array.ids[$0]) == $0 })
  }

  @Test func codableAsAPlainArray() throws {
    let array: IdentifiedArrayOf<Item> = [Item(id: 2, value: "b"), Item(id: 1, value: "a")]
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(array), as: UTF8.self)
    #expect(json == #"[{"id":2,"value":"b"},{"id":1,"value":"a"}]"#)
    let decoded = try JSONDecoder().decode(IdentifiedArrayOf<Item>.self, from: Data(json.utf8))
    #expect(decoded == array)
    #expect(decoded.index(id: 1) == 1)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(
        IdentifiedArrayOf<Item>.self,
        from: Data(#"[{"id":1,"value":"a"},{"id":1,"value":"b"}]"#.utf8))
    }
  }

  @Test func equalityAndHashingFollowElementsInOrder() {
    let a: IdentifiedArrayOf<Item> = [Item(id: 1, value: "a"), Item(id: 2, value: "b")]
    let b: IdentifiedArrayOf<Item> = [Item(id: 2, value: "b"), Item(id: 1, value: "a")]
    #expect(a != b)
    #expect(a == IdentifiedArrayOf<Item>(uniqueElements: Array(a)))
    #expect(Set([a, a]).count == 1)
  }
}
