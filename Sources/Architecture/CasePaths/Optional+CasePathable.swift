extension Optional: CasePathable {
  /// The case paths of `Optional`: `\.some` and `\.none`, as swift-case-paths gives them, so that
  /// a case key path can go through an optional — most often presented state:
  ///
  /// ```swift
  /// #expect(store.state.destination.is(\.some.alert))
  /// await store.receive(\.destination.presented.alert.confirmDeletion)
  /// let form = store.state.destination[case: \.some.edit]
  /// ```
  public struct AllCasePaths: Sendable {
    /// `.some`: the wrapped value.
    public var some: AnyCasePath<Optional, Wrapped> {
      .init(embed: { .some($0) }, extract: { $0 })
    }
    /// `.none`.
    public var none: AnyCasePath<Optional, Void> {
      .init(embed: { _ in .none }, extract: { $0 == nil ? () : nil })
    }
  }

  /// The case paths of `Optional`.
  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}
