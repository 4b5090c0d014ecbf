extension JSONShape {
  /// One way to write a value of an enum shape, down to a case without further choices:
  /// `todos.element.toggleCompleted` written
  /// `{"todos":{"element":{"id":"<UUID>","action":{"toggleCompleted":{}}}}}`.
  public struct Form: Sendable, Hashable {
    /// The case names on the way, joined by dots — as `storeclient log` names actions.
    public var name: String
    /// The JSON to write, with `<Type>` placeholders for values to fill in (in quotes for
    /// strings: `"<UUID>"`).
    public var template: String

    /// A form.
    ///
    /// - Parameters:
    ///   - name: The case names, joined by dots.
    ///   - template: The JSON with placeholders.
    public init(name: String, template: String) {
      self.name = name
      self.template = template
    }
  }

  /// The most forms listed for one shape; a larger tree is cut there.
  public static let maxForms = 1000

  /// Every way to write a value of this shape, one per case — and one per case of an enum
  /// nested in a case's payload (a child feature's actions), so that each form can be sent as
  /// it is once its placeholders are filled. A single unlabeled payload is written without its
  /// `_0` (`{"factResponse":"<String>"}`), as a host accepts it (docs/PROTOCOL.md).
  ///
  /// - Returns: The forms, in declaration order; one form of the whole value for a shape that
  ///   is not an enum.
  public func forms() -> [Form] {
    var forms = Self.valueForms(self, depth: 0).map { Form(name: $0.names.joined(separator: "."), template: $0.template) }
    if forms.count > Self.maxForms { forms.removeLast(forms.count - Self.maxForms) }
    return forms
  }

  /// The JSON to write for this shape with placeholders, enums not expanded (`<Todo.Action>`).
  public var template: String {
    switch self {
    case .string(let type): "\"<\(type ?? "String")>\""
    case .integer(let type): "<\(type ?? "Int")>"
    case .number(let type): "<\(type ?? "Double")>"
    case .boolean: "<Bool>"
    case .optional(let wrapped): wrapped.template + "|null"
    case .array(let element): "[\(element.template),…]"
    case .dictionary(let value): "{\"<key>\":\(value.template),…}"
    case .object(_, let fields):
      "{" + fields.map { "\(Self.quoted($0.name)):\($0.shape.template)" }.joined(separator: ",") + "}"
    case .choice(_, let values): values.map(\.compactString).joined(separator: "|")
    case .cases(let type, _), .recursive(let type), .unknown(let type): "<\(type)>"
    }
  }

  private typealias Partial = (names: [String], template: String)

  /// The forms of a value: an enum's cases expanded, an object's first enum-valued member
  /// expanded, anything else as its template.
  private static func valueForms(_ shape: JSONShape, depth: Int) -> [Partial] {
    guard depth < 32 else { return [([], shape.template)] }
    switch shape {
    case .cases(_, let cases):
      var result: [Partial] = []
      for item in cases {
        for payload in self.payloadForms(item, depth: depth + 1) {
          result.append(([item.name] + payload.names, "{\(self.quoted(item.name)):\(payload.template)}"))
          if result.count > self.maxForms { return result }
        }
      }
      return result
    case .object(_, let fields):
      return self.objectForms(fields, depth: depth)
    default:
      return [([], shape.template)]
    }
  }

  private static func payloadForms(_ item: Case, depth: Int) -> [Partial] {
    if let value = item.unlabeledValue { return self.valueForms(value, depth: depth) }
    return self.valueForms(item.payload, depth: depth)
  }

  /// An object's forms: one per form of its first member that is an enum (an `action` next to
  /// an `id`), the other members as templates.
  private static func objectForms(_ fields: [Field], depth: Int) -> [Partial] {
    func render(_ templates: [String]) -> String {
      "{" + zip(fields, templates).map { "\(self.quoted($0.name)):\($1)" }.joined(separator: ",") + "}"
    }
    let templates = fields.map(\.shape.template)
    guard let index = fields.firstIndex(where: { $0.shape.expandable }) else {
      return [([], render(templates))]
    }
    return self.valueForms(fields[index].shape, depth: depth + 1).map { inner in
      var filled = templates
      filled[index] = inner.template
      return (inner.names, render(filled))
    }
  }

  /// Whether forms list this shape's values one by one: an enum, or an object holding one.
  private var expandable: Bool {
    switch self {
    case .cases: true
    case .object(_, let fields): fields.contains { $0.shape.expandable }
    default: false
    }
  }

  private static func quoted(_ key: String) -> String {
    JSON.string(key).compactString
  }
}
