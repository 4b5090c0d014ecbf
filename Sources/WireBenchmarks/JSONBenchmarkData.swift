import Wire

/// Deterministic inputs for the JSON benchmarks.
enum JSONBenchmarkData {
  /// A 60-byte protocol message.
  static let message = #"{"type":"subscribe","id":17,"scope":"todos/421","tag":true}"#

  /// A document of about `targetBytes` compact bytes: an array of records mixing nested
  /// objects, short and long strings (some with escapes and non-ASCII), integers and doubles.
  static func document(targetBytes: Int) -> JSON {
    var generator = SplitMix64(seed: 0x5EED)
    let words = [
      "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
      "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
    ]
    var records: [JSON] = []
    var size = 2
    var index: Int64 = 0
    while size < targetBytes {
      func word() -> String { words[Int(generator.next() % UInt64(words.count))] }
      let sentence = (0..<(4 + Int(generator.next() % 12))).map { _ in word() }
        .joined(separator: " ")
      var record: JSONObject = [
        "id": .string(Self.uuidString(&generator)),
        "index": .int(index),
        "title": .string("Item \(index): \(word()) \(word())"),
        "done": .bool(generator.next() % 2 == 0),
        "price": .double(Double(generator.next() % 100_000) / 100),
        "rating": .double(Double(generator.next() % 1000) / 1000 * 5),
        "quantity": .int(Int64(generator.next() % 10_000)),
        "tags": .array((0..<Int(generator.next() % 4)).map { _ in .string(word()) }),
        "owner": .object([
          "name": .string("\(word().capitalized) \(word().capitalized)"),
          "email": .string("\(word())@\(word()).example"),
          "age": .int(Int64(18 + generator.next() % 60)),
        ]),
        "notes": .string(sentence),
      ]
      if index % 10 == 0 {
        record["comment"] = .string("Needs \"review\"\n— café déjà vu ✓")
      }
      if index % 7 == 0 { record["parent"] = .null }
      let value = JSON.object(record)
      size += value.serialized().count + 1
      records.append(value)
      index += 1
    }
    return .array(records)
  }

  private static func uuidString(_ generator: inout SplitMix64) -> String {
    let hex = Array("0123456789ABCDEF")
    var characters: [Character] = []
    for position in 0..<32 {
      if [8, 12, 16, 20].contains(position) { characters.append("-") }
      characters.append(hex[Int(generator.next() % 16)])
    }
    return String(characters)
  }
}


extension String {
  fileprivate var capitalized: String { prefix(1).uppercased() + dropFirst() }
}
