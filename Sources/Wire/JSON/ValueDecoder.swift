#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The `Decoder` handed to `init(from:)`; one per value decoded through a `Decodable` type.
///
/// Decoders double as the links of the coding path: each knows its parent and the key (or two,
/// see ``via``) leading from the parent to its value. Containers opened with
/// `nestedContainer(keyedBy:forKey:)` get no decoder of their own; they remember the key in a
/// ``DecodingLevel`` instead, which saves an allocation per enum case decoded.
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
  var level: DecodingLevel { DecodingLevel(decoder: self, nestingKey: nil) }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let object) = self.value else {
      throw Self.mismatch(
        [String: Any].self, expected: "object", found: self.value, path: self.codingPath)
    }
    return KeyedDecodingContainer(
      KeyedValueDecodingContainer<Key>(level: self.level, object: object))
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
  /// every use of `Optional<T>` looks its metadata up at run time). Inlined by hand: since the
  /// containers moved to files of their own, the optimizer no longer inlined it into them.
  @inline(__always)
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
