import Wire

/// The scope list the page shows: every pattern the host serves, and for a collection pattern
/// such as `todos/{id}` the ids present now — read from the collection's parent scope
/// (`todos`), in the member named like the pattern's segment before `{id}` (`todos`), or in
/// the only member that is an array of objects with an `id`.
enum ScopeCatalog {
  /// The most ids listed for one pattern.
  static let maxIDs = 200

  /// Where the ids of `pattern` are found: a declared scope without `{id}`, and the member of
  /// its state to look in; `nil` when the pattern has no `{id}` or no such parent scope.
  ///
  /// - Parameters:
  ///   - pattern: A scope pattern, e.g. `shop/products/{id}/addToCart`.
  ///   - patterns: Every pattern the host serves.
  /// - Returns: The parent scope (`shop/products`) and the member name (`products`).
  static func collectionSource(
    of pattern: String, among patterns: [String]
  ) -> (scope: String, member: String)? {
    let segments = pattern.split(separator: "/", omittingEmptySubsequences: false)
    guard let index = segments.firstIndex(of: "{id}"), index > 0 else { return nil }
    let parent = segments[..<index].joined(separator: "/")
    guard patterns.contains(parent) else { return nil }
    return (parent, String(segments[index - 1]))
  }

  /// The ids of the elements of the collection in `state`, as the scope names spell them
  /// (strings as they are, integers in decimal); `nil` when no collection can be told apart.
  ///
  /// - Parameters:
  ///   - state: The parent scope's state.
  ///   - member: The member name to prefer.
  /// - Returns: The ids, in the collection's order.
  static func ids(in state: JSON, member: String) -> [String]? {
    switch state {
    case .array(let elements):
      return self.ids(of: elements)
    case .object(let object):
      if case .array(let elements)? = object[member], let ids = self.ids(of: elements) {
        return ids
      }
      let candidates = object.compactMap { _, value -> [String]? in
        guard case .array(let elements) = value, !elements.isEmpty else { return nil }
        return self.ids(of: elements)
      }
      return candidates.count == 1 ? candidates[0] : nil
    default:
      return nil
    }
  }

  private static func ids(of elements: [JSON]) -> [String]? {
    var ids: [String] = []
    for element in elements {
      guard case .object(let object) = element else { return nil }
      switch object["id"] {
      case .string(let id)?: ids.append(id)
      case .int(let id)?: ids.append(String(id))
      default: return nil
      }
    }
    return ids
  }

  /// The page's scope list as JSON: `{"scopes":[{pattern, writable, description?, ids?,
  /// idsNote?}]}`, reading each collection's parent scope once with `read`.
  ///
  /// - Parameters:
  ///   - scopes: The scopes the host serves.
  ///   - read: Reads a scope's current state (`nil` when it cannot be read).
  /// - Returns: The list.
  static func list(
    _ scopes: [ScopeInfo], read: (String) async -> JSON?
  ) async -> JSON {
    let patterns = scopes.map(\.pattern)
    var states: [String: JSON?] = [:]
    var items: [JSON] = []
    for scope in scopes {
      var object = scope.json.objectValue
      // What the dispatch box offers: each case with the JSON to send, as `storeclient actions`.
      if let shape = scope.actions {
        object["forms"] = .array(
          shape.forms().map { .object(["name": .string($0.name), "template": .string($0.template)]) })
      }
      if let source = self.collectionSource(of: scope.pattern, among: patterns) {
        if states[source.scope] == nil { states[source.scope] = .some(await read(source.scope)) }
        if let state = states[source.scope] ?? nil,
          let ids = self.ids(in: state, member: source.member)
        {
          object["ids"] = .array(ids.prefix(self.maxIDs).map(JSON.string))
          if ids.count > self.maxIDs {
            object["idsNote"] = .string("and \(ids.count - self.maxIDs) more: type an id below")
          }
        } else {
          object["idsNote"] = .string("no ids found in \(source.scope): type an id below")
        }
      } else if scope.pattern.contains("{id}") {
        object["idsNote"] = .string("type an id below")
      }
      items.append(.object(object))
    }
    return .object(["scopes": .array(items)])
  }
}

extension JSON {
  /// The members of an object, or none.
  var objectValue: JSONObject {
    if case .object(let object) = self { return object }
    return JSONObject()
  }
}
