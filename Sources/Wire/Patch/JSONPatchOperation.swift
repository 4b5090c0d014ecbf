/// One RFC 6902 JSON Patch operation.
///
/// Its JSON form is an object with an `op` member and the members that operation needs:
///
/// ```swift
/// let op = try JSONPatchOperation(
///   json: .object(["op": .string("add"), "path": .string("/a"), "value": .int(1)]))
/// op == .add(path: try JSONPointer("/a"), value: .int(1))  // true
/// op.json  // {"op":"add","path":"/a","value":1}
/// ```
public enum JSONPatchOperation: Sendable, Hashable {
  /// Inserts `value` at `path`: a new or existing object member, or an array element that
  /// shifts later elements up (`-` appends).
  case add(path: JSONPointer, value: JSON)
  /// Removes the existing value at `path`, shifting later array elements down.
  case remove(path: JSONPointer)
  /// Replaces the existing value at `path` with `value`.
  case replace(path: JSONPointer, value: JSON)
  /// Removes the value at `from` and adds it at `path`.
  case move(from: JSONPointer, path: JSONPointer)
  /// Adds a copy of the value at `from` at `path`.
  case copy(from: JSONPointer, path: JSONPointer)
  /// Fails the patch unless the value at `path` equals `value`.
  case test(path: JSONPointer, value: JSON)

  /// Decodes an operation from its JSON object form.
  ///
  /// Members other than those the operation needs are ignored (RFC 6902 §4).
  ///
  /// - Parameter json: An object such as `{"op":"remove","path":"/a"}`.
  /// - Throws: A ``JSONPatchError`` whose kind is ``JSONPatchError/Kind/operationNotAnObject``,
  ///   ``JSONPatchError/Kind/missingMember(_:)``, ``JSONPatchError/Kind/invalidMember(_:)``,
  ///   ``JSONPatchError/Kind/unknownOperation(_:)`` or
  ///   ``JSONPatchError/Kind/malformedPointer(_:)``.
  public init(json: JSON) throws(JSONPatchError) {
    guard case .object(let object) = json else {
      throw JSONPatchError(.operationNotAnObject)
    }
    let op = try Self.string("op", in: object)
    switch op {
    case "add":
      self = .add(path: try Self.pointer("path", in: object), value: try Self.value(in: object))
    case "remove":
      self = .remove(path: try Self.pointer("path", in: object))
    case "replace":
      self = .replace(
        path: try Self.pointer("path", in: object), value: try Self.value(in: object))
    case "move":
      self = .move(
        from: try Self.pointer("from", in: object), path: try Self.pointer("path", in: object))
    case "copy":
      self = .copy(
        from: try Self.pointer("from", in: object), path: try Self.pointer("path", in: object))
    case "test":
      self = .test(path: try Self.pointer("path", in: object), value: try Self.value(in: object))
    default:
      // Check `path` first, so a malformed operation reports its first missing member.
      _ = try Self.pointer("path", in: object)
      throw JSONPatchError(.unknownOperation(op))
    }
  }

  /// The JSON object form, members in the order `op`, `from`, `path`, `value`.
  public var json: JSON {
    switch self {
    case .add(let path, let value): Self.object("add", path: path, value: value)
    case .remove(let path): Self.object("remove", path: path)
    case .replace(let path, let value): Self.object("replace", path: path, value: value)
    case .move(let from, let path): Self.object("move", from: from, path: path)
    case .copy(let from, let path): Self.object("copy", from: from, path: path)
    case .test(let path, let value): Self.object("test", path: path, value: value)
    }
  }

  /// The location the operation writes to or, for `test`, reads.
  public var path: JSONPointer {
    switch self {
    case .add(let path, _), .remove(let path), .replace(let path, _), .move(_, let path),
      .copy(_, let path), .test(let path, _):
      path
    }
  }

  private static func object(
    _ op: String,
    from: JSONPointer? = nil,
    path: JSONPointer,
    value: JSON? = nil
  ) -> JSON {
    var object: JSONObject = ["op": .string(op)]
    if let from { object["from"] = .string(from.description) }
    object["path"] = .string(path.description)
    if let value { object["value"] = value }
    return .object(object)
  }

  private static func string(_ name: String, in object: JSONObject) throws(JSONPatchError) -> String
  {
    guard let member = object[name] else { throw JSONPatchError(.missingMember(name)) }
    guard case .string(let string) = member else { throw JSONPatchError(.invalidMember(name)) }
    return string
  }

  private static func pointer(
    _ name: String,
    in object: JSONObject
  ) throws(JSONPatchError) -> JSONPointer {
    try JSONPointer(try self.string(name, in: object))
  }

  private static func value(in object: JSONObject) throws(JSONPatchError) -> JSON {
    // `"value": null` is present and valid; only an absent member is an error.
    guard let value = object["value"] else { throw JSONPatchError(.missingMember("value")) }
    return value
  }
}
