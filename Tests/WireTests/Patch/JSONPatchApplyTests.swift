import Testing
import Wire

@Suite struct JSONPatchApplyTests {
  private static let p = PatchFixtures.pointer
  private static let j = PatchFixtures.json

  private static func ops(_ text: String) -> [JSONPatchOperation] {
    do {
      return try JSONPatch.operations(from: j(text))
    } catch {
      fatalError("invalid patch in a test: \(error)")
    }
  }

  @Test func appliesEveryOperationInOrder() throws {
    let document = Self.j(#"{"a":{"b":[1,2,3]},"c":"x"}"#)
    let patch = Self.ops(
      #"""
      [{"op":"add","path":"/a/b/1","value":9},
       {"op":"remove","path":"/a/b/0"},
       {"op":"replace","path":"/c","value":{"d":null}},
       {"op":"move","from":"/a/b","path":"/c/d"},
       {"op":"copy","from":"/c/d/2","path":"/e"},
       {"op":"test","path":"/c/d","value":[9,2,3]},
       {"op":"add","path":"/c/d/-","value":4}]
      """#)
    let expected = Self.j(#"{"a":{},"c":{"d":[9,2,3,4]},"e":3}"#)
    #expect(try JSONPatch.apply(patch, to: document) == expected)
    var inPlace = document
    try JSONPatch.apply(patch, to: &inPlace)
    #expect(inPlace == expected)
  }

  @Test func failedPatchLeavesTheDocumentExactlyAsItWas() throws {
    let document = Self.j(#"{"a":1,"b":[1,2,{"c":3}],"d":{"e":"f","g":"h","i":"j"}}"#)
    // Every kind of change before the failing test, including member removal from the middle
    // of an object, whose position must come back.
    let patch = Self.ops(
      #"""
      [{"op":"add","path":"/z","value":0},
       {"op":"remove","path":"/d/g"},
       {"op":"add","path":"/d/e","value":"overwritten"},
       {"op":"replace","path":"/b/2/c","value":4},
       {"op":"add","path":"/b/-","value":5},
       {"op":"move","from":"/b/0","path":"/d/moved"},
       {"op":"copy","from":"/d","path":"/b/0"},
       {"op":"remove","path":"/a"},
       {"op":"replace","path":"","value":[]},
       {"op":"add","path":"","value":{"whole":true}},
       {"op":"test","path":"/whole","value":false}]
      """#)
    var inPlace = document
    #expect(throws: JSONPatchError(.testFailed(Self.p("/whole")), operationIndex: 10)) {
      try JSONPatch.apply(patch, to: &inPlace)
    }
    #expect(PatchFixtures.identicallyOrdered(inPlace, document))
    #expect(throws: JSONPatchError.self) { try JSONPatch.apply(patch, to: document) }
  }

  @Test func appliesInPlaceWithoutCopyingLargeArrays() throws {
    var document = JSON.object(
      JSONObject([
        ("items", .array((0..<10_000).map { .object(JSONObject([("id", .int(Int64($0)))])) }))
      ]))
    let before = Self.storageAddress(of: document)
    try JSONPatch.apply(
      [.replace(path: Self.p("/items/5000/id"), value: .string("x"))], to: &document)
    try JSONPatch.apply([.add(path: Self.p("/items/5000/new"), value: .null)], to: &document)
    #expect(try Self.p("/items/5000/id").evaluate(in: document) == .string("x"))
    // The array's buffer is the same one: nothing was copied on the way down.
    #expect(Self.storageAddress(of: document) == before)
  }

  private static func storageAddress(of document: JSON) -> UnsafeRawPointer? {
    guard case .object(let object) = document, case .array(let items)? = object["items"] else {
      return nil
    }
    return items.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
  }

  @Test func addFollowsRFC6902() throws {
    let doc = Self.j(#"{"arr":[1,2],"obj":{"k":1}}"#)
    #expect(
      try JSONPatch.apply([.add(path: Self.p("/arr/2"), value: .int(3))], to: doc)
        == Self.j(#"{"arr":[1,2,3],"obj":{"k":1}}"#))
    #expect(
      try JSONPatch.apply([.add(path: Self.p("/arr/-"), value: .int(3))], to: doc)
        == Self.j(#"{"arr":[1,2,3],"obj":{"k":1}}"#))
    #expect(
      try JSONPatch.apply([.add(path: Self.p("/obj/k"), value: .int(2))], to: doc)
        == Self.j(#"{"arr":[1,2],"obj":{"k":2}}"#))
    let failures: [(JSONPatchOperation, JSONPatchError.Kind)] = [
      (.add(path: Self.p("/arr/3"), value: .null), .indexOutOfBounds(Self.p("/arr/3"), count: 2)),
      (.add(path: Self.p("/arr/01"), value: .null), .invalidArrayIndex(Self.p("/arr/01"))),
      (.add(path: Self.p("/arr/x"), value: .null), .invalidArrayIndex(Self.p("/arr/x"))),
      (.add(path: Self.p("/obj/k/x"), value: .null), .notAContainer(Self.p("/obj/k/x"))),
      (.add(path: Self.p("/nope/x"), value: .null), .noValue(Self.p("/nope"))),
      (.add(path: Self.p("/arr/-/x"), value: .null), .invalidArrayIndex(Self.p("/arr/-"))),
    ]
    for (op, kind) in failures {
      #expect(throws: JSONPatchError(kind, operationIndex: 0), "\(op)") {
        try JSONPatch.apply([op], to: doc)
      }
    }
  }

  @Test func removeReplaceMoveCopyAndTestRequireExistingTargets() throws {
    let doc = Self.j(#"{"arr":[1,2],"obj":{"k":1}}"#)
    let failures: [(JSONPatchOperation, JSONPatchError.Kind)] = [
      (.remove(path: Self.p("/arr/2")), .indexOutOfBounds(Self.p("/arr/2"), count: 2)),
      (.remove(path: Self.p("/arr/-")), .invalidArrayIndex(Self.p("/arr/-"))),
      (.remove(path: Self.p("/obj/x")), .noValue(Self.p("/obj/x"))),
      (.remove(path: .root), .cannotRemoveRoot),
      (.replace(path: Self.p("/obj/x"), value: .null), .noValue(Self.p("/obj/x"))),
      (.replace(path: Self.p("/arr/-"), value: .null), .invalidArrayIndex(Self.p("/arr/-"))),
      (.move(from: Self.p("/x"), path: Self.p("/y")), .noValue(Self.p("/x"))),
      (.move(from: Self.p("/x"), path: Self.p("/x")), .noValue(Self.p("/x"))),
      (
        .move(from: Self.p("/obj"), path: Self.p("/obj/k2")),
        .moveIntoDescendant(from: Self.p("/obj"), path: Self.p("/obj/k2"))
      ),
      (
        .copy(from: Self.p("/arr/5"), path: Self.p("/y")),
        .indexOutOfBounds(Self.p("/arr/5"), count: 2)
      ),
      (.test(path: Self.p("/obj/x"), value: .null), .noValue(Self.p("/obj/x"))),
      (.test(path: Self.p("/arr"), value: Self.j("[2,1]")), .testFailed(Self.p("/arr"))),
    ]
    for (op, kind) in failures {
      #expect(throws: JSONPatchError(kind, operationIndex: 0), "\(op)") {
        try JSONPatch.apply([op], to: doc)
      }
    }
  }

  @Test func moveAndCopyKeepTheirSemantics() throws {
    let doc = Self.j(#"{"a":{"b":[1]},"c":[]}"#)
    #expect(
      try JSONPatch.apply([.move(from: Self.p("/a/b"), path: Self.p("/a/b"))], to: doc) == doc)
    #expect(
      try JSONPatch.apply([.move(from: Self.p("/a"), path: Self.p("/c/0"))], to: doc)
        == Self.j(#"{"c":[{"b":[1]}]}"#))
    // A copy is a value: changing it later does not change the source.
    let copied = try JSONPatch.apply(
      Self.ops(
        #"[{"op":"copy","from":"/a","path":"/d"},{"op":"add","path":"/d/b/-","value":2}]"#),
      to: doc)
    #expect(copied == Self.j(#"{"a":{"b":[1]},"c":[],"d":{"b":[1,2]}}"#))
  }

  @Test func testComparesNumbersByValueAndObjectsWithoutOrder() throws {
    let doc = Self.j(#"{"n":1,"o":{"x":1,"y":[1.0,"s"]}}"#)
    let patch: [JSONPatchOperation] = [
      .test(path: Self.p("/n"), value: .double(1.0)),
      .test(path: Self.p("/o"), value: Self.j(#"{"y":[1,"s"],"x":1}"#)),
    ]
    #expect(try JSONPatch.apply(patch, to: doc) == doc)
    #expect(throws: JSONPatchError.self) {
      try JSONPatch.apply([.test(path: Self.p("/n"), value: .string("1"))], to: doc)
    }
  }
}
