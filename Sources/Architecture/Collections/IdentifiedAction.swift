/// An action addressed to one element of an identified collection, routed by `forEach`.
///
/// Its synthesized `Codable` form is `{"element":{"id":…,"action":…}}`.
///
/// > Important: Unlike TCA's, its case is not `indirect`, so that sending an element action
/// > allocates nothing (it is the host's hot path). A feature whose rows are the feature itself
/// > (TCA's recursion case study) marks its own case instead, as the compiler asks:
/// > `indirect case rows(IdentifiedActionOf<Nested>)`.
public enum IdentifiedAction<ID: Hashable & Sendable, Action>: CasePathable {
  /// The action `action` for the element with id `id`.
  case element(id: ID, action: Action)

  /// The case paths of ``IdentifiedAction``.
  public struct AllCasePaths: Sendable {
    /// The only case, as an `(id, action)` pair.
    public var element: AnyCasePath<IdentifiedAction, (id: ID, action: Action)> {
      .init(
        embed: { .element(id: $0.id, action: $0.action) },
        extract: { if case .element(let id, let action) = $0 { (id, action) } else { nil } }
      )
    }
  }

  /// The case paths of ``IdentifiedAction``.
  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

/// The identified action of a reducer whose state is `Identifiable`.
public typealias IdentifiedActionOf<R: Reducer> = IdentifiedAction<R.State.ID, R.Action>
where R.State: Identifiable

extension IdentifiedAction: Equatable where ID: Equatable, Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Sendable where Action: Sendable {}
extension IdentifiedAction: Encodable where ID: Encodable, Action: Encodable {}
extension IdentifiedAction: Decodable where ID: Decodable, Action: Decodable {}

extension Case {
  /// The action of the element with a given id: `\.todos[id: id]`.
  public subscript<ID: Hashable & Sendable, ElementAction>(
    id id: ID
  ) -> Case<ElementAction> where Value == IdentifiedAction<ID, ElementAction> {
    self.appending(
      AnyCasePath<IdentifiedAction<ID, ElementAction>, ElementAction>(
        embed: { .element(id: id, action: $0) },
        extract: {
          if case .element(let elementID, let action) = $0, elementID == id { action } else { nil }
        }
      )
    )
  }
}
