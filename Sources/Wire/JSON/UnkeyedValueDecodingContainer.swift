/// Reads array elements in order.
struct UnkeyedValueDecodingContainer: UnkeyedDecodingContainer {
  let level: DecodingLevel
  let elements: [JSON]
  private(set) var currentIndex = 0

  init(level: DecodingLevel, elements: [JSON]) {
    self.level = level
    self.elements = elements
  }

  var codingPath: [any CodingKey] { self.level.codingPath }
  var count: Int? { self.elements.count }
  var isAtEnd: Bool { self.currentIndex >= self.elements.count }

  /// The path of the current element, for errors.
  private var currentPath: [any CodingKey] {
    self.level.codingPath + [IndexKey(self.currentIndex)]
  }

  /// The current element, or `valueNotFound` past the end.
  private func current<T>(_ type: T.Type) throws -> JSON {
    guard !self.isAtEnd else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: self.currentPath,
          debugDescription: "array has only \(self.elements.count) elements"))
    }
    return self.elements[self.currentIndex]
  }

  /// Decodes the current element with `read` and moves past it only on success.
  private mutating func next<T>(_ read: (JSON, () -> [any CodingKey]) throws -> T) throws -> T {
    let value = try read(try self.current(T.self)) { self.currentPath }
    self.currentIndex += 1
    return value
  }

  mutating func decodeNil() throws -> Bool {
    if case .null = try self.current(Never?.self) {
      self.currentIndex += 1
      return true
    }
    return false
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try self.next(ValueDecoder.bool) }
  mutating func decode(_ type: String.Type) throws -> String { try self.next(ValueDecoder.string) }
  mutating func decode(_ type: Double.Type) throws -> Double { try self.next(ValueDecoder.double) }
  mutating func decode(_ type: Float.Type) throws -> Float { try self.next(ValueDecoder.float) }
  mutating func decode(_ type: Int.Type) throws -> Int {
    try self.next { try ValueDecoder.integer(type, $0, $1) }
  }
  mutating func decode(_ type: Int8.Type) throws -> Int8 {
    try self.next { try ValueDecoder.integer(type, $0, $1) }
  }
  mutating func decode(_ type: Int16.Type) throws -> Int16 {
    try self.next { try ValueDecoder.integer(type, $0, $1) }
  }
  mutating func decode(_ type: Int32.Type) throws -> Int32 {
    try self.next { try ValueDecoder.integer(type, $0, $1) }
  }
  mutating func decode(_ type: Int64.Type) throws -> Int64 {
    try self.next { try ValueDecoder.integer(type, $0, $1) }
  }
  mutating func decode(_ type: UInt.Type) throws -> UInt {
    try self.next { try ValueDecoder.integer(type, $0, $1) }
  }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
    try self.next { try ValueDecoder.integer(type, $0, $1) }
  }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
    try self.next { try ValueDecoder.integer(type, $0, $1) }
  }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
    try self.next { try ValueDecoder.integer(type, $0, $1) }
  }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
    try self.next { try ValueDecoder.integer(type, $0, $1) }
  }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let value = try self.level.unbox(
      type, from: try self.current(type), at: IndexKey(self.currentIndex))
    self.currentIndex += 1
    return value
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let value = try self.current([String: Any].self)
    guard case .object(let object) = value else {
      throw ValueDecoder.mismatch(
        [String: Any].self, expected: "object", found: value, path: self.currentPath)
    }
    let level = self.level.nested(value, at: IndexKey(self.currentIndex))
    self.currentIndex += 1
    return KeyedDecodingContainer(
      KeyedValueDecodingContainer<NestedKey>(level: level, object: object))
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let value = try self.current([Any].self)
    guard case .array(let elements) = value else {
      throw ValueDecoder.mismatch(
        [Any].self, expected: "array", found: value, path: self.currentPath)
    }
    let level = self.level.nested(value, at: IndexKey(self.currentIndex))
    self.currentIndex += 1
    return UnkeyedValueDecodingContainer(level: level, elements: elements)
  }

  mutating func superDecoder() throws -> any Decoder {
    let decoder = self.level.child(try self.current(Any.self), at: IndexKey(self.currentIndex))
    self.currentIndex += 1
    return decoder
  }
}
