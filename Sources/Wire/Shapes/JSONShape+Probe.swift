import Synchronization

extension JSONShape {
  /// The shapes described so far, by type: a type's shape never changes while the program runs.
  private static let cache = Mutex<[ObjectIdentifier: JSONShape]>([:])

  /// The shape of the JSON `type` decodes from, learned by running its `init(from:)` against a
  /// recording decoder (see ``JSONShape``); computed once per type, then remembered.
  ///
  /// Works for synthesized conformances — structs, enums with and without associated values,
  /// raw-value enums — and for hand-written ones that read their members with the usual
  /// container calls. An enum's cases are found from its `CodingKeys` alone; no conformance to
  /// anything else is needed.
  ///
  /// - Parameter type: A decodable type, e.g. a feature's `Action`.
  /// - Returns: Its shape.
  public static func of<T: Decodable>(_ type: T.Type) -> JSONShape {
    let key = ObjectIdentifier(type)
    if let known = self.cache.withLock({ $0[key] }) { return known }
    let shape = ShapeProbe().probe(type).shape
    self.cache.withLock { $0[key] = shape }
    return shape
  }
}
