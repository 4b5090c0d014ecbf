/// The decoder a ``ShapeProbe`` hands to `init(from:)`: it records every container and member
/// asked for in a ``ProbeRecord`` and answers with sample values — `""`-like strings, zeros,
/// `false`, one element per array, `nil` for members read with `decodeIfPresent` — so that the
/// initializer goes on to its next member.
struct ProbeDecoder: Decoder {
  let probe: ShapeProbe
  let record: ProbeRecord
  let codingPath: [any CodingKey]
  /// The key the keyed container answers `allKeys` with: the enum case being probed.
  var selecting: (any CodingKey)?

  init(
    probe: ShapeProbe, record: ProbeRecord, codingPath: [any CodingKey],
    selecting: (any CodingKey)? = nil
  ) {
    self.probe = probe
    self.record = record
    self.codingPath = codingPath
    self.selecting = selecting
  }

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    if self.record.container == .none { self.record.container = .keyed }
    return KeyedDecodingContainer(
      ProbeKeyedContainer<Key>(
        probe: self.probe, record: self.record, codingPath: self.codingPath,
        selecting: self.selecting))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    if self.record.container == .none { self.record.container = .unkeyed }
    return ProbeUnkeyedContainer(probe: self.probe, record: self.record, codingPath: self.codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    if self.record.container == .none { self.record.container = .single }
    return ProbeSingleValueContainer(probe: self.probe, record: self.record, codingPath: self.codingPath)
  }
}

extension ShapeProbe {
  /// A sample of `type` for a container to return, recording its shape with `record`;
  /// throws when none could be made (the initializer asking stops there, as it would on bad
  /// input).
  func sample<T: Decodable>(
    _ type: T.Type, codingPath: [any CodingKey], record: (JSONShape) -> Void
  ) throws -> T {
    let (shape, value) = self.probe(type)
    record(shape)
    guard let value else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: codingPath, debugDescription: "no sample value"))
    }
    return value
  }
}

/// The keyed container of a probe.
struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let probe: ShapeProbe
  let record: ProbeRecord
  let codingPath: [any CodingKey]
  let selecting: (any CodingKey)?

  var allKeys: [Key] {
    if let selecting {
      return (selecting as? Key).map { [$0] } ?? []
    }
    if let cases = NoPayloadEnum.cases(of: Key.self) {
      // An enum dispatching on its one key: the probe runs it again for each case.
      self.record.dispatchKeys = cases
      return []
    }
    // Keys that are not listed up front: a dictionary. One sample key shows its values.
    self.record.isDictionary = true
    return Key(stringValue: "key").map { [$0] } ?? []
  }

  func contains(_ key: Key) -> Bool {
    guard let selecting else { return true }
    return selecting.stringValue == key.stringValue
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    self.record.nullableKeys.insert(key.stringValue)
    return false
  }

  private func primitive<T>(_ type: T.Type, _ key: Key) throws -> T {
    guard let (shape, value) = ShapeProbe.primitive(type), let value else {
      throw DecodingError.dataCorrupted(.init(codingPath: self.codingPath, debugDescription: ""))
    }
    self.record.add(key.stringValue, .shape(shape), optional: false)
    return value
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try self.primitive(type, key) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try self.primitive(type, key) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try self.primitive(type, key) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try self.primitive(type, key) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try self.primitive(type, key) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try self.primitive(type, key) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try self.primitive(type, key) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try self.primitive(type, key) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try self.primitive(type, key) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try self.primitive(type, key) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try self.primitive(type, key) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try self.primitive(type, key) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try self.primitive(type, key) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try self.primitive(type, key) }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try self.probe.sample(type, codingPath: self.codingPath + [key]) {
      self.record.add(key.stringValue, .shape($0), optional: false)
    }
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    // Recorded as optional; `nil` is always a valid answer.
    let (shape, _) = self.probe.probe(type)
    self.record.add(key.stringValue, .shape(shape), optional: true)
    return nil
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let nested = ProbeRecord()
    nested.container = .keyed
    self.record.add(key.stringValue, .record(nested), optional: false)
    return KeyedDecodingContainer(
      ProbeKeyedContainer<NestedKey>(
        probe: self.probe, record: nested, codingPath: self.codingPath + [key], selecting: nil))
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    let nested = ProbeRecord()
    nested.container = .unkeyed
    self.record.add(key.stringValue, .record(nested), optional: false)
    return ProbeUnkeyedContainer(probe: self.probe, record: nested, codingPath: self.codingPath + [key])
  }

  func superDecoder() throws -> any Decoder {
    let nested = ProbeRecord()
    self.record.add("super", .record(nested), optional: false)
    return ProbeDecoder(probe: self.probe, record: nested, codingPath: self.codingPath)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    let nested = ProbeRecord()
    self.record.add(key.stringValue, .record(nested), optional: false)
    return ProbeDecoder(probe: self.probe, record: nested, codingPath: self.codingPath + [key])
  }
}

/// The unkeyed container of a probe: it holds one element, so that the element's shape is
/// recorded and loops end.
struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
  let probe: ShapeProbe
  let record: ProbeRecord
  let codingPath: [any CodingKey]
  private(set) var currentIndex = 0

  init(probe: ShapeProbe, record: ProbeRecord, codingPath: [any CodingKey]) {
    self.probe = probe
    self.record = record
    self.codingPath = codingPath
  }

  var count: Int? { 1 }
  var isAtEnd: Bool { self.currentIndex >= 1 }

  private func checkNotAtEnd() throws {
    guard !self.isAtEnd else {
      throw DecodingError.valueNotFound(
        Any.self, .init(codingPath: self.codingPath, debugDescription: "at end"))
    }
  }

  mutating func decodeNil() throws -> Bool {
    self.record.nullableElements = true
    return false
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try self.next(type) }
  mutating func decode(_ type: String.Type) throws -> String { try self.next(type) }
  mutating func decode(_ type: Double.Type) throws -> Double { try self.next(type) }
  mutating func decode(_ type: Float.Type) throws -> Float { try self.next(type) }
  mutating func decode(_ type: Int.Type) throws -> Int { try self.next(type) }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try self.next(type) }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try self.next(type) }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try self.next(type) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try self.next(type) }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try self.next(type) }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try self.next(type) }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try self.next(type) }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try self.next(type) }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try self.next(type) }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try self.next(type) }

  private mutating func next<T: Decodable>(_ type: T.Type) throws -> T {
    try self.checkNotAtEnd()
    let record = self.record
    let value = try self.probe.sample(type, codingPath: self.codingPath) { shape in
      if record.element == nil { record.element = .shape(shape) }
    }
    self.currentIndex += 1
    return value
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try self.checkNotAtEnd()
    let nested = ProbeRecord()
    nested.container = .keyed
    if self.record.element == nil { self.record.element = .record(nested) }
    self.currentIndex += 1
    return KeyedDecodingContainer(
      ProbeKeyedContainer<NestedKey>(
        probe: self.probe, record: nested, codingPath: self.codingPath, selecting: nil))
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try self.checkNotAtEnd()
    let nested = ProbeRecord()
    nested.container = .unkeyed
    if self.record.element == nil { self.record.element = .record(nested) }
    self.currentIndex += 1
    return ProbeUnkeyedContainer(probe: self.probe, record: nested, codingPath: self.codingPath)
  }

  mutating func superDecoder() throws -> any Decoder {
    try self.checkNotAtEnd()
    let nested = ProbeRecord()
    if self.record.element == nil { self.record.element = .record(nested) }
    self.currentIndex += 1
    return ProbeDecoder(probe: self.probe, record: nested, codingPath: self.codingPath)
  }
}

/// The single-value container of a probe.
struct ProbeSingleValueContainer: SingleValueDecodingContainer {
  let probe: ShapeProbe
  let record: ProbeRecord
  let codingPath: [any CodingKey]

  func decodeNil() -> Bool {
    self.record.isNullable = true
    return false
  }

  func decode(_ type: Bool.Type) throws -> Bool { try self.value(type) }
  func decode(_ type: String.Type) throws -> String { try self.value(type) }
  func decode(_ type: Double.Type) throws -> Double { try self.value(type) }
  func decode(_ type: Float.Type) throws -> Float { try self.value(type) }
  func decode(_ type: Int.Type) throws -> Int { try self.value(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try self.value(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try self.value(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try self.value(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try self.value(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try self.value(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try self.value(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try self.value(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try self.value(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try self.value(type) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try self.value(type) }

  private func value<T: Decodable>(_ type: T.Type) throws -> T {
    let record = self.record
    return try self.probe.sample(type, codingPath: self.codingPath) { shape in
      if record.single == nil { record.single = .shape(shape) }
    }
  }
}
