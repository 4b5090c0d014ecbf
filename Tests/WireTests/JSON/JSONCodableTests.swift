import Foundation
import Testing

@testable import Wire

// MARK: - Representative types

enum CounterAction: Codable, Equatable {
  case incrementButtonTapped
  case decrementButtonTapped
  case set(Int)
  case labeled(value: Int, note: String?)
}

enum TodoAction: Codable, Equatable {
  case toggle
  case rename(String)
  case setDue(Date?)
}

struct Todo: Codable, Equatable {
  var id: UUID
  var title: String
  var isComplete: Bool
  var due: Date?
  var tags: [String]
  var priority: Int8
}

enum AppAction: Codable, Equatable {
  case todo(id: UUID, action: TodoAction)
  case counter(CounterAction)
  case todos([Todo])
  case pair(Int, String)
}

struct Numbers: Codable, Equatable {
  var int = Int.min
  var int8 = Int8.min
  var int16 = Int16.max
  var int32 = Int32.min
  var int64 = Int64.max
  var uint = UInt(UInt32.max)
  var uint8 = UInt8.max
  var uint16 = UInt16.max
  var uint32 = UInt32.max
  var uint64 = UInt64(Int64.max)
  var float: Float = 0.1
  var double = -1.5e-7
  var whole = 5.0
  var small: Float = 1e-30
}

struct Collections: Codable, Equatable {
  var byName: [String: Int] = ["a": 1, "b": 2]
  var byNumber: [Int: String] = [1: "one", 20: "twenty"]
  var nested: [[Int?]] = [[1, nil], [], [3]]
  var optionalArray: [String]? = nil
  var presentOptional: String? = "here"
  var set: Set<Int> = [7]
  var data = Data([0, 1, 2, 250, 255])
  var url = URL(string: "https://example.com/a?b=c")!
  var date = Date(timeIntervalSinceReferenceDate: 123_456.789)
  var decimal = Decimal(string: "12.5")!
}

/// A class hierarchy that uses `superEncoder()`/`superDecoder()` like Foundation's docs show.
class Animal: Codable {
  var name: String
  init(name: String) { self.name = name }
}

final class Dog: Animal {
  var goodBoy: Bool
  init(name: String, goodBoy: Bool) {
    self.goodBoy = goodBoy
    super.init(name: name)
  }
  enum CodingKeys: String, CodingKey { case goodBoy }
  required init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.goodBoy = try container.decode(Bool.self, forKey: .goodBoy)
    try super.init(from: container.superDecoder())
  }
  override func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(self.goodBoy, forKey: .goodBoy)
    try super.encode(to: container.superEncoder())
  }
}

/// Manual containers: nested keyed/unkeyed containers and an unkeyed super encoder.
struct Manual: Codable, Equatable {
  var a: Int
  var list: [String]
  enum CodingKeys: String, CodingKey { case outer, list }
  enum Inner: String, CodingKey { case a }
  init(a: Int, list: [String]) {
    self.a = a
    self.list = list
  }
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.a = try container.nestedContainer(keyedBy: Inner.self, forKey: .outer).decode(
      Int.self, forKey: .a)
    var list = try container.nestedUnkeyedContainer(forKey: .list)
    var strings: [String] = []
    while !list.isAtEnd { strings.append(try list.decode(String.self)) }
    self.list = strings
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    var inner = container.nestedContainer(keyedBy: Inner.self, forKey: .outer)
    try inner.encode(self.a, forKey: .a)
    var list = container.nestedUnkeyedContainer(forKey: .list)
    for string in self.list { try list.encode(string) }
  }
}

// MARK: - Tests

@Suite struct JSONCodableTests {
  let id = UUID(uuidString: "0B9E5C52-1D5E-4C1A-9E43-6F7D1C2B3A4F")!

  var todo: Todo {
    Todo(
      id: self.id, title: "Milk \"2%\" — café", isComplete: false,
      due: Date(timeIntervalSinceReferenceDate: 7.25), tags: ["a", "b"], priority: -3)
  }

  /// Our encoding, Foundation's encoding parsed by us, and both decoders agree.
  func expectMatchesFoundation<T: Codable & Equatable>(
    _ value: T, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let ours = try JSONValueEncoder().encode(value)
    let foundation = try JSON(parsing: [UInt8](try JSONEncoder().encode(value)))
    #expect(
      ours == foundation, "ours: \(ours.compactString)\nFoundation: \(foundation.compactString)",
      sourceLocation: sourceLocation)
    #expect(
      try JSONValueDecoder().decode(T.self, from: ours) == value, sourceLocation: sourceLocation)
    #expect(
      try JSONValueDecoder().decode(T.self, from: foundation) == value,
      sourceLocation: sourceLocation)
    let fromOurText = try JSONDecoder().decode(T.self, from: Data(ours.serialized()))
    #expect(fromOurText == value, sourceLocation: sourceLocation)
  }

  @Test func matchesFoundationForEnums() throws {
    try self.expectMatchesFoundation(CounterAction.incrementButtonTapped)
    try self.expectMatchesFoundation(CounterAction.set(5))
    try self.expectMatchesFoundation(CounterAction.labeled(value: 1, note: nil))
    try self.expectMatchesFoundation(CounterAction.labeled(value: 1, note: "x"))
    try self.expectMatchesFoundation(AppAction.todo(id: self.id, action: .toggle))
    try self.expectMatchesFoundation(AppAction.todo(id: self.id, action: .setDue(nil)))
    try self.expectMatchesFoundation(AppAction.todo(id: self.id, action: .rename("y")))
    try self.expectMatchesFoundation(AppAction.counter(.set(-9)))
    try self.expectMatchesFoundation(AppAction.todos([self.todo, self.todo]))
    try self.expectMatchesFoundation(AppAction.pair(1, "two"))
  }

  @Test func matchesFoundationForStructsAndCollections() throws {
    try self.expectMatchesFoundation(self.todo)
    try self.expectMatchesFoundation(Numbers())
    try self.expectMatchesFoundation(Collections())
    try self.expectMatchesFoundation(Manual(a: 3, list: ["x", "y"]))
    try self.expectMatchesFoundation([self.id: 1].mapValues { $0 })
    try self.expectMatchesFoundation(["k": [1.5, 2]])
    try self.expectMatchesFoundation(Optional<Int>.none)
    try self.expectMatchesFoundation("top-level string")
    try self.expectMatchesFoundation([Todo?.none, self.todo])
  }

  @Test func producesTheDocumentedShapes() throws {
    let encoder = JSONValueEncoder()
    #expect(try encoder.encode(CounterAction.set(5)).compactString == #"{"set":{"_0":5}}"#)
    #expect(
      try encoder.encode(CounterAction.incrementButtonTapped).compactString
        == #"{"incrementButtonTapped":{}}"#)
    #expect(
      try encoder.encode(CounterAction.labeled(value: 2, note: nil)).compactString
        == #"{"labeled":{"value":2}}"#)
    #expect(
      try encoder.encode(AppAction.todo(id: self.id, action: .toggle)).compactString
        == #"{"todo":{"id":"0B9E5C52-1D5E-4C1A-9E43-6F7D1C2B3A4F","action":{"toggle":{}}}}"#)
    // Members in declaration order; nil optionals omitted; Date as seconds since 2001.
    #expect(
      try encoder.encode(self.todo).compactString
        == #"{"id":"0B9E5C52-1D5E-4C1A-9E43-6F7D1C2B3A4F","title":"Milk \"2%\" — café","#
        + #""isComplete":false,"due":7.25,"tags":["a","b"],"priority":-3}"#)
    #expect(try encoder.encode(Data([1, 2, 3])) == .string("AQID"))
    #expect(try encoder.encode(URL(string: "file:///tmp/x")!) == .string("file:///tmp/x"))
    #expect(try encoder.encode([1: "a"]) == .object(["1": .string("a")]))
    #expect(try encoder.encode(Float(0.1)) == .double(0.1))
  }

  @Test func uuidsAreWrittenAsFoundationWritesThem() throws {
    var uuids = [
      UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
      UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)),
      self.id,
    ]
    uuids += (0..<1_000).map { _ in UUID() }
    for uuid in uuids {
      #expect(try JSONValueEncoder().encode(uuid) == .string(uuid.uuidString))
    }
    try self.expectMatchesFoundation(uuids)
  }

  @Test func superEncoderMatchesFoundation() throws {
    let dog = Dog(name: "Rex", goodBoy: true)
    let ours = try JSONValueEncoder().encode(dog)
    #expect(ours == (try JSON(parsing: [UInt8](try JSONEncoder().encode(dog)))))
    #expect(ours.compactString == #"{"goodBoy":true,"super":{"name":"Rex"}}"#)
    let decoded = try JSONValueDecoder().decode(Dog.self, from: ours)
    #expect(decoded.name == "Rex" && decoded.goodBoy)
  }

  @Test func releasesNestedEncodersAndDecoders() throws {
    /// Remembers, weakly, the encoder and decoder it was handed.
    final class Probe: Codable {
      nonisolated(unsafe) static weak var encoder: AnyObject?
      nonisolated(unsafe) static weak var decoder: AnyObject?
      init() {}
      init(from decoder: any Decoder) throws { Probe.decoder = decoder as AnyObject }
      func encode(to encoder: any Encoder) throws {
        Probe.encoder = encoder as AnyObject
        var container = encoder.container(keyedBy: IndexKey.self)
        _ = container.nestedContainer(keyedBy: IndexKey.self, forKey: IndexKey(0))
      }
    }
    struct Holder: Codable {
      var probe: Probe
      var more: [Probe]
    }
    let json = try JSONValueEncoder().encode(Holder(probe: Probe(), more: [Probe()]))
    #expect(Probe.encoder == nil, "a nested encoder outlived encode")
    _ = try JSONValueDecoder().decode(Holder.self, from: json)
    #expect(Probe.decoder == nil, "a nested decoder outlived decode")
  }

  @Test func refusesWhatJSONCannotHold() {
    #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Double.nan) }
    #expect(throws: EncodingError.self) { try JSONValueEncoder().encode([Float.infinity]) }
    #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(UInt64.max) }
    #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(["a": UInt.max]) }
    #expect(throws: Never.self) { try JSONValueEncoder().encode(UInt64(Int64.max)) }
  }

  @Test func decodesNumbersExactlyOrNotAtAll() throws {
    let decoder = JSONValueDecoder()
    #expect(try decoder.decode(Int.self, from: .double(3)) == 3)
    #expect(try decoder.decode(Double.self, from: .int(3)) == 3)
    #expect(try decoder.decode(UInt8.self, from: .int(255)) == 255)
    #expect(throws: JSONDecodingError(path: [], reason: "number 256 does not fit UInt8")) {
      try decoder.decode(UInt8.self, from: .int(256))
    }
    #expect(throws: JSONDecodingError(path: [], reason: "number -1 does not fit UInt")) {
      try decoder.decode(UInt.self, from: .int(-1))
    }
    #expect(throws: JSONDecodingError(path: [], reason: "number 1.5 is not an integer")) {
      try decoder.decode(Int.self, from: .double(1.5))
    }
    #expect(throws: JSONDecodingError(path: [], reason: "number 1e+300 does not fit Float")) {
      try decoder.decode(Float.self, from: .double(1e300))
    }
  }

  @Test func treatsMissingAndNullOptionalsAsNil() throws {
    let decoded = try JSONValueDecoder().decode(
      CounterAction.self, from: JSON(parsing: #"{"labeled":{"value":1,"note":null}}"#))
    #expect(decoded == .labeled(value: 1, note: nil))
  }

  // MARK: Error paths

  func decodingError<T: Decodable>(_ type: T.Type, _ text: String) throws -> String? {
    let json = try JSON(parsing: text)
    do {
      _ = try JSONValueDecoder().decode(type, from: json)
      return nil
    } catch {
      return error.description
    }
  }

  @Test func namesThePathThatFailed() throws {
    #expect(
      try self.decodingError(AppAction.self, #"{"todo":{"id":7,"action":{"toggle":{}}}}"#)
        == "todo.id: expected string, found number")
    #expect(
      try self.decodingError(AppAction.self, #"{"counter":{"_0":{"set":{"_0":"x"}}}}"#)
        == "counter._0.set._0: expected integer, found string")
    #expect(
      try self.decodingError(CounterAction.self, #"{"set":{"_0":null}}"#)
        == "set._0: expected integer, found null")
    #expect(try self.decodingError(CounterAction.self, #"{"set":{}}"#) == "set: missing key '_0'")
    #expect(
      try self.decodingError(
        AppAction.self,
        #"{"todos":{"_0":[{"id":"0B9E5C52-1D5E-4C1A-9E43-6F7D1C2B3A4F","title":"a","isComplete":true,"tags":[],"priority":1},"#
          + #"{"id":"0B9E5C52-1D5E-4C1A-9E43-6F7D1C2B3A4F","title":"b","isComplete":true,"tags":[1],"priority":1}]}}"#
      )
        == "todos._0.1.tags.0: expected string, found number")
    #expect(
      try self.decodingError(
        Todo.self,
        #"{"id":"0B9E5C52-1D5E-4C1A-9E43-6F7D1C2B3A4F","title":"a","isComplete":true,"tags":[],"priority":300}"#
      )
        == "priority: number 300 does not fit Int8")
    #expect(
      try self.decodingError(
        Todo.self, #"{"id":"nope","title":"a","isComplete":true,"tags":[],"priority":1}"#)?
        .hasPrefix("id: ") == true)
    #expect(try self.decodingError(Todo.self, "[]") == "expected object, found array")
  }

  @Test func explainsEnumKeyProblems() throws {
    #expect(try self.decodingError(CounterAction.self, #"{"foo":{}}"#) == "unknown case 'foo'")
    #expect(
      try self.decodingError(
        AppAction.self,
        #"{"todo":{"id":"0B9E5C52-1D5E-4C1A-9E43-6F7D1C2B3A4F","action":{"fly":{}}}}"#)
        == "todo.action: unknown case 'fly'")
    #expect(
      try self.decodingError(CounterAction.self, "{}")
        == "expected an object with one key naming a case, found {}")
    #expect(
      try self.decodingError(CounterAction.self, #"{"set":{"_0":1},"incrementButtonTapped":{}}"#)
        == "expected one key naming a case, found 2: 'set', 'incrementButtonTapped'")
    #expect(
      try self.decodingError(CounterAction.self, #""incrementButtonTapped""#)
        == "expected object, found string")
  }

  @Test func errorDescriptionJoinsPathWithDots() {
    #expect(
      JSONDecodingError(path: ["todo", "id"], reason: "expected string").description
        == "todo.id: expected string")
    #expect(JSONDecodingError(path: [], reason: "expected object").description == "expected object")
  }

  @Test func namesPathsThroughEnumsInsideEnums() throws {
    // Enum cases open containers with nestedContainer(keyedBy:forKey:), which have no decoder
    // of their own; the paths below them must still be complete.
    #expect(
      try self.decodingError(AppAction.self, #"{"pair":{"_0":1,"_1":2}}"#)
        == "pair._1: expected string, found number")
    #expect(
      try self.decodingError(AppAction.self, #"{"counter":{"_0":{"labeled":{"value":true}}}}"#)
        == "counter._0.labeled.value: expected integer, found bool")
    #expect(
      // `set(Int)`'s one unlabeled value may be written without `_0` (docs/PROTOCOL.md,
      // Writing actions): `[]` is read as that value, and is not an integer.
      try self.decodingError(AppAction.self, #"{"counter":{"_0":{"set":[]}}}"#)
        == "counter._0.set: expected integer, found array")
    #expect(
      try self.decodingError(AppAction.self, #"{"counter":{"_0":{"zap":{}}}}"#)
        == "counter._0: unknown case 'zap'")
  }

  @Test func reportsCodingPathsOfNestedContainers() throws {
    /// Records the coding path of every container and decoder it opens, three levels deep.
    struct Deep: Decodable {
      enum Key: String, CodingKey { case a, b, c, d }
      var paths: [String] = []
      init(from decoder: any Decoder) throws {
        func record(_ path: [any CodingKey]) {
          self.paths.append(JSONDecodingError.render(path).joined(separator: "."))
        }
        let root = try decoder.container(keyedBy: Key.self)
        let a = try root.nestedContainer(keyedBy: Key.self, forKey: .a)
        record(a.codingPath)
        let b = try a.nestedContainer(keyedBy: Key.self, forKey: .b)
        record(b.codingPath)
        var c = try b.nestedUnkeyedContainer(forKey: .c)
        record(c.codingPath)
        let element = try c.nestedContainer(keyedBy: Key.self)
        record(element.codingPath)
        record(try element.superDecoder(forKey: .d).codingPath)
        record(try element.superDecoder().codingPath)
        var inner = try c.nestedUnkeyedContainer()
        record(inner.codingPath)
        _ = try inner.decode(Int.self)
        _ = try inner.decode(String.self)
      }
    }
    let json = try JSON(parsing: #"{"a":{"b":{"c":[{"d":1},[1,"s"]]}}}"#)
    #expect(
      try JSONValueDecoder().decode(Deep.self, from: json).paths == [
        "a", "a.b", "a.b.c", "a.b.c.0", "a.b.c.0.d", "a.b.c.0.super", "a.b.c.1",
      ])
    #expect(
      try self.decodingError(Deep.self, #"{"a":{"b":{"c":[{"d":1},[1,2]]}}}"#)
        == "a.b.c.1.1: expected string, found number")
  }

  @Test func looksUpLargeNestedObjectsInTheirOwnIndex() throws {
    /// Any name.
    struct NameKey: CodingKey {
      var stringValue: String
      init(_ name: String) { self.stringValue = name }
      init(stringValue: String) { self.stringValue = stringValue }
      var intValue: Int? { nil }
      init?(intValue: Int) { nil }
    }
    /// Reads one member of the large root, then one of each of two large nested objects.
    struct Wide: Decodable {
      var values: [Int]
      init(from decoder: any Decoder) throws {
        let root = try decoder.container(keyedBy: NameKey.self)
        let a = try root.nestedContainer(keyedBy: NameKey.self, forKey: NameKey("a"))
        let b = try root.nestedContainer(keyedBy: NameKey.self, forKey: NameKey("b"))
        self.values = [
          try root.decode(Int.self, forKey: NameKey("r3")),
          try a.decode(Int.self, forKey: NameKey("k5")),
          try b.decode(Int.self, forKey: NameKey("m7")),
          try a.decode(Int.self, forKey: NameKey("k19")),
        ]
      }
    }
    func members(_ prefix: String, _ offset: Int) -> String {
      (0..<20).map { "\"\(prefix)\($0)\":\($0 + offset)" }.joined(separator: ",")
    }
    let text = "{\(members("r", 0)),\"a\":{\(members("k", 0))},\"b\":{\(members("m", 100))}}"
    #expect(try JSONValueDecoder().decode(Wide.self, from: JSON(parsing: text)).values == [3, 5, 107, 19])
  }

  @Test func readsAllKeysOfEveryKeyType() throws {
    /// Any name is a key, lower-cased: larger than a byte, so never shared between decodes.
    struct LooseKey: CodingKey {
      var stringValue: String
      init(stringValue: String) { self.stringValue = stringValue.lowercased() }
      var intValue: Int? { nil }
      init?(intValue: Int) { nil }
    }
    /// One byte, with a catch-all case whose name differs from the names it accepts.
    enum SmallKey: CodingKey {
      case known, other
      init?(stringValue: String) { self = stringValue == "known" ? .known : .other }
      var stringValue: String { self == .known ? "known" : "other" }
      init?(intValue: Int) { nil }
      var intValue: Int? { nil }
    }
    struct Keys: Decodable {
      var loose: [String]
      var small: [String]
      init(from decoder: any Decoder) throws {
        self.loose = try decoder.container(keyedBy: LooseKey.self).allKeys.map(\.stringValue)
        self.small = try decoder.container(keyedBy: SmallKey.self).allKeys.map(\.stringValue)
      }
    }
    // Twice each, so that the second decode may use what the first one remembered.
    for _ in 0..<2 {
      for (text, loose, small) in [
        (#"{"Known":1}"#, ["known"], ["other"]), (#"{"known":1}"#, ["known"], ["known"]),
        (#"{"zzz":1}"#, ["zzz"], ["other"]), (#"{"known":1,"B":2}"#, ["known", "b"], ["known", "other"]),
      ] {
        let keys = try JSONValueDecoder().decode(Keys.self, from: JSON(parsing: text))
        #expect(keys.loose == loose && keys.small == small, "\(text)")
      }
    }
    // Two enums with a case of the same name keep their own keys.
    enum Left: Codable, Equatable { case same, left }
    enum Right: Codable, Equatable { case right, same(Int) }
    for _ in 0..<2 {
      #expect(try JSONValueDecoder().decode(Left.self, from: JSON(parsing: #"{"same":{}}"#)) == .same)
      #expect(
        try JSONValueDecoder().decode(Right.self, from: JSON(parsing: #"{"same":{"_0":1}}"#))
          == .same(1))
    }
  }

  @Test func mapsErrorsFromCustomCode() throws {
    struct Strict: Decodable {
      init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "too strict")
      }
    }
    struct Wrapper: Decodable { var inner: [Strict] }
    #expect(try self.decodingError(Wrapper.self, #"{"inner":[1]}"#) == "inner.0: too strict")
  }
}
