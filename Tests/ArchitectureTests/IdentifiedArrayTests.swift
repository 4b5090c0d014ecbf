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

/// Random inserts, removals and moves at every kind of position, checked after each step
/// against a plain array: order, and `index(id:)`/`subscript(id:)` for every element (the
/// position index is renumbered from whichever end is nearer, so both paths are exercised).
@Suite struct IdentifiedArrayModelTests {
  @Test(arguments: [1, 2, 3])
  func matchesAPlainArrayUnderRandomEdits(seed: UInt64) {
    var state = seed &* 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var array = IdentifiedArrayOf<Item>()
    var model: [Item] = []
    var nextID = 0
    for _ in 0..<2_000 {
      switch next(6) {
      case 0, 1, 2:
        let item = Item(id: nextID, value: "\(nextID)")
        nextID += 1
        let index = [0, model.count, next(model.count + 1)][next(3)]
        array.insert(item, at: index)
        model.insert(item, at: index)
      case 3 where !model.isEmpty:
        let index = [0, model.count - 1, next(model.count)][next(3)]
        #expect(array.remove(at: index) == model.remove(at: index))
      case 4 where !model.isEmpty:
        let item = model.remove(at: next(model.count))
        #expect(array.remove(id: item.id) == item)
      case 5 where model.count > 1:
        let source = next(model.count)
        let destination = next(model.count)
        array.move(from: source, to: destination)
        model.insert(model.remove(at: source), at: destination)
      default:
        break
      }
      #expect(Array(array) == model)
      for (index, item) in model.enumerated() {
        #expect(array.index(id: item.id) == index)
        #expect(array[id: item.id] == item)
      }
    }
  }
}
