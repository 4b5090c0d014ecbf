extension Case {
  /// A case of a presented feature's action, reached through `.presented`:
  /// `\.alert.confirmDeletion` for `.alert(.presented(.confirmDeletion))`, and
  /// `\.destination.editItem.saveButtonTapped` through a destination enum, as in TCA.
  ///
  /// ```swift
  /// await store.send(\.alert.confirmDeletion) { $0.alert = nil }
  /// await store.receive(\.destination.editItem.delegate.didSave)
  /// ```
  ///
  /// The presentation's own cases keep their names: `\.alert.dismiss` is
  /// `PresentationAction.dismiss`, and `\.alert.presented` the whole presented action.
  ///
  /// - Parameter keyPath: A case of the presented feature's action.
  /// - Returns: The case, embedded in and extracted from `.presented`.
  @_disfavoredOverload
  public subscript<PresentedAction: CasePathable, Member>(
    dynamicMember keyPath: KeyPath<
      PresentedAction.AllCasePaths, AnyCasePath<PresentedAction, Member>
    >
  ) -> Case<Member> where Value == PresentationAction<PresentedAction> {
    self.appending(PresentationAction<PresentedAction>.allCasePaths.presented)
      .appending(PresentedAction.allCasePaths[keyPath: keyPath])
  }
}
