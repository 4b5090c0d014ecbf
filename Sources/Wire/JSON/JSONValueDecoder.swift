import Synchronization

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

/// The `Decoder` handed to `init(from:)`; one per value decoded through a `Decodable` type.
///
/// Decoders double as the links of the coding path: each knows its parent and the key (or two,
/// see ``via``) leading from the parent to its value. Containers opened with
/// `nestedContainer(keyedBy:forKey:)` get no decoder of their own; they remember the key in a
/// ``Level`` instead, which saves an allocation per enum case decoded.
///
/// > Important: Not `Sendable`: it lives only for one `JSONValueDecoder.decode` call.
final class ValueDecoder: Decoder {
  let value: JSON
  let parent: ValueDecoder?
  /// The key of the container between `parent` and this value, when that container had no
  /// decoder of its own (`{"set":{"_0":…}}`: `set`, for the decoder of `_0`).
  let via: (any CodingKey)?
  let key: (any CodingKey)?
  let sendableUserInfo: [CodingUserInfoKey: any Sendable]

  init(
    value: JSON, parent: ValueDecoder?, via: (any CodingKey)? = nil, key: (any CodingKey)?,
    userInfo: [CodingUserInfoKey: any Sendable]
  ) {
    self.value = value
    self.parent = parent
    self.via = via
    self.key = key
    self.sendableUserInfo = userInfo
  }

  var userInfo: [CodingUserInfoKey: Any] { self.sendableUserInfo }

  /// Key positions of this decoder's object, built on first use: only for objects large
  /// enough that linear lookups would add up (dictionaries decode every key of the object).
  private var objectIndex: [String: Int]?

  /// Whether containers over `object` look keys up through ``index(of:)``.
  static func usesIndex(_ object: JSONObject) -> Bool { object.count > 16 }

  /// Whether `value` is an object that ``usesIndex(_:)-(JSONObject)``.
  static func usesIndex(_ value: JSON) -> Bool {
    if case .object(let object) = value { return Self.usesIndex(object) }
    return false
  }

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
      if let via = decoder.via { path.append(via) }
      current = decoder.parent
    }
    return path.reversed()
  }

  /// This decoder's own level, for containers over its value.
  var level: Level { Level(decoder: self, nestingKey: nil) }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let object) = self.value else {
      throw Self.mismatch(
        [String: Any].self, expected: "object", found: self.value, path: self.codingPath)
    }
    return KeyedDecodingContainer(KeyedValueDecodingContainer<Key>(level: self.level, object: object))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = self.value else {
      throw Self.mismatch([Any].self, expected: "array", found: self.value, path: self.codingPath)
    }
    return UnkeyedValueDecodingContainer(level: self.level, elements: elements)
  }

  func singleValueContainer() -> any SingleValueDecodingContainer { self }

  // MARK: Unboxing

  /// Decodes this decoder's own value as `type`.
  func unbox<T: Decodable>(_ type: T.Type) throws -> T {
    if Self.isSpecial(type) {
      return try Self.unboxSpecial(
        type, from: self.value, path: { self.codingPath }, otherwise: { try T(from: self) })
    }
    return try T(from: self)
  }

  /// Whether `type` is read by ``unboxSpecial(_:from:path:)`` rather than its `init(from:)`:
  /// primitives reached through generic code, and Foundation's special cases.
  ///
  /// A separate test, so that the common path never handles a `T?` (in unspecialized code,
  /// every use of `Optional<T>` looks its metadata up at run time).
  static func isSpecial<T>(_ type: T.Type) -> Bool {
    // Metatype comparisons are pointer compares.
    T.self == String.self || T.self == Int.self || T.self == Bool.self || T.self == Double.self
      || T.self == Date.self || T.self == Data.self || T.self == URL.self
      || T.self == Decimal.self
  }

  /// Decodes one of the ``isSpecial(_:)`` types; the casts run only on a match. `otherwise`
  /// decodes through `init(from:)`, for the numbers `Decimal(string:)` rejects.
  static func unboxSpecial<T: Decodable>(
    _ type: T.Type, from value: JSON, path: () -> [any CodingKey], otherwise: () throws -> T
  ) throws -> T {
    if T.self == String.self { return try Self.string(value, path) as! T }
    if T.self == Int.self { return try Self.integer(Int.self, value, path) as! T }
    if T.self == Bool.self { return try Self.bool(value, path) as! T }
    if T.self == Double.self { return try Self.double(value, path) as! T }
    if T.self == Date.self {
      return Date(timeIntervalSinceReferenceDate: try Self.double(value, path)) as! T
    }
    if T.self == Data.self {
      let string = try Self.string(value, path)
      guard let data = Data(base64Encoded: string) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(codingPath: path(), debugDescription: "invalid Base64 string"))
      }
      return data as! T
    }
    if T.self == URL.self {
      let string = try Self.string(value, path)
      guard let url = URL(string: string) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(codingPath: path(), debugDescription: "invalid URL '\(string)'"))
      }
      return url as! T
    }
    precondition(T.self == Decimal.self, "unboxSpecial called for \(T.self)")
    let decimal: Decimal?
    switch value {
    case .int(let int): decimal = Decimal(string: String(int))
    case .double(let double): decimal = Decimal(string: double.description)
    default: throw Self.mismatch(Decimal.self, expected: "number", found: value, path: path())
    }
    guard let decimal else { return try otherwise() }
    return decimal as! T
  }

  // MARK: Primitives
  //
  // `path` is only called to build an error; callers pass closure literals, which cost nothing
  // when not called (a non-escaping closure's context lives on the stack).

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
}

extension ValueDecoder: SingleValueDecodingContainer {
  func decodeNil() -> Bool {
    if case .null = self.value { return true }
    return false
  }
  func decode(_ type: Bool.Type) throws -> Bool { try Self.bool(self.value) { self.codingPath } }
  func decode(_ type: String.Type) throws -> String {
    try Self.string(self.value) { self.codingPath }
  }
  func decode(_ type: Double.Type) throws -> Double {
    try Self.double(self.value) { self.codingPath }
  }
  func decode(_ type: Float.Type) throws -> Float { try Self.float(self.value) { self.codingPath } }
  func decode(_ type: Int.Type) throws -> Int { try self.integer(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try self.integer(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try self.integer(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try self.integer(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try self.integer(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try self.integer(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try self.integer(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try self.integer(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try self.integer(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try self.integer(type) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try self.unbox(type) }

  @inline(__always)
  private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
    try Self.integer(type, self.value) { self.codingPath }
  }
}

// MARK: - Containers

/// Where a container sits: below `decoder`, and below `nestingKey` too when the container was
/// opened with `nestedContainer(…forKey:)` and so has no decoder of its own.
struct Level {
  let decoder: ValueDecoder
  let nestingKey: (any CodingKey)?

  var codingPath: [any CodingKey] {
    guard let nestingKey = self.nestingKey else { return self.decoder.codingPath }
    return self.decoder.codingPath + [nestingKey]
  }

  var userInfo: [CodingUserInfoKey: any Sendable] { self.decoder.sendableUserInfo }

  /// The decoder for `value`, found at `key` in this level's container.
  func child(_ value: JSON, at key: any CodingKey) -> ValueDecoder {
    ValueDecoder(
      value: value, parent: self.decoder, via: self.nestingKey, key: key, userInfo: self.userInfo)
  }

  /// The level of a container nested at `key`, holding `value`. Only one key can wait in a
  /// level; below that, the nested container gets a decoder after all. So does an object large
  /// enough to be looked up through an index, since the index is cached in the decoder of
  /// that object's level and must not serve another object.
  func nested(_ value: JSON, at key: any CodingKey) -> Level {
    if self.nestingKey == nil, !ValueDecoder.usesIndex(value) {
      return Level(decoder: self.decoder, nestingKey: key)
    }
    return self.child(value, at: key).level
  }

  /// Decodes `value`, found at `key` in this level's container, as `type`.
  func unbox<T: Decodable>(_ type: T.Type, from value: JSON, at key: any CodingKey) throws -> T {
    if ValueDecoder.isSpecial(type) {
      return try ValueDecoder.unboxSpecial(
        type, from: value, path: { self.codingPath + [key] },
        otherwise: { try T(from: self.child(value, at: key)) })
    }
    return try T(from: self.child(value, at: key))
  }
}

/// Reads keyed values from a ``JSONObject``.
struct KeyedValueDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let level: Level
  let object: JSONObject

  init(level: Level, object: JSONObject) {
    self.level = level
    self.object = object
  }

  var codingPath: [any CodingKey] { self.level.codingPath }

  var allKeys: [Key] {
    // Synthesized enum decoding calls this twice per value, on a one-member object. This code
    // is generic over `Key` and never specialized, so building the array (an `Optional<Key>`
    // from `init(stringValue:)`, array storage) looks up generic metadata at run time, which
    // costs more than taking a finished array from `ResolvedKeys`.
    if self.object.count == 1 {
      let name = self.object.storage[0].key
      if ResolvedKeys.accepts(Key.self) {
        // Checked as `[UInt8]`: a `[Key]?` would need a metadata lookup of its own.
        let stored = ResolvedKeys.stored(Key.self, name)
        if !stored.isEmpty { return unsafeBitCast(stored, to: [Key].self) }
      }
      return Self.resolve(name)
    }
    return Self.resolve(self.object)
  }

  /// `allKeys` of any object. Out of line, so that `allKeys` does not look up the metadata
  /// this needs (for `Key?` at least) on its fast path.
  @inline(never)
  private static func resolve(_ object: JSONObject) -> [Key] {
    // A plain loop: the generic `compactMap` measured far slower here.
    var keys: [Key] = []
    keys.reserveCapacity(object.count)
    for member in object.storage {
      if let key = Key(stringValue: member.key) { keys.append(key) }
    }
    return keys
  }

  /// `allKeys` of an object whose one member is named `name`, remembered when possible.
  @inline(never)
  private static func resolve(_ name: String) -> [Key] {
    guard let key = Key(stringValue: name) else { return [] }
    let keys = [key]
    if ResolvedKeys.accepts(Key.self) && key.stringValue == name {
      ResolvedKeys.remember(keys, name)
    }
    return keys
  }

  private func lookup(_ key: Key) -> JSON? {
    if ValueDecoder.usesIndex(self.object) {
      // `Level.nested` gave this container a decoder of its own: the index is this object's.
      return self.level.decoder.index(of: self.object)[key.stringValue].map {
        self.object.storage[$0].value
      }
    }
    return self.object.value(forKey: key.stringValue)
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

  func contains(_ key: Key) -> Bool { self.lookup(key) != nil }

  func decodeNil(forKey key: Key) throws -> Bool {
    if case .null = try self.require(key) { return true }
    return false
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try ValueDecoder.bool(try self.require(key)) { self.codingPath + [key] }
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try ValueDecoder.string(try self.require(key)) { self.codingPath + [key] }
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try ValueDecoder.double(try self.require(key)) { self.codingPath + [key] }
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try ValueDecoder.float(try self.require(key)) { self.codingPath + [key] }
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try self.integer(type, key) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try self.integer(type, key) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try self.integer(type, key)
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try self.integer(type, key)
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try self.integer(type, key)
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try self.integer(type, key) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try self.integer(type, key)
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try self.integer(type, key)
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try self.integer(type, key)
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try self.integer(type, key)
  }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try self.level.unbox(type, from: try self.require(key), at: key)
  }

  // Inlined so that each caller gets `integer` specialized for its concrete type: this
  // container is generic over `Key`, and the specializer does not reach through it.
  @inline(__always)
  private func integer<I: FixedWidthInteger>(_ type: I.Type, _ key: Key) throws -> I {
    try ValueDecoder.integer(type, try self.require(key)) { self.codingPath + [key] }
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let value = self.lookup(key) else { return nil }
    if case .null = value { return nil }
    return try self.level.unbox(type, from: value, at: key)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let value = try self.require(key)
    guard case .object(let object) = value else {
      throw ValueDecoder.mismatch(
        [String: Any].self, expected: "object", found: value, path: self.codingPath + [key])
    }
    return KeyedDecodingContainer(
      KeyedValueDecodingContainer<NestedKey>(level: self.level.nested(value, at: key), object: object))
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    let value = try self.require(key)
    guard case .array(let elements) = value else {
      throw ValueDecoder.mismatch(
        [Any].self, expected: "array", found: value, path: self.codingPath + [key])
    }
    return UnkeyedValueDecodingContainer(level: self.level.nested(value, at: key), elements: elements)
  }

  func superDecoder() throws -> any Decoder {
    self.level.child(self.object.value(forKey: "super") ?? .null, at: SuperKey())
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    self.level.child(self.lookup(key) ?? .null, at: key)
  }
}

/// Reads array elements in order.
struct UnkeyedValueDecodingContainer: UnkeyedDecodingContainer {
  let level: Level
  let elements: [JSON]
  private(set) var currentIndex = 0

  init(level: Level, elements: [JSON]) {
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
    return KeyedDecodingContainer(KeyedValueDecodingContainer<NestedKey>(level: level, object: object))
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let value = try self.current([Any].self)
    guard case .array(let elements) = value else {
      throw ValueDecoder.mismatch([Any].self, expected: "array", found: value, path: self.currentPath)
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

/// The `allKeys` arrays of one-member objects, per key type and member name, shared by all
/// decodes: synthesized enum decoding asks for them twice per value, and resolving a name
/// afresh costs several run-time metadata lookups.
///
/// Only key types of at most one byte take part: they hold no references, so sharing their
/// values between threads is safe, and they cannot carry state that would make
/// `init(stringValue:)` answer differently next time (synthesized `CodingKeys` enums are
/// such types). A name is remembered only when it is its key's `stringValue`, which bounds
/// the table by the number of keys, whatever names arrive; `limit` bounds it again.
enum ResolvedKeys {
  private struct Name: Hashable {
    let type: ObjectIdentifier
    let name: String
  }

  /// Each array is a `[Key]` for the `Key` named in its entry, stored as `[UInt8]`: arrays
  /// have the same representation whatever their element type, and converting back with
  /// `unsafeBitCast` needs no run-time type lookup, where a cast from `Any` would.
  private static let table = Mutex<[Name: [UInt8]]>([:])
  private static let limit = 4096

  /// Whether `Key`'s arrays may be remembered.
  @inline(__always)
  static func accepts<Key>(_ type: Key.Type) -> Bool { MemoryLayout<Key>.size <= 1 }

  /// The remembered `[Key]` for `name`, still as `[UInt8]`; empty if there is none.
  static func stored<Key>(_ type: Key.Type, _ name: String) -> [UInt8] {
    let entry = Name(type: ObjectIdentifier(Key.self), name: name)
    return Self.table.withLock { $0[entry] } ?? []
  }

  static func remember<Key>(_ keys: [Key], _ name: String) {
    let entry = Name(type: ObjectIdentifier(Key.self), name: name)
    let stored = unsafeBitCast(keys, to: [UInt8].self)
    Self.table.withLock { table in
      if table.count < Self.limit { table[entry] = stored }
    }
  }
}

extension JSONObject {
  /// The value for `key`, like the subscript, but borrowing the members instead of copying
  /// each one (a copy retains its key and value), and comparing lengths before contents.
  func value(forKey key: String) -> JSON? {
    let length = key.utf8.count
    return self.storage.withUnsafeBufferPointer { members in
      for index in members.indices
      where members[index].key.utf8.count == length && members[index].key == key {
        return members[index].value
      }
      return nil
    }
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
