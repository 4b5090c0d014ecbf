import Wire

/// Converts between Swift values and ``JSON`` in the shapes of the `Codable` conformances the
/// host uses (`JSONEncoder`'s defaults: `{"incrementButtonTapped":{}}`, `{"set":{"_0":5}}`),
/// with Wire's value coders — no JSON text in between.
enum JSONCoding {
  /// Decodes `json` as a `T`.
  ///
  /// - Throws: ``RemoteError/coding(_:)`` naming the path that did not decode, e.g.
  ///   `the state does not decode as CounterState: count: expected Int`.
  static func decode<T: Decodable>(_ type: T.Type, from json: JSON) throws(RemoteError) -> T {
    do {
      return try JSONValueDecoder().decode(type, from: json)
    } catch {
      throw .coding("the state does not decode as \(T.self): \(error)")
    }
  }

  /// Encodes `value` as JSON.
  ///
  /// - Throws: ``RemoteError/coding(_:)`` if the value cannot be encoded (a non-finite number).
  static func encode<T: Encodable>(_ value: T) throws(RemoteError) -> JSON {
    do {
      return try JSONValueEncoder().encode(value)
    } catch {
      throw .coding("\(T.self) does not encode as JSON: \(error)")
    }
  }
}
