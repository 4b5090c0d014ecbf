import Testing
import Wire

@Suite struct JSONPatchOperationTests {
  private static let p = PatchFixtures.pointer

  @Test func decodesAndEncodesEveryOperation() throws {
    let cases: [(String, JSONPatchOperation)] = [
      (#"{"op":"add","path":"/a","value":1}"#, .add(path: Self.p("/a"), value: .int(1))),
      (#"{"op":"remove","path":"/a~1b"}"#, .remove(path: Self.p("/a~1b"))),
      (#"{"op":"replace","path":"","value":null}"#, .replace(path: .root, value: .null)),
      (#"{"op":"move","from":"/a","path":"/b"}"#, .move(from: Self.p("/a"), path: Self.p("/b"))),
      (#"{"op":"copy","from":"/a","path":"/b"}"#, .copy(from: Self.p("/a"), path: Self.p("/b"))),
      (
        #"{"op":"test","path":"/x/0","value":{"k":[true]}}"#,
        .test(path: Self.p("/x/0"), value: PatchFixtures.json(#"{"k":[true]}"#))
      ),
    ]
    for (text, op) in cases {
      let json = PatchFixtures.json(text)
      #expect(try JSONPatchOperation(json: json) == op, "\(text)")
      #expect(op.json == json, "\(text)")
      guard case .object(let object) = op.json else {
        Issue.record("not an object")
        continue
      }
      #expect(object.keys.first == "op")
    }
  }

  @Test func ignoresUnknownMembers() throws {
    let json = PatchFixtures.json(#"{"op":"remove","path":"/a","value":3,"xyz":[1]}"#)
    #expect(try JSONPatchOperation(json: json) == .remove(path: Self.p("/a")))
  }

  @Test(arguments: [
    (#"[1]"#, JSONPatchError.Kind.operationNotAnObject),
    (#"{"path":"/a"}"#, .missingMember("op")),
    (#"{"op":"add","value":1}"#, .missingMember("path")),
    (#"{"op":"add","path":"/a"}"#, .missingMember("value")),
    (#"{"op":"replace","path":"/a"}"#, .missingMember("value")),
    (#"{"op":"test","path":"/a"}"#, .missingMember("value")),
    (#"{"op":"move","path":"/a"}"#, .missingMember("from")),
    (#"{"op":"copy","path":"/a"}"#, .missingMember("from")),
    (#"{"op":"add","path":null,"value":1}"#, .invalidMember("path")),
    (#"{"op":"copy","from":7,"path":"/a"}"#, .invalidMember("from")),
    (#"{"op":true,"path":"/a"}"#, .invalidMember("op")),
    (#"{"op":"spam","path":"/a","value":1}"#, .unknownOperation("spam")),
    (#"{"op":"add","path":"a","value":1}"#, .malformedPointer("a")),
    (#"{"op":"move","from":"/~3","path":"/a"}"#, .malformedPointer("/~3")),
  ])
  func rejectsInvalidOperations(text: String, kind: JSONPatchError.Kind) {
    #expect(throws: JSONPatchError(kind)) { try JSONPatchOperation(json: PatchFixtures.json(text)) }
  }

  @Test func decodesPatchDocumentsAndNamesTheFailingOperation() throws {
    let patch = PatchFixtures.json(#"[{"op":"remove","path":"/a"},{"op":"add","path":"/b"}]"#)
    #expect(throws: JSONPatchError(.missingMember("value"), operationIndex: 1)) {
      try JSONPatch.operations(from: patch)
    }
    #expect(throws: JSONPatchError(.patchNotAnArray)) {
      try JSONPatch.operations(from: PatchFixtures.json(#"{"op":"remove","path":"/a"}"#))
    }
    let ops: [JSONPatchOperation] = [
      .remove(path: Self.p("/a")), .add(path: Self.p("/b/-"), value: .string("x")),
    ]
    #expect(try JSONPatch.operations(from: JSONPatch.json(for: ops)) == ops)
  }

  @Test func describesErrorsReadably() {
    let error = JSONPatchError(.noValue(Self.p("/todos/7")), operationIndex: 1)
    #expect(error.description == "operation 1: no value at /todos/7")
    #expect(JSONPatchError(.unknownOperation("spam")).description == "unknown op 'spam'")
    #expect(
      JSONPatchError(.testFailed(.root)).description
        == "test failed: the value at the document root differs")
  }
}
