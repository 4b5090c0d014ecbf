/// The shape of the JSON a `Decodable` type reads: which members, which cases, which kinds of
/// values — what a person needs to write a value of it by hand.
///
/// ```swift
/// let shape = JSONShape.of(Counter.Action.self)
/// // .cases(type: "Counter.Action", cases: [decrementButtonTapped {}, factResponse {_0: String}, …])
/// shape.forms().map(\.template)
/// // ["{\"decrementButtonTapped\":{}}", "{\"factResponse\":\"<String>\"}", …]
/// ```
///
/// A host learns the shape of each scope's action type with ``of(_:)`` — by running the type's
/// own `init(from:)` against a decoder that records what it asks for — and lists it in its
/// `scopes` reply (docs/PROTOCOL.md, *Actions a scope takes*). Clients read it back with
/// ``init(json:)`` and show it with ``forms()``.
public indirect enum JSONShape: Sendable, Hashable {
  /// A string; `type` names the Swift type when it is not `String` (`UUID`, `URL`…).
  case string(type: String?)
  /// An integer; `type` names the Swift type when it is not `Int`.
  case integer(type: String?)
  /// A number; `type` names the Swift type when it is not `Double`.
  case number(type: String?)
  /// `true` or `false`.
  case boolean
  /// The wrapped shape, or `null`.
  case optional(JSONShape)
  /// An array of the element shape.
  case array(JSONShape)
  /// An object whose members all have the value shape, under any keys.
  case dictionary(JSONShape)
  /// An object with these members, in the order the type reads them.
  case object(type: String?, fields: [Field])
  /// One of a fixed set of values: an enum with raw values, such as `"all"`, `"active"`.
  case choice(type: String, values: [JSON])
  /// An enum in Swift's synthesized form: an object with one key naming a case, whose value
  /// is the case's payload (`{}` for none).
  case cases(type: String, cases: [Case])
  /// A type already being described further out (a recursive type).
  case recursive(type: String)
  /// A type whose decoding could not be followed.
  case unknown(type: String)

  /// A member of an ``object(type:fields:)``.
  public struct Field: Sendable, Hashable {
    /// The member's key: a property name, an associated value's label, or `_0`, `_1`… for
    /// unlabeled associated values.
    public var name: String
    /// What its value looks like.
    public var shape: JSONShape
    /// Whether the member may be left out.
    public var isOptional: Bool

    /// A member.
    ///
    /// - Parameters:
    ///   - name: The key.
    ///   - shape: Its value's shape.
    ///   - isOptional: Whether it may be left out.
    public init(name: String, shape: JSONShape, isOptional: Bool = false) {
      self.name = name
      self.shape = shape
      self.isOptional = isOptional
    }
  }

  /// A case of a ``cases(type:cases:)`` enum.
  public struct Case: Sendable, Hashable {
    /// The case's name, the key that selects it.
    public var name: String
    /// Its payload: an ``object(type:fields:)`` of its associated values (no fields for a case
    /// without any).
    public var payload: JSONShape

    /// A case.
    ///
    /// - Parameters:
    ///   - name: The case's name.
    ///   - payload: Its payload's shape.
    public init(name: String, payload: JSONShape) {
      self.name = name
      self.payload = payload
    }

    /// The value of the case's one unlabeled associated value (`_0`), when that is its whole
    /// payload: what may be written in its place (`{"setStep":2}` for `{"setStep":{"_0":2}}`).
    public var unlabeledValue: JSONShape? {
      guard case .object(_, let fields) = self.payload, fields.count == 1, fields[0].name == "_0"
      else { return nil }
      return fields[0].shape
    }
  }

  /// The Swift type's name, when the shape carries one.
  public var typeName: String? {
    switch self {
    case .string(let type), .integer(let type), .number(let type), .object(let type, _): type
    case .choice(let type, _), .cases(let type, _), .recursive(let type), .unknown(let type): type
    case .boolean: "Bool"
    case .optional(let wrapped): wrapped.typeName.map { $0 + "?" }
    case .array, .dictionary: nil
    }
  }

  /// The case names of an enum, in declaration order; `nil` for other shapes.
  public var caseNames: [String]? {
    guard case .cases(_, let cases) = self else { return nil }
    return cases.map(\.name)
  }
}

// MARK: - Type names

extension JSONShape {
  /// A type's name as a person writes it in the module that declares it: `Counter.Action`,
  /// `IdentifiedAction<UUID, Todo.Action>` — the module names of the fully qualified name left
  /// out.
  ///
  /// - Parameter type: The type.
  /// - Returns: Its readable name.
  public static func typeName(_ type: Any.Type) -> String {
    let qualified = String(reflecting: type)
    var result = ""
    var word = ""
    func flush() {
      // Every qualified name starts with its module: drop the first component of each.
      let parts = word.split(separator: ".", omittingEmptySubsequences: false)
      result += parts.count > 1 ? parts.dropFirst().joined(separator: ".") : word
      word = ""
    }
    for character in qualified {
      if character.isLetter || character.isNumber || character == "_" || character == "." {
        word.append(character)
      } else {
        flush()
        result.append(character)
      }
    }
    flush()
    // Local and private types carry `(unknown context at $…)` or `(in _…)` parts: keep the name.
    if result.contains("(") {
      return result.split(separator: ".").last.map(String.init) ?? result
    }
    return result
  }
}
