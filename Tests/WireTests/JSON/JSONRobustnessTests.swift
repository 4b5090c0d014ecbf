import Testing

@testable import Wire

/// Random bytes and random corruptions of valid documents: the parser must return a value or
/// a ``JSONParseError`` inside the input, never crash or hang, and whatever it accepts must
/// serialize to text that parses back equal.
@Suite struct JSONRobustnessTests {
  static let seeds: [[UInt8]] = [
    #"{"type":"send","id":2,"scope":"counter","action":{"incrementButtonTapped":{}}}"#,
    #"[1,-2.5e-3,"a\"b\\c\u00e9\ud83d\ude00",true,false,null,{"k":[[],{}]}]"#,
    #"{"todos":[{"id":"0B9E5C52","title":"Milk — café","done":false,"n":12345678901234567890}]}"#,
  ].map { Array($0.utf8) }

  func check(_ bytes: [UInt8]) {
    do {
      let value = try JSON(parsing: bytes)
      #expect(try JSON(parsing: value.serialized()) == value)
    } catch {
      #expect(error.offset >= 0 && error.offset <= bytes.count)
    }
  }

  @Test func survivesCorruptedDocuments() {
    var generator = SplitMix64(seed: 42)
    let interesting: [UInt8] =
      Array(#"{}[]":,\"0123456789-+.eEtrufalsn "#.utf8) + [
        0x00, 0x1F, 0x80, 0xC3, 0xED, 0xF4, 0xFF,
      ]
    for _ in 0..<20_000 {
      var bytes = Self.seeds[Int(generator.next() % UInt64(Self.seeds.count))]
      for _ in 0...(generator.next() % 4) {
        let position = Int(generator.next() % UInt64(bytes.count))
        let byte = interesting[Int(generator.next() % UInt64(interesting.count))]
        switch generator.next() % 3 {
        case 0: bytes[position] = byte
        case 1: bytes.insert(byte, at: position)
        default: if bytes.count > 1 { bytes.remove(at: position) }
        }
      }
      self.check(bytes)
    }
  }

  @Test func survivesRandomBytes() {
    var generator = SplitMix64(seed: 7)
    for _ in 0..<20_000 {
      let count = Int(generator.next() % 64)
      self.check((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
    }
  }

  @Test func survivesTruncationAtEveryByte() {
    for seed in Self.seeds {
      for end in 0...seed.count { self.check(Array(seed[..<end])) }
    }
  }
}
