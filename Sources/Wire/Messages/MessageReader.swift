/// Reads the members of one message object, producing ``MessageError``s that name the message
/// type and the member: `get: 'id' must be an integer`.
struct MessageReader {
  let object: JSONObject
  /// The message `type`, used as the prefix of every error message.
  let type: String
  /// `type.utf8.count`: decoders switch on `(typeLength, type)` so that the string comparison
  /// only runs for names of the right length (unequal Strings compare through a slow path).
  let typeLength: Int
  /// The request's `id` when it is an integer; carried in every error.
  let id: Int64?

  /// Opens a message: the top level must be an object with a string `type`.
  init(_ json: JSON) throws(MessageError) {
    guard case .object(let object) = json else {
      throw MessageError(code: .badJSON, id: nil, message: "top level must be an object")
    }
    self.object = object
    self.id = Self.member("id", of: object).flatMap(Self.integer)
    switch Self.member("type", of: object) {
    case .string(let type):
      self.type = type
      self.typeLength = type.utf8.count
    case nil, .null:
      throw MessageError(code: .badMessage, id: self.id, message: "missing member 'type'")
    default:
      throw MessageError(code: .badMessage, id: self.id, message: "'type' must be a string")
    }
  }

  /// An unknown `type`.
  func unknownType() -> MessageError {
    self.error("unknown message type '\(self.type)'", prefixed: false)
  }

  func error(_ text: String, prefixed: Bool = true) -> MessageError {
    MessageError(code: .badMessage, id: self.id, message: prefixed ? "\(self.type): \(text)" : text)
  }

  func missing(_ name: String) -> MessageError { self.error("missing member '\(name)'") }

  func mistyped(_ name: String, _ expected: String) -> MessageError {
    self.error("'\(name)' must be \(expected)")
  }

  /// The member named `name`; like `object[name]`, but comparing lengths before contents.
  static func member(_ name: String, of object: JSONObject) -> JSON? {
    let length = name.utf8.count
    for (key, value) in object where key.utf8.count == length && key == name {
      return value
    }
    return nil
  }

  /// The member named `name`, if present.
  func member(_ name: String) -> JSON? { Self.member(name, of: self.object) }

  /// A member that must be present (`null` counts as present, for `state` and `action`).
  func value(_ name: String) throws(MessageError) -> JSON {
    guard let value = self.member(name) else { throw self.missing(name) }
    return value
  }

  /// A required integer member.
  func int(_ name: String) throws(MessageError) -> Int64 {
    guard let value = try self.optionalInt(name) else { throw self.missing(name) }
    return value
  }

  /// An optional integer member: absent or `null` is `nil`.
  func optionalInt(_ name: String) throws(MessageError) -> Int64? {
    switch self.member(name) {
    case nil, .null: return nil
    case let value?:
      guard let integer = Self.integer(value) else { throw self.mistyped(name, "an integer") }
      return integer
    }
  }

  /// A required string member.
  func string(_ name: String) throws(MessageError) -> String {
    guard let value = try self.optionalString(name) else { throw self.missing(name) }
    return value
  }

  /// An optional string member: absent or `null` is `nil`.
  func optionalString(_ name: String) throws(MessageError) -> String? {
    switch self.member(name) {
    case nil, .null: return nil
    case .string(let string): return string
    default: throw self.mistyped(name, "a string")
    }
  }

  /// A required array member.
  func array(_ name: String) throws(MessageError) -> [JSON] {
    switch self.member(name) {
    case nil, .null: throw self.missing(name)
    case .array(let array): return array
    default: throw self.mistyped(name, "an array")
    }
  }

  /// The integer value of a JSON number that is a whole number within `Int64`.
  static func integer(_ value: JSON) -> Int64? {
    switch value {
    case .int(let integer): integer
    case .double(let double): Int64(exactly: double)
    default: nil
    }
  }
}
