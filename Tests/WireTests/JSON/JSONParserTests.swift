import Testing

@testable import Wire

@Suite struct JSONParserTests {
  @Test func parsesEveryKindOfValue() throws {
    let value = try JSON(parsing: #" {"a":[1,-2.5,"x",true,false,null,{}],"b":{"c":[]}} "#)
    let expected: JSON = .object([
      "a": .array([
        .int(1), .double(-2.5), .string("x"), .bool(true), .bool(false), .null, .object([:]),
      ]),
      "b": .object(["c": .array([])]),
    ])
    #expect(value == expected)
  }

  @Test func keepsMemberOrder() throws {
    let value = try JSON(parsing: #"{"z":1,"a":2,"m":3}"#)
    guard case .object(let object) = value else {
      Issue.record("not an object")
      return
    }
    #expect(object.keys == ["z", "a", "m"])
    #expect(value.compactString == #"{"z":1,"a":2,"m":3}"#)
  }

  @Test func repeatedKeyKeepsFirstPositionAndLastValue() throws {
    let value = try JSON(parsing: #"{"a":1,"b":2,"a":3}"#)
    #expect(value.compactString == #"{"a":3,"b":2}"#)
    // Keys written differently but equal after unescaping are the same key.
    #expect(try JSON(parsing: #"{"a":1,"\u0061":2}"#).compactString == #"{"a":2}"#)
    // Large objects take the hashed path.
    let members = (0..<100).map { "\"k\($0 % 50)\":\($0)" }.joined(separator: ",")
    guard case .object(let object) = try JSON(parsing: "{\(members)}") else {
      Issue.record("not an object")
      return
    }
    #expect(object.count == 50)
    #expect(object["k0"] == .int(50))
    #expect(object.keys.first == "k0")
  }

  /// Objects of one size share a remembered key shape; one that repeats a key must still be
  /// caught after siblings of its size without repeats, and one without after one with.
  @Test(arguments: 2...20)
  func repeatedKeyAfterSiblingsOfTheSameSize(memberCount: Int) throws {
    func object(_ keys: [String]) -> String {
      "{" + keys.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",") + "}"
    }
    let unique = (0..<memberCount).map { "key\($0)" }
    var repeated = unique
    repeated[memberCount - 1] = "key0"
    let objects = [unique, unique, repeated, unique, repeated].map(object)
    let text = "[" + objects.joined(separator: ",") + "]"
    guard case .array(let parsedObjects) = try JSON(parsing: text) else {
      Issue.record("not an array")
      return
    }
    let expectedUnique = JSONObject(unique.enumerated().map { ($1, JSON.int(Int64($0))) })
    var expectedRepeated = JSONObject(unique.dropLast().enumerated().map { ($1, .int(Int64($0))) })
    expectedRepeated["key0"] = .int(Int64(memberCount - 1))
    for (offset, value) in parsedObjects.enumerated() {
      guard case .object(let parsed) = value else {
        Issue.record("not an object")
        return
      }
      let expected = offset == 2 || offset == 4 ? expectedRepeated : expectedUnique
      #expect(parsed.keys == expected.keys)
      #expect(parsed == expected)
    }
  }

  @Test(arguments: [
    ("0", JSON.int(0)), ("-0", .int(0)), ("42", .int(42)), ("-42", .int(-42)),
    ("9223372036854775807", .int(.max)), ("-9223372036854775808", .int(.min)),
    ("9223372036854775808", .double(9_223_372_036_854_775_808)),
    ("-9223372036854775809", .double(-9223372036854775808.0)),
    ("1.0", .double(1)), ("1e2", .double(100)), ("1E+2", .double(100)), ("-0.0", .double(-0.0)),
    ("0.1", .double(0.1)), ("1.5e-7", .double(1.5e-7)), ("1e300", .double(1e300)),
    ("123456789012345678901234567890", .double(1.2345678901234568e29)),
    ("2.2250738585072014e-308", .double(2.2250738585072014e-308)),
    ("1e-400", .double(0)), ("0.30000000000000004", .double(0.30000000000000004)),
    ("17976931348623157e292", .double(1.7976931348623157e308)),
  ])
  func parsesNumbers(text: String, expected: JSON) throws {
    let value = try JSON(parsing: text)
    #expect(value == expected)
    // Same case too: integers stay integers, everything else stays a double.
    switch (value, expected) {
    case (.int, .int): break
    case (.double(let a), .double(let b)):
      #expect(a.bitPattern == b.bitPattern || (a == 0 && b == 0))
    default: Issue.record("\(text) parsed as \(value), expected \(expected)")
    }
  }

  @Test func distinguishesNegativeZeroDouble() throws {
    guard case .double(let value) = try JSON(parsing: "-0.0") else {
      Issue.record("not a double")
      return
    }
    #expect(value.sign == .minus)
  }

  @Test(arguments: [
    ("01", 1, "unexpected character '1', expected end of input"),
    ("1.", 2, "unexpected end of input, expected a digit after '.'"),
    ("1e", 2, "unexpected end of input, expected a digit in the exponent"),
    ("-", 1, "unexpected end of input, expected a digit"),
    ("+1", 0, "unexpected character '+', expected a value"),
    (".5", 0, "unexpected character '.', expected a value"),
    ("1e400", 0, "number out of range"),
    ("-1e400", 0, "number out of range"),
  ])
  func rejectsBadNumbers(text: String, offset: Int, reason: String) {
    #expect(throws: JSONParseError(offset: offset, reason: reason)) { try JSON(parsing: text) }
  }

  @Test func decodesEscapes() throws {
    let value = try JSON(parsing: #""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00\u0000""#)
    #expect(value == .string("\"\\/\u{8}\u{C}\n\r\tAé€😀\u{0}"))
  }

  @Test func acceptsRawUTF8() throws {
    #expect(
      try JSON(parsing: "\"héllo wörld — ✓ 😀 long enough to skip the small path\"")
        == .string("héllo wörld — ✓ 😀 long enough to skip the small path"))
    #expect(try JSON(parsing: "[\"é\"]") == .array([.string("é")]))
  }

  @Test(arguments: [
    (#""\ud800""#, 1, #"lone surrogate escape \uD800 in string"#),
    (#""\udc00""#, 1, #"lone surrogate escape \uDC00 in string"#),
    (#""\ud800\u0041""#, 1, #"lone surrogate escape \uD800 in string"#),
    (#""ab\ud83dx""#, 3, #"lone surrogate escape \uD83D in string"#),
  ])
  func rejectsLoneSurrogates(text: String, offset: Int, reason: String) {
    #expect(throws: JSONParseError(offset: offset, reason: reason)) { try JSON(parsing: text) }
  }

  @Test func rejectsInvalidUTF8WithOffsets() {
    let cases: [([UInt8], Int, String)] = [
      ([0x22, 0x61, 0xFF, 0x22], 2, "invalid UTF-8 byte 0xFF in string"),
      ([0x22, 0xC0, 0xAF, 0x22], 1, "invalid UTF-8 byte 0xC0 in string"),  // overlong "/"
      ([0x22, 0xED, 0xA0, 0x80, 0x22], 1, "invalid UTF-8 byte 0xED in string"),  // surrogate
      ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1, "invalid UTF-8 byte 0xF4 in string"),  // > U+10FFFF
      ([0x22, 0xE2, 0x82, 0x22], 1, "invalid UTF-8 byte 0xE2 in string"),  // truncated
      ([0x22, 0x5C, 0x6E, 0x80, 0x22], 3, "invalid UTF-8 byte 0x80 in string"),  // after an escape
    ]
    for (bytes, offset, reason) in cases {
      #expect(throws: JSONParseError(offset: offset, reason: reason)) { try JSON(parsing: bytes) }
    }
  }

  @Test(arguments: [
    ("", 0, "unexpected end of input, expected a value"),
    ("   ", 3, "unexpected end of input, expected a value"),
    ("[1, x]", 4, "unexpected character 'x', expected a value"),
    ("[1 2]", 3, "unexpected character '2', expected ',' or ']'"),
    (#"{"a" 1}"#, 5, "unexpected character '1', expected ':'"),
    (#"{"a":1,}"#, 7, "unexpected character '}', expected a string key"),
    ("[1,]", 3, "unexpected character ']', expected a value"),
    ("{1:2}", 1, "unexpected character '1', expected a string key"),
    ("[1", 2, "unexpected end of input, expected ',' or ']'"),
    ("tru", 3, "unexpected end of input, expected 'true'"),
    ("nul1", 3, "unexpected character '1', expected 'null'"),
    ("1 2", 2, "unexpected character '2', expected end of input"),
    ("\"abc", 4, "unexpected end of input, expected '\"' to end the string"),
    ("\"a\tb\"", 2, "unescaped control character U+0009 in string"),
    (#""\x""#, 2, "unexpected character 'x', expected an escape character"),
    (#""\u12G4""#, 5, "unexpected character 'G', expected a hex digit"),
    ("\u{FEFF}{}", 0, "unexpected byte 0xEF, expected a value"),
    ("[\u{0C}]", 1, "unexpected byte 0x0C, expected a value"),
  ])
  func reportsErrorsWithOffsets(text: String, offset: Int, reason: String) {
    #expect(throws: JSONParseError(offset: offset, reason: reason)) { try JSON(parsing: text) }
  }

  @Test func errorDescriptionNamesTheByte() {
    #expect(
      JSONParseError(offset: 12, reason: "unexpected character 'x'").description
        == "unexpected character 'x' at byte 12")
  }

  @Test func boundsNestingDepth() throws {
    let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    _ = try JSON(parsing: deepest)
    let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
    #expect(
      throws: JSONParseError(offset: 512, reason: "nesting deeper than the maximum depth of 512")
    ) {
      try JSON(parsing: tooDeep)
    }
    #expect(throws: JSONParseError(offset: 6, reason: "nesting deeper than the maximum depth of 2"))
    {
      try JSON(parsing: #"[{"a":[]}]"#, maxDepth: 2)
    }
    #expect(try JSON(parsing: "7", maxDepth: 0) == .int(7))
  }

  @Test func survivesHugeNestingWithoutStackOverflow() {
    let opening = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
    #expect(throws: JSONParseError.self) { try JSON(parsing: opening) }
    let objects = [UInt8](String(repeating: #"{"a":"#, count: 100_000).utf8)
    #expect(throws: JSONParseError.self) { try JSON(parsing: objects) }
    // Deep but within an explicit larger limit: iterative, so no stack is used per level.
    let deep = String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000)
    #expect((try? JSON(parsing: deep, maxDepth: 20_000)) != nil)
  }

  @Test func parsesFromEveryInputType() throws {
    let text = #"{"type":"ping","id":1}"#
    let expected = try JSON(parsing: text)
    #expect(try JSON(parsing: Array(text.utf8)) == expected)
    let framed: [UInt8] = [0, 0, 0, 22] + Array(text.utf8)
    #expect(try JSON(parsing: framed[4...]) == expected)
    let fromPointer = try Array(text.utf8).withUnsafeBytes { try JSON(parsing: $0) }
    #expect(fromPointer == expected)
    // Offsets count from the start of the slice.
    #expect(throws: JSONParseError(offset: 1, reason: "unexpected character 'x', expected a value"))
    {
      try JSON(parsing: Array("[x]".utf8)[0...])
    }
  }

  @Test func stringsOfEveryLengthRoundTrip() throws {
    // Covers the small-string fast path (≤ 15 bytes), its end-of-buffer variant and the
    // general path.
    for length in 0...40 {
      let string = String((0..<length).map { Character(Unicode.Scalar(UInt8(97 + $0 % 26))) })
      #expect(try JSON(parsing: "\"\(string)\"") == .string(string))
      #expect(try JSON(parsing: "[\"\(string)\"]") == .array([.string(string)]))
      #expect(try JSON(parsing: "{\"\(string)\":1}").compactString == "{\"\(string)\":1}")
    }
  }

  @Test func shortStringsWithSpecialBytesAnywhere() throws {
    // The ≤ 15-byte fast path must hand every string with an escape, a non-ASCII byte or a
    // control character to the general path, wherever it sits in the 16 bytes it looks at.
    for length in 1...18 {
      for position in 0..<length {
        for (special, decoded) in [("\\n", "\n"), ("é", "é"), ("\\u0041", "A")] {
          var text = String(repeating: "k", count: length)
          let index = text.index(text.startIndex, offsetBy: position)
          text.replaceSubrange(index...index, with: special)
          var expected = String(repeating: "k", count: length)
          let expectedIndex = expected.index(expected.startIndex, offsetBy: position)
          expected.replaceSubrange(expectedIndex...expectedIndex, with: decoded)
          #expect(try JSON(parsing: "\"\(text)\"") == .string(expected))
          let document = "{\"\(text)\":\"\(text)\",\"padding\":[1,2,3,4,5,6,7,8,9]}"
          guard case .object(let object) = try JSON(parsing: document) else {
            Issue.record("\(document) did not parse as an object")
            continue
          }
          #expect(object.keys.first == expected)
          #expect(object[expected] == .string(expected))
        }
        var control = Array("\"\(String(repeating: "k", count: length))\"       ".utf8)
        control[1 + position] = 0x01
        #expect(throws: JSONParseError.self) { try JSON(parsing: control) }
      }
    }
  }

  @Test func longDecimalsRoundCorrectly() throws {
    // 16 to 19 significant digits with a fraction take LongDecimal, not strtod; ties included.
    var generator = SystemRandomNumberGenerator()
    var texts = ["4503599627370496.5", "4503599627370497.5", "9007199254740993.0", "0.44499999999999995"]
    for index in 0..<20_000 {
      let digits = String(UInt64.random(in: (1 << 53)...9_999_999_999_999_999_999, using: &generator))
      let point = digits.index(digits.endIndex, offsetBy: -(1 + index % (digits.count - 1)))
      texts.append(String(digits[..<point]) + "." + digits[point...])
      texts.append(digits + "e-\(1 + index % 19)")
    }
    for text in texts {
      guard case .double(let value) = try JSON(parsing: text) else {
        Issue.record("\(text) did not parse as a double")
        continue
      }
      #expect(value.bitPattern == Double(text)?.bitPattern, "\(text)")
    }
  }
}
