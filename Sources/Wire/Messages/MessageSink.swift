/// Receives the members of a message, in order, from ``ProtocolMessage/members(into:)``.
///
/// Two sinks exist: a ``JSONObject`` sets each member, and a byte buffer (`[UInt8]`) appends it
/// as compact JSON text. Keys are passed with the punctuation the text needs around them,
/// `#","id":"#, so that the text sink appends each with one copy; the object sink reads the
/// name from between the quotes.
protocol MessageSink {
  mutating func member(_ key: StaticString, _ value: Int64)
  mutating func member(_ key: StaticString, _ value: String)
  mutating func member(_ key: StaticString, _ value: Bool)
  mutating func member(_ key: StaticString, _ value: JSON)
  /// An array of JSON values, e.g. a patch's operations.
  mutating func member(_ key: StaticString, _ values: [JSON])
  /// An array of scope descriptions, each an object of ``ScopeInfo/members(into:)``.
  mutating func member(_ key: StaticString, _ scopes: [ScopeInfo])
}

extension JSONObject: MessageSink {
  /// The member name inside a key written as `,"name":`.
  private static func name(_ key: StaticString) -> String {
    assert(key.utf8CodeUnitCount >= 4 && key.utf8Start[0] == UInt8(ascii: ","))
    return SmallString.ascii(key.utf8Start + 2, key.utf8CodeUnitCount - 4)
  }

  mutating func member(_ key: StaticString, _ value: Int64) { self[Self.name(key)] = .int(value) }
  mutating func member(_ key: StaticString, _ value: String) {
    self[Self.name(key)] = .string(value)
  }
  mutating func member(_ key: StaticString, _ value: Bool) { self[Self.name(key)] = .bool(value) }
  mutating func member(_ key: StaticString, _ value: JSON) { self[Self.name(key)] = value }
  mutating func member(_ key: StaticString, _ values: [JSON]) {
    self[Self.name(key)] = .array(values)
  }
  mutating func member(_ key: StaticString, _ scopes: [ScopeInfo]) {
    self[Self.name(key)] = .array(scopes.map(\.json))
  }
}

/// Appends each member as compact JSON text.
extension [UInt8]: MessageSink {
  mutating func member(_ key: StaticString, _ value: Int64) {
    JSONByteWriter.member(key, value, into: &self)
  }
  mutating func member(_ key: StaticString, _ value: String) {
    JSONByteWriter.member(key, value, into: &self)
  }
  mutating func member(_ key: StaticString, _ value: Bool) {
    JSONByteWriter.member(key, value, into: &self)
  }
  mutating func member(_ key: StaticString, _ value: JSON) {
    JSONByteWriter.member(key, value, into: &self)
  }
  mutating func member(_ key: StaticString, _ values: [JSON]) {
    JSONByteWriter.append(key, into: &self)
    self.append(UInt8(ascii: "["))
    for (index, value) in values.enumerated() {
      if index > 0 { self.append(UInt8(ascii: ",")) }
      JSONByteWriter.value(value, into: &self)
    }
    self.append(UInt8(ascii: "]"))
  }
  mutating func member(_ key: StaticString, _ scopes: [ScopeInfo]) {
    JSONByteWriter.append(key, into: &self)
    self.append(UInt8(ascii: "["))
    for (index, scope) in scopes.enumerated() {
      if index > 0 { self.append(UInt8(ascii: ",")) }
      // Every member is written after a comma: the first one's becomes the opening brace.
      let start = self.count
      scope.members(into: &self)
      self[start] = UInt8(ascii: "{")
      self.append(UInt8(ascii: "}"))
    }
    self.append(UInt8(ascii: "]"))
  }
}
