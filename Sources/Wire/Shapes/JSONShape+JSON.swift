extension JSONShape {
  /// The shape as JSON, as a host sends it in a `scopes` reply (docs/PROTOCOL.md, *Actions a
  /// scope takes*): an object whose `kind` is `string`, `integer`, `number`, `boolean`,
  /// `optional`, `array`, `dictionary` (those three with `of`), `object` (`fields`: an array of
  /// `{name, shape, optional?}`), `choice` (`values`), `enum` (`cases`: an array of
  /// `{name, payload}`), `recursive` or `unknown`; `type` names the Swift type where known.
  public var json: JSON {
    var object = JSONObject()
    func kind(_ name: String, _ type: String?) {
      object["kind"] = .string(name)
      if let type { object["type"] = .string(type) }
    }
    switch self {
    case .string(let type): kind("string", type)
    case .integer(let type): kind("integer", type)
    case .number(let type): kind("number", type)
    case .boolean: kind("boolean", nil)
    case .optional(let wrapped):
      kind("optional", nil)
      object["of"] = wrapped.json
    case .array(let element):
      kind("array", nil)
      object["of"] = element.json
    case .dictionary(let value):
      kind("dictionary", nil)
      object["of"] = value.json
    case .object(let type, let fields):
      kind("object", type)
      object["fields"] = .array(
        fields.map { field in
          var member: JSONObject = ["name": .string(field.name), "shape": field.shape.json]
          if field.isOptional { member["optional"] = .bool(true) }
          return .object(member)
        })
    case .choice(let type, let values):
      kind("choice", type)
      object["values"] = .array(values)
    case .cases(let type, let cases):
      kind("enum", type)
      object["cases"] = .array(
        cases.map { .object(["name": .string($0.name), "payload": $0.payload.json]) })
    case .recursive(let type): kind("recursive", type)
    case .unknown(let type): kind("unknown", type)
    }
    return .object(object)
  }

  /// Reads a shape written as ``json``; `nil` when it is not one (a newer host's kinds, say).
  ///
  /// - Parameter json: The shape's JSON form.
  public init?(json: JSON) {
    guard case .object(let object) = json, case .string(let kind)? = object["kind"] else {
      return nil
    }
    let type: String? = if case .string(let name)? = object["type"] { name } else { nil }
    func nested(_ key: String) -> JSONShape? { object[key].flatMap(JSONShape.init(json:)) }
    switch kind {
    case "string": self = .string(type: type)
    case "integer": self = .integer(type: type)
    case "number": self = .number(type: type)
    case "boolean": self = .boolean
    case "optional":
      guard let wrapped = nested("of") else { return nil }
      self = .optional(wrapped)
    case "array":
      guard let element = nested("of") else { return nil }
      self = .array(element)
    case "dictionary":
      guard let value = nested("of") else { return nil }
      self = .dictionary(value)
    case "object":
      guard case .array(let members)? = object["fields"] else { return nil }
      var fields: [Field] = []
      for member in members {
        guard case .object(let field) = member, case .string(let name)? = field["name"],
          let shape = field["shape"].flatMap(JSONShape.init(json:))
        else { return nil }
        fields.append(Field(name: name, shape: shape, isOptional: field["optional"] == .bool(true)))
      }
      self = .object(type: type, fields: fields)
    case "choice":
      guard let type, case .array(let values)? = object["values"] else { return nil }
      self = .choice(type: type, values: values)
    case "enum":
      guard let type, case .array(let members)? = object["cases"] else { return nil }
      var cases: [Case] = []
      for member in members {
        guard case .object(let item) = member, case .string(let name)? = item["name"],
          let payload = item["payload"].flatMap(JSONShape.init(json:))
        else { return nil }
        cases.append(Case(name: name, payload: payload))
      }
      self = .cases(type: type, cases: cases)
    case "recursive":
      guard let type else { return nil }
      self = .recursive(type: type)
    case "unknown":
      self = .unknown(type: type ?? "?")
    default:
      return nil
    }
  }
}
