import Testing
import Wire

@Suite struct JSONPointerTests {
  @Test(arguments: [
    ("", [String]()),
    ("/", [""]),
    ("/foo", ["foo"]),
    ("/foo/0", ["foo", "0"]),
    ("//", ["", ""]),
    ("/a~1b", ["a/b"]),
    ("/m~0n", ["m~n"]),
    ("/~01", ["~1"]),
    ("/~10", ["/0"]),
    ("/ünï/ç ø d", ["ünï", "ç ø d"]),
  ])
  func parsesAndSerializesEscapedTokens(text: String, tokens: [String]) throws {
    let pointer = try JSONPointer(text)
    #expect(pointer.tokens == tokens)
    #expect(pointer.description == text)
    #expect(JSONPointer(tokens: tokens) == pointer)
  }

  @Test(arguments: ["foo", "a/b", "/~", "/a~", "/~2", "/a~x/b", "#/foo"])
  func rejectsMalformedText(text: String) {
    #expect(throws: JSONPatchError(.malformedPointer(text))) { try JSONPointer(text) }
  }

  @Test func escapesTildeBeforeSlash() {
    #expect(JSONPointer(tokens: ["~1", "/~", "~/"]).description == "/~01/~1~0/~0~1")
  }

  @Test func evaluatesRFC6901Examples() throws {
    let document = PatchFixtures.json(
      #"{"foo":["bar","baz"],"":0,"a/b":1,"c%d":2,"e^f":3,"g|h":4,"i\\j":5,"k\"l":6," ":7,"m~n":8}"#
    )
    let expectations: [(String, JSON)] = [
      ("", document), ("/foo", PatchFixtures.json(#"["bar","baz"]"#)), ("/foo/0", .string("bar")),
      ("/", .int(0)), ("/a~1b", .int(1)), ("/c%d", .int(2)), ("/e^f", .int(3)),
      ("/g|h", .int(4)), ("/i\\j", .int(5)), ("/k\"l", .int(6)), ("/ ", .int(7)),
      ("/m~0n", .int(8)),
    ]
    for (text, value) in expectations {
      #expect(try JSONPointer(text).evaluate(in: document) == value, "\(text)")
    }
  }

  @Test func arrayIndicesFollowRFC6901() throws {
    let document = PatchFixtures.json(#"{"a":[10,20,30]}"#)
    #expect(try JSONPointer("/a/0").evaluate(in: document) == .int(10))
    #expect(try JSONPointer("/a/2").evaluate(in: document) == .int(30))
    for bad in ["/a/01", "/a/00", "/a/-", "/a/+1", "/a/-1", "/a/1e0", "/a/ 1", "/a/"] {
      let pointer = try JSONPointer(bad)
      #expect(throws: JSONPatchError(.invalidArrayIndex(pointer)), "\(bad)") {
        try pointer.evaluate(in: document)
      }
    }
    let past = try JSONPointer("/a/3")
    #expect(throws: JSONPatchError(.indexOutOfBounds(past, count: 3))) {
      try past.evaluate(in: document)
    }
    let huge = try JSONPointer("/a/99999999999999999999999")
    #expect(throws: JSONPatchError(.invalidArrayIndex(huge))) { try huge.evaluate(in: document) }
  }

  @Test func reportsTheFirstMissingLocation() throws {
    let document = PatchFixtures.json(#"{"a":{"b":1}}"#)
    #expect(throws: JSONPatchError(.noValue(try JSONPointer("/a/c")))) {
      try JSONPointer("/a/c/d").evaluate(in: document)
    }
    #expect(throws: JSONPatchError(.notAContainer(try JSONPointer("/a/b/c")))) {
      try JSONPointer("/a/b/c").evaluate(in: document)
    }
  }

  @Test func buildsRelatedPointers() throws {
    let pointer = try JSONPointer("/todos")
    #expect(pointer.appending(index: 3).description == "/todos/3")
    #expect(pointer.appending("a/b").description == "/todos/a~1b")
    #expect(pointer.appending("x").parent == pointer)
    #expect(JSONPointer.root.parent == nil)
    #expect(JSONPointer.root.isRoot && !pointer.isRoot)
  }
}
