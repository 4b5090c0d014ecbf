#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Converts `Encodable` values to ``JSON`` directly, without producing text.
///
/// The shapes are those of Foundation's `JSONEncoder` with its default strategies, so values
/// written here decode with `JSONDecoder` and vice versa:
///
/// ```swift
/// enum Action: Codable { case incrementButtonTapped, set(Int) }
/// try JSONValueEncoder().encode(Action.set(5))   // {"set":{"_0":5}}
/// try JSONValueEncoder().encode(Action.incrementButtonTapped)   // {"incrementButtonTapped":{}}
/// ```
///
/// - `nil` optionals are omitted by `encodeIfPresent` (what synthesized conformances use) and
///   written as `null` elsewhere.
/// - `Date` is its `timeIntervalSinceReferenceDate` (`deferredToDate`), `Data` a Base64
///   string, `URL` its `absoluteString`, `UUID` its `uuidString`, `Decimal` a number.
/// - Integers of every width become ``JSON/int(_:)``; an unsigned value above `Int64.max`
///   cannot be represented exactly and throws.
/// - `Float` and `Double` become ``JSON/double(_:)``; infinities and NaN throw, as with
///   `JSONEncoder`'s default `nonConformingFloatEncodingStrategy`.
/// - Repeated keys in one container keep the first position and the last value.
public struct JSONValueEncoder: Sendable {
  /// Values made available to `encode(to:)` implementations through `Encoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

  /// An encoder with Foundation's default shapes.
  public init() {}

  /// The JSON form of `value`.
  ///
  /// - Parameter value: The value to convert.
  /// - Returns: Its JSON value.
  /// - Throws: `EncodingError.invalidValue` for non-finite floating-point numbers, unsigned
  ///   integers above `Int64.max`, and a top-level value that encodes nothing.
  public func encode<T: Encodable>(_ value: T) throws -> JSON {
    let encoder = ValueEncoder(parent: nil, key: nil, userInfo: self.userInfo)
    let encoded = try encoder.box(value)
    guard let encoded else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
    }
    return encoded.resolved()
  }
}

// MARK: - Storage under construction

/// A value being encoded: finished, or a container that nested encoders may still fill.
enum PendingValue {
  case value(JSON)
  case array(PendingArray)
  case object(PendingObject)
  /// A nested or super encoder whose result is read once encoding ends.
  case encoder(ValueEncoder)

  /// The finished JSON value.
  func resolved() -> JSON {
    switch self {
    case .value(let value): return value
    case .array(let array): return .array(array.elements.map { $0.resolved() })
    case .object(let object):
      var members: [JSONObject.Member] = []
      members.reserveCapacity(object.members.count)
      for member in object.members {
        members.append(JSONObject.Member(key: member.key, value: member.value.resolved()))
      }
      return .object(JSONObject(uniqueMembers: members))
    case .encoder(let encoder):
      // Foundation writes an encoder that encoded nothing as an empty object.
      return encoder.storage?.resolved() ?? .object(JSONObject())
    }
  }
}

/// An array under construction, shared by reference with the containers writing into it.
final class PendingArray {
  @exclusivity(unchecked) var elements: [PendingValue] = []
}

/// An object under construction: keys in order, kept unique.
final class PendingObject {
  // Only the thread running one `encode` call touches these: skip dynamic exclusivity checks.
  @exclusivity(unchecked) var members: [Member] = []

  /// One key and its value; a struct so that one array (one allocation) holds both.
  struct Member {
    var key: String
    var value: PendingValue
  }
  /// Built once the object is large enough that a linear search for repeats would hurt.
  private var index: [String: Int]?

  /// Sets `key` to `value`, appending new keys.
  func set(_ key: String, _ value: PendingValue) {
    if let position = self.position(of: key) {
      self.members[position].value = value
      return
    }
    self.index?[key] = self.members.count
    self.members.append(Member(key: key, value: value))
  }

  /// The value already stored for `key`.
  func value(for key: String) -> PendingValue? {
    self.position(of: key).map { self.members[$0].value }
  }

  private func position(of key: String) -> Int? {
    if let index = self.index { return index[key] }
    if self.members.count < 16 { return self.members.firstIndex { $0.key == key } }
    var index: [String: Int] = [:]
    for (position, member) in self.members.enumerated() { index[member.key] = position }
    self.index = index
    return index[key]
  }
}

// MARK: - Encoder

/// The `Encoder` handed to `encode(to:)`; one per nested value.
///
/// > Important: Not `Sendable`: it lives only for one `JSONValueEncoder.encode` call on one
/// > task.
final class ValueEncoder: Encoder {
  /// Unowned: a parent holds its children (through `storage`), so a strong reference back
  /// would leak every nested encoder. Children never outlive the `encode` call that made them.
  unowned let parent: ValueEncoder?
  let key: (any CodingKey)?
  let sendableUserInfo: [CodingUserInfoKey: any Sendable]
  /// What this encoder has produced so far. Only the single thread running `encode` touches
  /// it, so the dynamic exclusivity check is skipped.
  @exclusivity(unchecked) var storage: PendingValue?

  init(parent: ValueEncoder?, key: (any CodingKey)?, userInfo: [CodingUserInfoKey: any Sendable]) {
    self.parent = parent
    self.key = key
    self.sendableUserInfo = userInfo
  }

  var userInfo: [CodingUserInfoKey: Any] { self.sendableUserInfo }

  /// Walks up the parents only when asked, which is rare (errors, custom code).
  var codingPath: [any CodingKey] {
    var path: [any CodingKey] = []
    var current: ValueEncoder? = self
    while let encoder = current, let key = encoder.key {
      path.append(key)
      current = encoder.parent
    }
    return path.reversed()
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let object: PendingObject
    if case .object(let existing)? = self.storage {
      object = existing
    } else {
      object = PendingObject()
      self.storage = .object(object)
    }
    return KeyedEncodingContainer(KeyedValueEncodingContainer<Key>(encoder: self, object: object))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let array: PendingArray
    if case .array(let existing)? = self.storage {
      array = existing
    } else {
      array = PendingArray()
      self.storage = .array(array)
    }
    return UnkeyedValueEncodingContainer(encoder: self, array: array)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  /// A child encoder for the value at `key` below this one.
  func child(_ key: any CodingKey) -> ValueEncoder {
    ValueEncoder(parent: self, key: key, userInfo: self.sendableUserInfo)
  }

  // MARK: Boxing

  /// The pending form of `value`, or `nil` when it encoded nothing.
  func box<T: Encodable>(_ value: T) throws -> PendingValue? {
    if let special = try self.boxSpecial(value, path: { self.codingPath }) {
      return .value(special)
    }
    try value.encode(to: self)
    return self.storage
  }

  /// The pending form of `value` stored at `key` below this encoder.
  func box<T: Encodable>(_ value: T, at key: any CodingKey) throws -> PendingValue {
    if let special = try self.boxSpecial(value, path: { self.codingPath + [key] }) {
      return .value(special)
    }
    let child = self.child(key)
    try value.encode(to: child)
    return child.storage ?? .value(.object(JSONObject()))
  }

  /// Foundation's special cases, and primitives reached through generic code.
  private func boxSpecial<T: Encodable>(
    _ value: T, path: () -> [any CodingKey]
  ) throws -> JSON? {
    // Metatype comparisons are pointer compares; the casts run only on a match.
    if T.self == String.self { return .string(value as! String) }
    if T.self == Int.self { return .int(Int64(value as! Int)) }
    if T.self == Bool.self { return .bool(value as! Bool) }
    if T.self == Double.self { return try Self.box(value as! Double, path: path) }
    if T.self == Date.self {
      return .double((value as! Date).timeIntervalSinceReferenceDate)
    }
    if T.self == Data.self { return .string((value as! Data).base64EncodedString()) }
    if T.self == URL.self { return .string((value as! URL).absoluteString) }
    if T.self == Decimal.self { return Self.box(value as! Decimal) }
    if T.self == UUID.self { return .string(Self.uuidString(value as! UUID)) }
    return nil
  }

  /// `uuid.uuidString` (upper-case hex, 8-4-4-4-12), written directly: Foundation formats it
  /// through `snprintf`, ~1.7 µs a UUID here, which dominated encoding an identified array.
  static func uuidString(_ uuid: UUID) -> String {
    let digits: StaticString = "0123456789ABCDEF"
    return withUnsafeBytes(of: uuid.uuid) { bytes in
      String(unsafeUninitializedCapacity: 36) { output in
        var at = 0
        for (index, byte) in bytes.enumerated() {
          if index == 4 || index == 6 || index == 8 || index == 10 {
            output[at] = UInt8(ascii: "-")
            at += 1
          }
          output[at] = digits.utf8Start[Int(byte >> 4)]
          output[at + 1] = digits.utf8Start[Int(byte & 0x0F)]
          at += 2
        }
        return at
      }
    }
  }

  static func box(_ value: Double, path: () -> [any CodingKey]) throws -> JSON {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: path(),
          debugDescription: "Unable to encode Double.\(value) directly in JSON."))
    }
    return .double(value)
  }

  static func box(_ value: Float, path: () -> [any CodingKey]) throws -> JSON {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: path(),
          debugDescription: "Unable to encode Float.\(value) directly in JSON."))
    }
    // Through the shortest decimal text, so 0.1 as Float is 0.1, not 0.10000000149011612.
    return .double(Double(value.description) ?? Double(value))
  }

  static func box<I: FixedWidthInteger>(_ value: I, path: () -> [any CodingKey]) throws -> JSON {
    guard let exact = Int64(exactly: value) else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: path(),
          debugDescription: "\(I.self) value \(value) is above Int64.max, the largest exact "
            + "JSON integer here."))
    }
    return .int(exact)
  }

  static func box(_ value: Decimal) -> JSON {
    let text = value.description
    if let int = Int64(text) { return .int(int) }
    return .double(Double(text) ?? 0)
  }
}

extension ValueEncoder: SingleValueEncodingContainer {
  func encodeNil() { self.storage = .value(.null) }
  func encode(_ value: Bool) { self.storage = .value(.bool(value)) }
  func encode(_ value: String) { self.storage = .value(.string(value)) }
  func encode(_ value: Double) throws {
    self.storage = .value(try Self.box(value) { self.codingPath })
  }
  func encode(_ value: Float) throws {
    self.storage = .value(try Self.box(value) { self.codingPath })
  }
  func encode(_ value: Int) { self.storage = .value(.int(Int64(value))) }
  func encode(_ value: Int8) { self.storage = .value(.int(Int64(value))) }
  func encode(_ value: Int16) { self.storage = .value(.int(Int64(value))) }
  func encode(_ value: Int32) { self.storage = .value(.int(Int64(value))) }
  func encode(_ value: Int64) { self.storage = .value(.int(value)) }
  func encode(_ value: UInt) throws {
    self.storage = .value(try Self.box(value) { self.codingPath })
  }
  func encode(_ value: UInt8) { self.storage = .value(.int(Int64(value))) }
  func encode(_ value: UInt16) { self.storage = .value(.int(Int64(value))) }
  func encode(_ value: UInt32) { self.storage = .value(.int(Int64(value))) }
  func encode(_ value: UInt64) throws {
    self.storage = .value(try Self.box(value) { self.codingPath })
  }
  func encode<T: Encodable>(_ value: T) throws {
    self.storage = try self.box(value)
  }
}

// MARK: - Containers

/// Writes keyed values into a ``PendingObject``.
struct KeyedValueEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: ValueEncoder
  let object: PendingObject

  var codingPath: [any CodingKey] { self.encoder.codingPath }

  private func set(_ value: JSON, _ key: Key) { self.object.set(key.stringValue, .value(value)) }
  private func path(_ key: Key) -> () -> [any CodingKey] { { self.encoder.codingPath + [key] } }

  mutating func encodeNil(forKey key: Key) { self.set(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) { self.set(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) { self.set(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    self.set(try ValueEncoder.box(value, path: self.path(key)), key)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    self.set(try ValueEncoder.box(value, path: self.path(key)), key)
  }
  mutating func encode(_ value: Int, forKey key: Key) { self.set(.int(Int64(value)), key) }
  mutating func encode(_ value: Int8, forKey key: Key) { self.set(.int(Int64(value)), key) }
  mutating func encode(_ value: Int16, forKey key: Key) { self.set(.int(Int64(value)), key) }
  mutating func encode(_ value: Int32, forKey key: Key) { self.set(.int(Int64(value)), key) }
  mutating func encode(_ value: Int64, forKey key: Key) { self.set(.int(value), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    self.set(try ValueEncoder.box(value, path: self.path(key)), key)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) { self.set(.int(Int64(value)), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) { self.set(.int(Int64(value)), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) { self.set(.int(Int64(value)), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    self.set(try ValueEncoder.box(value, path: self.path(key)), key)
  }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    self.object.set(key.stringValue, try self.encoder.box(value, at: key))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    self.nestedEncoder(for: key).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    self.nestedEncoder(for: key).unkeyedContainer()
  }

  /// The encoder already nested at `key` (so repeated requests share one container), or a new
  /// one.
  private func nestedEncoder(for key: Key) -> ValueEncoder {
    if case .encoder(let existing)? = self.object.value(for: key.stringValue) { return existing }
    let child = self.encoder.child(key)
    self.object.set(key.stringValue, .encoder(child))
    return child
  }

  mutating func superEncoder() -> any Encoder {
    let key = SuperKey()
    let child = self.encoder.child(key)
    self.object.set(key.stringValue, .encoder(child))
    return child
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    let child = self.encoder.child(key)
    self.object.set(key.stringValue, .encoder(child))
    return child
  }
}

/// Appends values to a ``PendingArray``.
struct UnkeyedValueEncodingContainer: UnkeyedEncodingContainer {
  let encoder: ValueEncoder
  let array: PendingArray

  var codingPath: [any CodingKey] { self.encoder.codingPath }
  var count: Int { self.array.elements.count }

  private var nextKey: IndexKey { IndexKey(self.array.elements.count) }
  private func append(_ value: JSON) { self.array.elements.append(.value(value)) }
  private var path: () -> [any CodingKey] {
    let key = self.nextKey
    return { self.encoder.codingPath + [key] }
  }

  mutating func encodeNil() { self.append(.null) }
  mutating func encode(_ value: Bool) { self.append(.bool(value)) }
  mutating func encode(_ value: String) { self.append(.string(value)) }
  mutating func encode(_ value: Double) throws {
    self.append(try ValueEncoder.box(value, path: self.path))
  }
  mutating func encode(_ value: Float) throws {
    self.append(try ValueEncoder.box(value, path: self.path))
  }
  mutating func encode(_ value: Int) { self.append(.int(Int64(value))) }
  mutating func encode(_ value: Int8) { self.append(.int(Int64(value))) }
  mutating func encode(_ value: Int16) { self.append(.int(Int64(value))) }
  mutating func encode(_ value: Int32) { self.append(.int(Int64(value))) }
  mutating func encode(_ value: Int64) { self.append(.int(value)) }
  mutating func encode(_ value: UInt) throws {
    self.append(try ValueEncoder.box(value, path: self.path))
  }
  mutating func encode(_ value: UInt8) { self.append(.int(Int64(value))) }
  mutating func encode(_ value: UInt16) { self.append(.int(Int64(value))) }
  mutating func encode(_ value: UInt32) { self.append(.int(Int64(value))) }
  mutating func encode(_ value: UInt64) throws {
    self.append(try ValueEncoder.box(value, path: self.path))
  }
  mutating func encode<T: Encodable>(_ value: T) throws {
    let boxed = try self.encoder.box(value, at: self.nextKey)
    self.array.elements.append(boxed)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    self.nestedEncoder().container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    self.nestedEncoder().unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { self.nestedEncoder() }

  private func nestedEncoder() -> ValueEncoder {
    let child = self.encoder.child(self.nextKey)
    self.array.elements.append(.encoder(child))
    return child
  }
}

// MARK: - Keys

/// The key of an array element; paths print it as the bare index.
struct IndexKey: CodingKey {
  let index: Int

  init(_ index: Int) { self.index = index }
  init?(stringValue: String) { return nil }
  init?(intValue: Int) { self.index = intValue }

  var stringValue: String { "Index \(self.index)" }
  var intValue: Int? { self.index }
}

/// The key Foundation uses for `superEncoder()` / `superDecoder()`.
struct SuperKey: CodingKey {
  init() {}
  init?(stringValue: String) { guard stringValue == "super" else { return nil } }
  init?(intValue: Int) { return nil }

  var stringValue: String { "super" }
  var intValue: Int? { nil }
}
