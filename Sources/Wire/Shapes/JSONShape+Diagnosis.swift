extension JSONShape {
  /// The shape at a decoding error's path: keys of objects, case names, array indices; an
  /// unlabeled value's `_0` may be left out of the path, as of the JSON.
  ///
  /// - Parameter path: The path, as in ``JSONDecodingError/path``.
  /// - Returns: The shape there (optionals unwrapped), or `nil` when the path leads nowhere.
  public func shape(at path: [String]) -> JSONShape? {
    var current = self.unwrapped
    for component in path {
      switch current {
      case .cases(_, let cases):
        guard let item = cases.first(where: { $0.name == component }) else { return nil }
        current = item.payload
      case .object(_, let fields):
        if let field = fields.first(where: { $0.name == component }) {
          current = field.shape.unwrapped
        } else if fields.count == 1, fields[0].name == "_0" {
          // `_0` left out: the component is inside the unlabeled value.
          guard let inner = fields[0].shape.unwrapped.shape(at: [component]) else { return nil }
          current = inner
        } else {
          return nil
        }
      case .array(let element):
        guard Int(component) != nil else { return nil }
        current = element.unwrapped
      case .dictionary(let value):
        current = value.unwrapped
      default:
        return nil
      }
      current = current.unwrapped
    }
    // A payload of one unlabeled value stands for that value.
    if case .object(_, let fields) = current, fields.count == 1, fields[0].name == "_0" {
      return fields[0].shape.unwrapped
    }
    return current
  }

  private var unwrapped: JSONShape {
    if case .optional(let wrapped) = self { return wrapped.unwrapped }
    return self
  }

  /// What to add to a decoding error about an enum's case, for the person who wrote `json`:
  /// the case meant when the name given is close to one, and the valid cases —
  /// `did you mean 'incrementButtonTapped'? Counter.Action's cases: 'incrementButtonTapped',
  /// 'decrementButtonTapped' and …`; for a raw-value enum, its values. `nil` when the error is
  /// not about a value of an enum.
  ///
  /// - Parameters:
  ///   - error: The decoding error.
  ///   - json: The value that failed to decode as this shape.
  /// - Returns: The sentence(s) to add, or `nil`.
  public func caseHint(for error: JSONDecodingError, in json: JSON) -> String? {
    let given = Self.value(at: error.path, in: json)
    switch self.shape(at: error.path) {
    case .choice(let type, let values)?:
      var hint = ""
      if case .string(let text)? = given,
        let nearest = CaseSuggestions.nearest(
          values.compactMap { if case .string(let value) = $0 { value } else { nil } }, to: text)
      {
        hint = "did you mean \(JSON.string(nearest).compactString)? "
      }
      return hint + "\(type) takes \(values.map(\.compactString).joined(separator: ", "))"
    case .cases(let type, let cases)? where !cases.isEmpty:
      let names = cases.map(\.name)
      var name: String?
      switch given {
      case .object(let object)? where object.count == 1:
        name = object.keys[0]
      case .string(let text)?:
        // A case's name alone: say how a case is written.
        if let item = cases.first(where: { $0.name == text }),
          let template = JSONShape.cases(type: type, cases: [item]).forms().first?.template
        {
          return "write the case as an object: \(template)"
        }
        name = text
      default:
        break
      }
      let ordered: (nearest: String?, names: [String]) =
        name.map { CaseSuggestions.ordered(names, for: $0) } ?? (nil, names)
      let list = "\(type)'s case\(cases.count == 1 ? "" : "s"): \(CaseSuggestions.list(ordered.names))"
      return ordered.nearest.map { "did you mean '\($0)'? " + list } ?? list
    default:
      return nil
    }
  }

  /// The value at a rendered path in `json` (an `_0` missing there is skipped).
  static func value(at path: [String], in json: JSON) -> JSON? {
    var current = json
    for component in path {
      switch current {
      case .object(let object):
        if let next = object[component] {
          current = next
        } else if case .object(let inner)? = object["_0"], let next = inner[component] {
          current = next
        } else {
          return nil
        }
      case .array(let elements):
        guard let index = Int(component), elements.indices.contains(index) else { return nil }
        current = elements[index]
      default:
        return nil
      }
    }
    return current
  }
}
