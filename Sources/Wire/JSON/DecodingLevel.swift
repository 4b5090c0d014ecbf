/// Where a container sits: below `decoder`, and below `nestingKey` too when the container was
/// opened with `nestedContainer(…forKey:)` and so has no decoder of its own.
struct DecodingLevel {
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
  func nested(_ value: JSON, at key: any CodingKey) -> DecodingLevel {
    if self.nestingKey == nil, !ValueDecoder.usesIndex(value) {
      return DecodingLevel(decoder: self.decoder, nestingKey: key)
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
