#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
import Wire

/// Converts between Swift values and ``JSON`` in the shapes of the `Codable` conformances the
/// host uses (`JSONEncoder`'s defaults: `{"incrementButtonTapped":{}}`, `{"set":{"_0":5}}`).
///
/// It goes through JSON text with Foundation's coders, off the hot paths: the load generator
/// and the CLI handle ``JSON`` directly and never come here. When Wire's `JSONValueDecoder` /
/// `JSONValueEncoder` land, this is the one place to switch.
enum JSONCoding {
  /// Decodes `json` as a `T`.
  ///
  /// - Throws: ``RemoteError/coding(_:)`` naming the path that did not decode.
  static func decode<T: Decodable>(_ type: T.Type, from json: JSON) throws(RemoteError) -> T {
    do {
      return try JSONDecoder().decode(type, from: Data(json.serialized()))
    } catch let error as DecodingError {
      throw .coding("the state does not decode as \(T.self): \(Self.describe(error))")
    } catch {
      throw .coding("the state does not decode as \(T.self): \(error)")
    }
  }

  /// Encodes `value` as JSON.
  ///
  /// - Throws: ``RemoteError/coding(_:)`` if the value cannot be encoded.
  static func encode<T: Encodable>(_ value: T) throws(RemoteError) -> JSON {
    let data: Data
    do {
      data = try JSONEncoder().encode(value)
    } catch {
      throw .coding("\(T.self) does not encode as JSON: \(error)")
    }
    do {
      return try JSON(parsing: [UInt8](data))
    } catch {
      throw .coding("\(T.self) encodes as invalid JSON: \(error)")
    }
  }

  /// `count: expected Int, found a string` — the coding path joined by dots, then the reason.
  static func describe(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context, _ extra: CodingKey? = nil) -> String {
      let keys = context.codingPath + (extra.map { [$0] } ?? [])
      let text = keys.map { $0.intValue.map(String.init) ?? $0.stringValue }
        .joined(separator: ".")
      return text.isEmpty ? "(top level)" : text
    }
    switch error {
    case .typeMismatch(let type, let context):
      return "\(path(context)): expected \(type) — \(context.debugDescription)"
    case .valueNotFound(let type, let context):
      return "\(path(context)): expected \(type), found null"
    case .keyNotFound(let key, let context):
      return "\(path(context, key)): missing"
    case .dataCorrupted(let context):
      return "\(path(context)): \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }
}
