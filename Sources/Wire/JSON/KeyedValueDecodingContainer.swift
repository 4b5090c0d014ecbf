/// Reads keyed values from a ``JSONObject``.
struct KeyedValueDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let level: DecodingLevel
  let object: JSONObject
  /// Whether the container was opened with `nestedContainer(keyedBy:forKey:)`, as an enum
  /// case's payload is: a payload of one unlabeled value may be written without its `_0`,
  /// `{"todos":{"element":…}}` for `{"todos":{"_0":{"element":…}}}` (see ``lookup(_:)``).
  let isNested: Bool

  init(level: DecodingLevel, object: JSONObject, isNested: Bool = false) {
    self.level = level
    self.object = object
    self.isNested = isNested
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
    let found: JSON?
    if ValueDecoder.usesIndex(self.object) {
      // `DecodingLevel.nested` gave this container a decoder of its own: the index is this object's.
      found = self.level.decoder.index(of: self.object)[key.stringValue].map {
        self.object.storage[$0].value
      }
    } else {
      found = self.object.value(forKey: key.stringValue)
    }
    if found == nil, self.isNested, !self.object.isEmpty, key.stringValue == "_0",
      Self.isOneUnlabeledValue(Key.self)
    {
      // The payload's one unlabeled value, written in place of its `{"_0":…}` wrapper (`{}`
      // never is: it stays a missing `_0`). Checked only on a miss: no cost otherwise.
      return .object(self.object)
    }
    return found
  }

  /// Whether an enum case's payload keyed by `NestedKey` is one unlabeled value: it has a key
  /// `_0` and no `_1` (a case with labels has no `_0`).
  private static func isOneUnlabeledValue<NestedKey: CodingKey>(_ type: NestedKey.Type) -> Bool {
    NestedKey(stringValue: "_0") != nil && NestedKey(stringValue: "_1") == nil
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
      // A case's one unlabeled value may be written without its `_0`: `{"setStep":2}` reads
      // as `{"setStep":{"_0":2}}` (docs/PROTOCOL.md, *Writing actions*).
      if Self.isOneUnlabeledValue(NestedKey.self) {
        return KeyedDecodingContainer(
          KeyedValueDecodingContainer<NestedKey>(
            level: self.level.nested(value, at: key),
            object: JSONObject(uniqueMembers: [JSONObject.Member(key: "_0", value: value)])))
      }
      throw ValueDecoder.mismatch(
        [String: Any].self, expected: "object", found: value, path: self.codingPath + [key])
    }
    return KeyedDecodingContainer(
      KeyedValueDecodingContainer<NestedKey>(
        level: self.level.nested(value, at: key), object: object, isNested: true))
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    let value = try self.require(key)
    guard case .array(let elements) = value else {
      throw ValueDecoder.mismatch(
        [Any].self, expected: "array", found: value, path: self.codingPath + [key])
    }
    return UnkeyedValueDecodingContainer(
      level: self.level.nested(value, at: key), elements: elements)
  }

  func superDecoder() throws -> any Decoder {
    self.level.child(self.object.value(forKey: "super") ?? .null, at: SuperKey())
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    self.level.child(self.lookup(key) ?? .null, at: key)
  }
}
