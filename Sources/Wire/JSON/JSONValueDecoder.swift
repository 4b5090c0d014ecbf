#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Converts ``JSON`` values to `Decodable` types directly, without going through text.
///
/// It reads the shapes Foundation's `JSONDecoder` reads with its default strategies (see
/// ``JSONValueEncoder``), and reports failures with the path that failed:
///
/// ```swift
/// do {
///   let action = try JSONValueDecoder().decode(Action.self, from: json)
/// } catch {
///   print(error)   // todo.id: expected string, found number
/// }
/// ```
///
/// Numbers convert when exact: `1.0` decodes as an `Int`, `300` does not fit `Int8`, and any
/// integer or double decodes as `Double`. A missing key and `null` both decode as `nil` for
/// optionals read with `decodeIfPresent`.
public struct JSONValueDecoder: Sendable {
  /// Values made available to `init(from:)` implementations through `Decoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

  /// A decoder with Foundation's default shapes.
  public init() {}

  /// Decodes a value of `type` from `json`.
  ///
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - json: The JSON value to read.
  /// - Returns: The decoded value.
  /// - Throws: ``JSONDecodingError`` naming the path and the reason, for decoding errors from
  ///   this decoder, from synthesized conformances and from custom `init(from:)` code alike.
  public func decode<T: Decodable>(_ type: T.Type, from json: JSON) throws(JSONDecodingError) -> T {
    let decoder = ValueDecoder(value: json, parent: nil, key: nil, userInfo: self.userInfo)
    do {
      return try decoder.unbox(type)
    } catch let error as DecodingError {
      throw JSONDecodingError(error, root: json)
    } catch let error as JSONDecodingError {
      throw error
    } catch {
      throw JSONDecodingError(path: [], reason: "\(error)")
    }
  }
}

// MARK: - Decoder

/// The `Decoder` handed to `init(from:)`; one per nested value.
///
/// > Important: Not `Sendable`: it lives only for one `JSONValueDecoder.decode` call.
final class ValueDecoder: Decoder {
  let value: JSON
  let parent: ValueDecoder?
  let key: (any CodingKey)?
  let sendableUserInfo: [CodingUserInfoKey: any Sendable]

  init(
    value: JSON, parent: ValueDecoder?, key: (any CodingKey)?,
    userInfo: [CodingUserInfoKey: any Sendable]
  ) {
    self.value = value
    self.parent = parent
    self.key = key
    self.sendableUserInfo = userInfo
  }

  var userInfo: [CodingUserInfoKey: Any] { self.sendableUserInfo }

  /// Key positions of this decoder's object, built on first use: only for objects large
  /// enough that linear lookups would add up (dictionaries decode every key of the object).
  private var objectIndex: [String: Int]?

  func index(of object: JSONObject) -> [String: Int] {
    if let index = self.objectIndex { return index }
    var index: [String: Int] = [:]
    index.reserveCapacity(object.count)
    for (position, member) in object.storage.enumerated() { index[member.key] = position }
    self.objectIndex = index
    return index
  }

  /// Walks up the parents only when asked: on errors, or by custom code.
  var codingPath: [any CodingKey] {
    var path: [any CodingKey] = []
    var current: ValueDecoder? = self
    while let decoder = current, let key = decoder.key {
      path.append(key)
      current = decoder.parent
    }
    return path.reversed()
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let object) = self.value else {
      throw self.mismatch(
        [String: Any].self, expected: "object", found: self.value, path: self.codingPath)
    }
    return KeyedDecodingContainer(KeyedValueDecodingContainer<Key>(decoder: self, object: object))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = self.value else {
      throw self.mismatch([Any].self, expected: "array", found: self.value, path: self.codingPath)
    }
    return UnkeyedValueDecodingContainer(decoder: self, elements: elements)
  }

  func singleValueContainer() -> any SingleValueDecodingContainer { self }

  // MARK: Unboxing

  /// Decodes this decoder's own value as `type`.
  func unbox<T: Decodable>(_ type: T.Type) throws -> T {
    if let special = try self.unboxSpecial(type, from: self.value, path: { self.codingPath }) {
      return special
    }
    return try T(from: self)
  }

  /// Decodes `value`, found at `key` below this decoder, as `type`.
  func unbox<T: Decodable>(_ type: T.Type, from value: JSON, at key: any CodingKey) throws -> T {
    if let special = try self.unboxSpecial(type, from: value, path: { self.codingPath + [key] }) {
      return special
    }
    return try T(
      from: ValueDecoder(value: value, parent: self, key: key, userInfo: self.sendableUserInfo))
  }

  /// Primitives reached through generic code, and Foundation's special cases.
  private func unboxSpecial<T: Decodable>(
    _ type: T.Type, from value: JSON, path: () -> [any CodingKey]
  ) throws -> T? {
    // Metatype comparisons are pointer compares; the casts run only on a match.
    if T.self == String.self { return try Self.string(value, path) as? T }
    if T.self == Int.self { return try Self.integer(Int.self, value, path) as? T }
    if T.self == Bool.self { return try Self.bool(value, path) as? T }
    if T.self == Double.self { return try Self.double(value, path) as? T }
    if T.self == Date.self {
      return Date(timeIntervalSinceReferenceDate: try Self.double(value, path)) as? T
    }
    if T.self == Data.self {
      let string = try Self.string(value, path)
      guard let data = Data(base64Encoded: string) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(codingPath: path(), debugDescription: "invalid Base64 string"))
      }
      return data as? T
    }
    if T.self == URL.self {
      let string = try Self.string(value, path)
      guard let url = URL(string: string) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(codingPath: path(), debugDescription: "invalid URL '\(string)'"))
      }
      return url as? T
    }
    if T.self == Decimal.self {
      let decimal: Decimal?
      switch value {
      case .int(let int): decimal = Decimal(string: String(int))
      case .double(let double): decimal = Decimal(string: double.description)
      default: throw Self.mismatch(Decimal.self, expected: "number", found: value, path: path())
      }
      return decimal as? T
    }
    return nil
  }

  // MARK: Primitives

  static func string(_ value: JSON, _ path: () -> [any CodingKey]) throws -> String {
    guard case .string(let string) = value else {
      throw Self.mismatch(String.self, expected: "string", found: value, path: path())
    }
    return string
  }

  static func bool(_ value: JSON, _ path: () -> [any CodingKey]) throws -> Bool {
    guard case .bool(let bool) = value else {
      throw Self.mismatch(Bool.self, expected: "bool", found: value, path: path())
    }
    return bool
  }

  static func double(_ value: JSON, _ path: () -> [any CodingKey]) throws -> Double {
    switch value {
    case .double(let double): return double
    case .int(let int): return Double(int)
    default: throw Self.mismatch(Double.self, expected: "number", found: value, path: path())
    }
  }

  static func float(_ value: JSON, _ path: () -> [any CodingKey]) throws -> Float {
    let double = try Self.double(value, path)
    guard double.magnitude <= Double(Float.greatestFiniteMagnitude) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: path(), debugDescription: "number \(double) does not fit Float"))
    }
    return Float(double)
  }

  static func integer<I: FixedWidthInteger>(
    _ type: I.Type, _ value: JSON, _ path: () -> [any CodingKey]
  ) throws -> I {
    switch value {
    case .int(let int):
      if let exact = I(exactly: int) { return exact }
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: path(), debugDescription: "number \(int) does not fit \(I.self)"))
    case .double(let double):
      if let exact = I(exactly: double) { return exact }
      let reason =
        double == double.rounded(.towardZero)
        ? "number \(double) does not fit \(I.self)" : "number \(double) is not an integer"
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: path(), debugDescription: reason))
    default:
      throw Self.mismatch(I.self, expected: "integer", found: value, path: path())
    }
  }

  /// `typeMismatch` (or `valueNotFound` for `null`) with a reason like
  /// `expected string, found number`.
  static func mismatch(
    _ type: Any.Type, expected: String, found value: JSON, path: [any CodingKey]
  ) -> DecodingError {
    let context = DecodingError.Context(
      codingPath: path, debugDescription: "expected \(expected), found \(value.kindName)")
    if case .null = value { return .valueNotFound(type, context) }
    return .typeMismatch(type, context)
  }

  func mismatch(_ type: Any.Type, expected: String, found value: JSON, path: [any CodingKey])
    -> DecodingError
  {
    Self.mismatch(type, expected: expected, found: value, path: path)
  }
}

extension ValueDecoder: SingleValueDecodingContainer {
  private var path: () -> [any CodingKey] { { self.codingPath } }

  func decodeNil() -> Bool {
    if case .null = self.value { return true }
    return false
  }
  func decode(_ type: Bool.Type) throws -> Bool { try Self.bool(self.value, self.path) }
  func decode(_ type: String.Type) throws -> String { try Self.string(self.value, self.path) }
  func decode(_ type: Double.Type) throws -> Double { try Self.double(self.value, self.path) }
  func decode(_ type: Float.Type) throws -> Float { try Self.float(self.value, self.path) }
  func decode(_ type: Int.Type) throws -> Int { try Self.integer(type, self.value, self.path) }
  func decode(_ type: Int8.Type) throws -> Int8 { try Self.integer(type, self.value, self.path) }
  func decode(_ type: Int16.Type) throws -> Int16 { try Self.integer(type, self.value, self.path) }
  func decode(_ type: Int32.Type) throws -> Int32 { try Self.integer(type, self.value, self.path) }
  func decode(_ type: Int64.Type) throws -> Int64 { try Self.integer(type, self.value, self.path) }
  func decode(_ type: UInt.Type) throws -> UInt { try Self.integer(type, self.value, self.path) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try Self.integer(type, self.value, self.path) }
  func decode(_ type: UInt16.Type) throws -> UInt16 {
    try Self.integer(type, self.value, self.path)
  }
  func decode(_ type: UInt32.Type) throws -> UInt32 {
    try Self.integer(type, self.value, self.path)
  }
  func decode(_ type: UInt64.Type) throws -> UInt64 {
    try Self.integer(type, self.value, self.path)
  }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try self.unbox(type) }
}

// MARK: - Containers

/// Reads keyed values from a ``JSONObject``.
struct KeyedValueDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: ValueDecoder
  let object: JSONObject

  init(decoder: ValueDecoder, object: JSONObject) {
    self.decoder = decoder
    self.object = object
  }

  var codingPath: [any CodingKey] { self.decoder.codingPath }

  var allKeys: [Key] {
    // A plain loop: this code is generic over `Key` and never specialized, and the generic
    // `compactMap` measured far slower here (synthesized enum decoding calls this every time).
    var keys: [Key] = []
    keys.reserveCapacity(self.object.count)
    for member in self.object.storage {
      if let key = Key(stringValue: member.key) { keys.append(key) }
    }
    return keys
  }

  private func lookup(_ key: Key) -> JSON? {
    if self.object.count > 16 {
      return self.decoder.index(of: self.object)[key.stringValue].map {
        self.object.storage[$0].value
      }
    }
    return self.object[key.stringValue]
  }

  /// The value at `key`, or `keyNotFound`.
  private func require(_ key: Key) throws -> JSON {
    guard let value = self.lookup(key) else {
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: self.codingPath, debugDescription: "missing key '\(key.stringValue)'"))
    }
    return value
  }

  private func path(_ key: Key) -> () -> [any CodingKey] { { self.decoder.codingPath + [key] } }

  func contains(_ key: Key) -> Bool { self.lookup(key) != nil }

  func decodeNil(forKey key: Key) throws -> Bool {
    if case .null = try self.require(key) { return true }
    return false
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try ValueDecoder.bool(try self.require(key), self.path(key))
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try ValueDecoder.string(try self.require(key), self.path(key))
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try ValueDecoder.double(try self.require(key), self.path(key))
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try ValueDecoder.float(try self.require(key), self.path(key))
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try ValueDecoder.integer(type, try self.require(key), self.path(key))
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try ValueDecoder.integer(type, try self.require(key), self.path(key))
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try ValueDecoder.integer(type, try self.require(key), self.path(key))
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try ValueDecoder.integer(type, try self.require(key), self.path(key))
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try ValueDecoder.integer(type, try self.require(key), self.path(key))
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try ValueDecoder.integer(type, try self.require(key), self.path(key))
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try ValueDecoder.integer(type, try self.require(key), self.path(key))
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try ValueDecoder.integer(type, try self.require(key), self.path(key))
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try ValueDecoder.integer(type, try self.require(key), self.path(key))
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try ValueDecoder.integer(type, try self.require(key), self.path(key))
  }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try self.decoder.unbox(type, from: try self.require(key), at: key)
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let value = self.lookup(key) else { return nil }
    if case .null = value { return nil }
    return try self.decoder.unbox(type, from: value, at: key)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try self.childDecoder(try self.require(key), key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try self.childDecoder(try self.require(key), key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    self.childDecoder(self.object["super"] ?? .null, SuperKey())
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    self.childDecoder(self.lookup(key) ?? .null, key)
  }

  private func childDecoder(_ value: JSON, _ key: any CodingKey) -> ValueDecoder {
    ValueDecoder(
      value: value, parent: self.decoder, key: key, userInfo: self.decoder.sendableUserInfo)
  }
}

/// Reads array elements in order.
struct UnkeyedValueDecodingContainer: UnkeyedDecodingContainer {
  let decoder: ValueDecoder
  let elements: [JSON]
  private(set) var currentIndex = 0

  init(decoder: ValueDecoder, elements: [JSON]) {
    self.decoder = decoder
    self.elements = elements
  }

  var codingPath: [any CodingKey] { self.decoder.codingPath }
  var count: Int? { self.elements.count }
  var isAtEnd: Bool { self.currentIndex >= self.elements.count }

  private var path: () -> [any CodingKey] {
    let key = IndexKey(self.currentIndex)
    return { self.decoder.codingPath + [key] }
  }

  /// The current element, or `valueNotFound` past the end.
  private func current<T>(_ type: T.Type) throws -> JSON {
    guard !self.isAtEnd else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: self.decoder.codingPath + [IndexKey(self.currentIndex)],
          debugDescription: "array has only \(self.elements.count) elements"))
    }
    return self.elements[self.currentIndex]
  }

  /// Decodes the current element with `read` and moves past it only on success.
  private mutating func next<T>(_ read: (JSON, () -> [any CodingKey]) throws -> T) throws -> T {
    let value = try read(try self.current(T.self), self.path)
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
    let value = try self.decoder.unbox(
      type, from: try self.current(type), at: IndexKey(self.currentIndex))
    self.currentIndex += 1
    return value
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let container = try self.childDecoder(try self.current([String: Any].self)).container(
      keyedBy: type)
    self.currentIndex += 1
    return container
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let container = try self.childDecoder(try self.current([Any].self)).unkeyedContainer()
    self.currentIndex += 1
    return container
  }

  mutating func superDecoder() throws -> any Decoder {
    let decoder = self.childDecoder(try self.current(Any.self))
    self.currentIndex += 1
    return decoder
  }

  private func childDecoder(_ value: JSON) -> ValueDecoder {
    ValueDecoder(
      value: value, parent: self.decoder, key: IndexKey(self.currentIndex),
      userInfo: self.decoder.sendableUserInfo)
  }
}

extension JSON {
  /// The name of this value's JSON type, for error messages.
  var kindName: String {
    switch self {
    case .null: return "null"
    case .bool: return "bool"
    case .int, .double: return "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    }
  }
}
