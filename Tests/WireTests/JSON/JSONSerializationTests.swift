import Testing

@testable import Wire

@Suite struct JSONSerializationTests {
  @Test func writesCompactText() {
    let value: JSON = .object([
      "type": .string("send"), "id": .int(-7), "ok": .bool(true), "none": .null,
      "list": .array([.int(1), .double(2.5), .string("x")]), "empty": .object([:]),
    ])
    #expect(
      value.compactString
        == #"{"type":"send","id":-7,"ok":true,"none":null,"list":[1,2.5,"x"],"empty":{}}"#)
    #expect(value.serialized() == Array(value.compactString.utf8))
  }

  @Test func appendsToAnExistingBuffer() {
    var buffer: [UInt8] = [1, 2]
    JSON.array([.int(3)]).serialize(into: &buffer)
    #expect(buffer == [1, 2] + Array("[3]".utf8))
  }

  @Test(arguments: [
    (Int64.max, "9223372036854775807"), (Int64.min, "-9223372036854775808"), (0, "0"),
    (9, "9"), (10, "10"), (-1, "-1"), (1_000_000_007, "1000000007"),
  ])
  func writesIntegersExactly(value: Int64, text: String) throws {
    #expect(JSON.int(value).compactString == text)
    #expect(try JSON(parsing: text) == .int(value))
  }

  @Test(arguments: [
    (1e300, "1e+300"), (0.1, "0.1"), (-0.0, "-0.0"), (1.5e-7, "1.5e-7"), (5.0, "5.0"),
    (-2.5, "-2.5"), (1e16, "1e+16"), (1e15, "1000000000000000.0"),
    (123456789012345.0, "123456789012345.0"),
    (0.30000000000000004, "0.30000000000000004"), (Double.leastNonzeroMagnitude, "5e-324"),
    (1.7976931348623157e308, "1.7976931348623157e+308"), (1e-5, "1e-5"), (1e22, "1e+22"),
  ])
  func writesShortestRoundTrippingDoubles(value: Double, text: String) throws {
    let written = JSON.double(value).compactString
    #expect(written == text)
    guard case .double(let reparsed) = try JSON(parsing: written) else {
      Issue.record("\(written) did not parse back as a double")
      return
    }
    #expect(reparsed.bitPattern == value.bitPattern)
  }

  @Test func randomDoublesRoundTripBitForBit() throws {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let value = Double(bitPattern: generator.next())
      guard value.isFinite else { continue }
      guard case .double(let reparsed) = try JSON(parsing: JSON.double(value).serialized()) else {
        Issue.record("\(value) did not come back as a double")
        continue
      }
      #expect(reparsed.bitPattern == value.bitPattern, "\(value)")
    }
  }

  @Test(arguments: [
    (485.26, "485.26"), (-0.001, "-0.001"), (0.0011, "0.0011"), (1e-4, "0.0001"),
    (999999999999999.9, "999999999999999.9"), (123456789012345.6, "123456789012345.6"),
    (0.445, "0.445"), (0.44499999999999995, "0.44499999999999995"), (12.000001, "12.000001"),
  ])
  func writesShortDecimalsAsDescriptionDoes(value: Double, text: String) {
    #expect(JSON.double(value).compactString == text)
  }

  /// Doubles with few significant digits take a shortcut (ShortDecimal); it must print exactly
  /// what `description` prints, exponent aside.
  @Test func shortDecimalsMatchDescription() {
    var generator = SystemRandomNumberGenerator()
    for index in 0..<200_000 {
      let digits = Int64.random(in: -9_999_999_999...9_999_999_999, using: &generator)
      var value = Double(digits)
      for _ in 0..<(index % 16) { value /= 10 }
      guard value != value.rounded(.towardZero), !value.description.contains("e") else {
        continue
      }
      #expect(JSON.double(value).compactString == value.description)
    }
  }

  /// Text much longer than the writer's first buffer, into a fresh array and into a reused one
  /// with and without room to spare, comes out the same.
  @Test func writesLongTextIntoAnyBuffer() throws {
    let long = String(repeating: "x\u{1}é", count: 20_000)
    let value: JSON = .array(
      (0..<3000).map { index in
        .object(["index": .int(Int64(index)), "text": .string(index % 1000 == 0 ? long : "t")])
      })
    let text = value.serialized()
    #expect(try JSON(parsing: text) == value)
    var reused: [UInt8] = [7]
    reused.reserveCapacity(text.count * 2)
    value.serialize(into: &reused)
    #expect(reused == [7] + text)
    var tight: [UInt8] = [7]
    tight.reserveCapacity(text.count / 2)
    value.serialize(into: &tight)
    #expect(tight == [7] + text)
    #expect(value.compactString.utf8.elementsEqual(text))
  }

  @Test func writesNonFiniteDoublesAsNull() {
    #expect(JSON.double(.infinity).compactString == "null")
    #expect(JSON.double(.nan).compactString == "null")
  }

  @Test func escapesOnlyWhatJSONRequires() throws {
    let string = "q\"b\\s/\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}é€😀\u{2028}"
    let text = JSON.string(string).compactString
    #expect(text == #""q\"b\\s/\u0000\u0001\b\t\n\f\r\u001f"# + "\u{7F}é€😀\u{2028}\"")
    #expect(try JSON(parsing: text) == .string(string))
  }

  @Test func escapesInStringsOfEveryLength() throws {
    // Strings of 0...40 bytes with a special character at each position exercise the
    // small-string and word-at-a-time paths.
    for length in 0...40 {
      for position in 0..<max(length, 1) {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        if length > 0 { bytes[position] = [0x22, 0x5C, 0x0A, 0x01][position % 4] }
        let string = String(decoding: bytes, as: UTF8.self)
        let written = JSON.string(string).serialized()
        #expect(try JSON(parsing: written) == .string(string))
        #expect(!written.dropFirst().dropLast().contains { $0 < 0x20 })
      }
    }
  }

  @Test func prettyPrintsWithTwoSpaces() {
    let value: JSON = .object([
      "count": .int(3), "tags": .array([.string("a"), .object(["b": .null])]), "empty": .array([]),
      "none": .object([:]),
    ])
    #expect(
      value.prettyPrinted() == """
        {
          "count": 3,
          "tags": [
            "a",
            {
              "b": null
            }
          ],
          "empty": [],
          "none": {}
        }
        """)
    #expect(JSON.int(1).prettyPrinted() == "1")
  }

  @Test func largeDocumentsRoundTrip() throws {
    var generator = SystemRandomNumberGenerator()
    func random(_ depth: Int) -> JSON {
      switch generator.next() % (depth > 4 ? 5 : 7) {
      case 0: return .null
      case 1: return .bool(generator.next() % 2 == 0)
      case 2: return .int(Int64(bitPattern: generator.next()))
      case 3: return .double(Double(Int64(bitPattern: generator.next() % 1_000_000)) / 1000)
      case 4:
        let scalars = (0..<(generator.next() % 30)).map { _ in
          Unicode.Scalar(UInt32(generator.next() % 0xD7FF)).map(Character.init) ?? "x"
        }
        return .string(String(scalars))
      case 5: return .array((0..<(generator.next() % 6)).map { _ in random(depth + 1) })
      default:
        return .object(
          JSONObject(
            (0..<(generator.next() % 6)).map { _ in ("k\(generator.next() % 20)", random(depth + 1))
            }))
      }
    }
    for _ in 0..<300 {
      let value = random(0)
      let text = value.serialized()
      let reparsed = try JSON(parsing: text)
      #expect(reparsed == value)
      #expect(reparsed.serialized() == text)
      #expect(try JSON(parsing: value.prettyPrinted()) == value)
    }
  }
}
