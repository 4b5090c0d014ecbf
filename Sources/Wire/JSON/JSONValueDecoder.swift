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

// MARK: - Helpers the decoding containers share

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
