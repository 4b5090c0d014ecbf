import Testing
import Wire

/// The minimal patches `JSONPatch.diff` promises for common changes, each checked exactly and
/// by applying it.
@Suite struct JSONPatchDiffTests {
  private static let j = PatchFixtures.json
  private static let p = PatchFixtures.pointer

  /// The diff from `old` to `new`, after checking that it applies to give `new`.
  private static func diff(_ old: String, _ new: String) throws -> [JSONPatchOperation] {
    let (old, new) = (Self.j(old), Self.j(new))
    let ops = JSONPatch.diff(from: old, to: new)
    let result = try JSONPatch.apply(ops, to: old)
    #expect(result == new, "\(PatchFixtures.text(ops)) gave \(PatchFixtures.text(result))")
    return ops
  }

  @Test func identicalInputsGiveNoOperations() throws {
    let document = Self.j(#"{"a":[1,{"b":null}],"c":"d","e":1.5}"#)
    #expect(JSONPatch.diff(from: document, to: document) == [])
    // Equal but separately built, and with members in another order.
    #expect(try Self.diff(#"{"a":[1,{"b":null}],"c":"d"}"#, #"{"c":"d","a":[1,{"b":null}]}"#) == [])
    #expect(try Self.diff("1", "1.0") == [])
  }

  @Test func oneChangedFieldIsOneReplace() throws {
    #expect(
      try Self.diff(
        #"{"user":{"name":"a","age":3},"n":1}"#, #"{"user":{"name":"b","age":3},"n":1}"#)
        == [.replace(path: Self.p("/user/name"), value: .string("b"))])
  }

  @Test func memberAddedOrRemovedIsOneOperation() throws {
    #expect(
      try Self.diff(#"{"a":1}"#, #"{"a":1,"b":[2]}"#)
        == [.add(path: Self.p("/b"), value: Self.j("[2]"))])
    #expect(try Self.diff(#"{"a":1,"b":2}"#, #"{"b":2}"#) == [.remove(path: Self.p("/a"))])
  }

  @Test func objectWithNoMemberInCommonIsReplacedWhole() throws {
    #expect(
      try Self.diff(#"{"o":{"a":1,"b":2}}"#, #"{"o":{"c":1,"d":2}}"#)
        == [.replace(path: Self.p("/o"), value: Self.j(#"{"c":1,"d":2}"#))])
    #expect(try Self.diff(#"{}"#, #"{"a":1}"#) == [.add(path: Self.p("/a"), value: .int(1))])
  }

  @Test func typeChangeIsReplace() throws {
    #expect(
      try Self.diff(#"{"a":{"b":1}}"#, #"{"a":[1]}"#)
        == [.replace(path: Self.p("/a"), value: Self.j("[1]"))])
    #expect(
      try Self.diff(#"{"a":"1"}"#, #"{"a":1}"#) == [.replace(path: Self.p("/a"), value: .int(1))])
  }

  @Test func wholeDocumentOfAnotherTypeIsReplaceAtRoot() throws {
    #expect(try Self.diff(#"{"a":1}"#, "[1]") == [.replace(path: .root, value: Self.j("[1]"))])
    #expect(try Self.diff("true", "null") == [.replace(path: .root, value: .null)])
  }

  @Test func appendedElementIsOneAddAtItsIndex() throws {
    #expect(
      try Self.diff(#"{"arr":[1,2,3]}"#, #"{"arr":[1,2,3,4]}"#)
        == [.add(path: Self.p("/arr/3"), value: .int(4))])
    #expect(try Self.diff("[]", "[7]") == [.add(path: Self.p("/0"), value: .int(7))])
  }

  @Test func elementInsertedOrRemovedInTheMiddleIsOneOperation() throws {
    let old = "[0,1,2,3,4,5,6,7,8,9]"
    #expect(
      try Self.diff(old, "[0,1,2,3,4,99,5,6,7,8,9]")
        == [.add(path: Self.p("/5"), value: .int(99))])
    #expect(try Self.diff(old, "[0,1,2,3,5,6,7,8,9]") == [.remove(path: Self.p("/4"))])
    // A run of equal elements around the change does not confuse the alignment.
    #expect(try Self.diff("[1,1,1,1]", "[1,1,1]") == [.remove(path: Self.p("/3"))])
    #expect(
      try Self.diff(#"[{"a":1},{"a":2},{"a":3}]"#, #"[{"a":1},{"a":3}]"#)
        == [.remove(path: Self.p("/1"))])
  }

  @Test func separateInsertionAndRemovalAreOneOperationEach() throws {
    #expect(
      try Self.diff("[0,1,2,3,4,5,6,7,8,9]", "[0,1,99,2,3,4,5,6,8,9]")
        == [.add(path: Self.p("/2"), value: .int(99)), .remove(path: Self.p("/8"))])
  }

  @Test func changedElementsAreDiffedInPlace() throws {
    #expect(
      try Self.diff(#"[{"a":1,"b":2},5,{"a":3}]"#, #"[{"a":1,"b":9},5,{"a":4}]"#)
        == [
          .replace(path: Self.p("/0/b"), value: .int(9)),
          .replace(path: Self.p("/2/a"), value: .int(4)),
        ])
  }

  @Test func emptyingOrFillingAnArrayIsOneReplace() throws {
    #expect(
      try Self.diff(#"{"a":[1,2,3]}"#, #"{"a":[]}"#) == [
        .replace(path: Self.p("/a"), value: .array([]))
      ])
    #expect(
      try Self.diff(#"{"a":[]}"#, #"{"a":[1,2]}"#)
        == [.replace(path: Self.p("/a"), value: Self.j("[1,2]"))])
  }

  @Test func keysNeedingEscapesAppearEscapedInPaths() throws {
    let ops = try Self.diff(#"{"a/b":{"m~n":1}}"#, #"{"a/b":{"m~n":2}}"#)
    #expect(ops == [.replace(path: JSONPointer(tokens: ["a/b", "m~n"]), value: .int(2))])
    #expect(ops.first?.json == Self.j(#"{"op":"replace","path":"/a~1b/m~0n","value":2}"#))
  }

  // MARK: - Arrays of objects with ids

  private static let todos = #"""
    [{"id":1,"title":"a","done":false},{"id":2,"title":"b","done":false},
     {"id":3,"title":"c","done":false},{"id":4,"title":"d","done":false}]
    """#

  @Test func elementChangedInPlaceGivesOperationsInsideIt() throws {
    #expect(
      try Self.diff(
        Self.todos,
        Self.todos.replacing(#""title":"c","done":false"#, with: #""title":"c","done":true"#))
        == [.replace(path: Self.p("/2/done"), value: .bool(true))])
  }

  @Test func elementsAreMatchedByIDNotPosition() throws {
    // 2 is removed and 3 changed: by position 2 would be rewritten into 3, by id it goes.
    let new =
      #"[{"id":1,"title":"a","done":false},{"id":3,"title":"C","done":false},{"id":4,"title":"d","done":false}]"#
    #expect(
      try Self.diff(Self.todos, new)
        == [.remove(path: Self.p("/1")), .replace(path: Self.p("/1/title"), value: .string("C"))])
  }

  @Test func insertedAndRemovedElementsByID() throws {
    let new = #"""
      [{"id":9,"title":"new","done":false},{"id":1,"title":"a","done":false},
       {"id":3,"title":"c","done":true},{"id":4,"title":"d","done":false}]
      """#
    #expect(
      try Self.diff(Self.todos, new)
        == [
          .add(path: Self.p("/0"), value: Self.j(#"{"id":9,"title":"new","done":false}"#)),
          .remove(path: Self.p("/2")),
          .replace(path: Self.p("/2/done"), value: .bool(true)),
        ])
  }

  @Test func reorderedElementIsRemovedAndAddedAndKeepsItsChanges() throws {
    // 4 moves to the front with a new title; 1, 2 and 3 keep their relative order.
    let new = #"""
      [{"id":4,"title":"D","done":false},{"id":1,"title":"a","done":false},
       {"id":2,"title":"b","done":false},{"id":3,"title":"c","done":false}]
      """#
    #expect(
      try Self.diff(Self.todos, new)
        == [
          .add(path: Self.p("/0"), value: Self.j(#"{"id":4,"title":"D","done":false}"#)),
          .remove(path: Self.p("/4")),
        ])
    // A full reversal stays correct (three elements must move).
    let reversed = try Self.diff(
      Self.todos,
      #"""
      [{"id":4,"title":"d","done":false},{"id":3,"title":"c","done":false},
       {"id":2,"title":"b","done":false},{"id":1,"title":"a","done":false}]
      """#)
    #expect(reversed.count <= 6)
  }

  @Test func elementReplacedByAnotherIDIsOneReplace() throws {
    let new = #"""
      [{"id":1,"title":"a","done":false},{"id":7,"title":"b","done":false},
       {"id":3,"title":"c","done":false},{"id":4,"title":"d","done":false}]
      """#
    #expect(
      try Self.diff(Self.todos, new)
        == [.replace(path: Self.p("/1"), value: Self.j(#"{"id":7,"title":"b","done":false}"#))])
  }

  @Test func largeArrayWithOneChangedElementGivesOneOperation() throws {
    let old = (0..<100_000).map { i in
      JSON.object(JSONObject([("id", .int(Int64(i))), ("title", .string("item \(i)"))]))
    }
    var new = old
    new[54_321] = .object(JSONObject([("id", .int(54_321)), ("title", .string("changed"))]))
    let ops = JSONPatch.diff(from: .array(old), to: .array(new))
    #expect(ops == [.replace(path: Self.p("/54321/title"), value: .string("changed"))])
    var removed = old
    removed.remove(at: 777)
    #expect(
      JSONPatch.diff(from: .array(old), to: .array(removed)) == [.remove(path: Self.p("/777"))])
  }

  @Test func duplicateIDsFallBackToMatchingByEquality() throws {
    let ops = try Self.diff(
      #"[{"id":1,"v":0},{"id":1,"v":1},{"id":2,"v":2}]"#, #"[{"id":1,"v":0},{"id":2,"v":2}]"#)
    #expect(ops == [.remove(path: Self.p("/1"))])
  }

  @Test func heavilyScrambledArraysStillApply() throws {
    // Beyond the alignment's edit budget elements are paired by position; ids still align.
    var random = SplitMix64(seed: 42)
    let numbers = (0..<3_000).map { JSON.int(Int64($0)) }
    let objects = (0..<3_000).map { i in
      JSON.object(JSONObject([("id", .int(Int64(i))), ("v", .int(Int64(i % 7)))]))
    }
    for old in [numbers, objects] {
      var new = old.shuffled(using: &random)
      new.removeLast(100)
      new.insert(.string("inserted"), at: 1_234)
      let ops = JSONPatch.diff(from: .array(old), to: .array(new))
      #expect(try JSONPatch.apply(ops, to: .array(old)) == .array(new))
      #expect(ops.count < 2 * old.count)
    }
    var reordered = objects
    reordered.swapAt(10, 2_000)
    let ops = JSONPatch.diff(from: .array(objects), to: .array(reordered))
    #expect(try JSONPatch.apply(ops, to: .array(objects)) == .array(reordered))
    // Each swapped position holds another id now: one whole-element replace each.
    #expect(ops.count == 2)
  }
}
