/// A key path to any case of `Root`, whatever its payload: the argument of ``CasePathable/is(_:)``.
public typealias PartialCaseKeyPath<Root> = PartialKeyPath<Case<Root>>

extension CasePathable {
  /// The payload of a case, or `nil` when the value is in another case; setting it replaces the
  /// payload when the value is in that case (and does nothing otherwise), as in swift-case-paths.
  ///
  /// ```swift
  /// state.destination?[case: \.edit]?.syncUp.title = "Engineering"
  /// ```
  ///
  /// - Parameter keyPath: The case.
  public subscript<Value>(case keyPath: CaseKeyPath<Self, Value>) -> Value? {
    get { AnyCasePath(keyPath).extract(from: self) }
    set {
      let path = AnyCasePath(keyPath)
      guard let newValue, path.extract(from: self) != nil else { return }
      self = path.embed(newValue)
    }
  }

  /// The payload of a case, by the case's name, for enums marked `@dynamicMemberLookup`:
  /// `state.destination?.alert` is the alert when the destination is one, else `nil`.
  ///
  /// ```swift
  /// @dynamicMemberLookup
  /// enum State: CasePathable { case alert(AlertState<Alert>), edit(SyncUpForm.State) … }
  /// #expect(store.state.destination?.edit?.syncUp.title == "Engineering")
  /// ```
  ///
  /// Setting it replaces the payload when the value is in that case, as ``subscript(case:)``.
  ///
  /// - Parameter keyPath: The case's property in ``AllCasePaths``.
  public subscript<Member>(
    dynamicMember keyPath: KeyPath<AllCasePaths, AnyCasePath<Self, Member>>
  ) -> Member? {
    get { Self.allCasePaths[keyPath: keyPath].extract(from: self) }
    set {
      let path = Self.allCasePaths[keyPath: keyPath]
      guard let newValue, path.extract(from: self) != nil else { return }
      self = path.embed(newValue)
    }
  }

  /// Whether the value is in a case, whatever its payload.
  ///
  /// ```swift
  /// #expect(store.state.destination?.is(\.alert) == true)
  /// ```
  ///
  /// - Parameter keyPath: The case.
  /// - Returns: `true` when the value is in that case.
  public func `is`(_ keyPath: PartialCaseKeyPath<Self>) -> Bool {
    guard let member = Case<Self>()[keyPath: keyPath] as? any _AnyCase else { return false }
    return member._matches(self)
  }
}

/// A ``Case`` of any payload type, for ``CasePathable/is(_:)``.
protocol _AnyCase {
  func _matches(_ root: Any) -> Bool
}

extension Case: _AnyCase {
  func _matches(_ root: Any) -> Bool {
    self._path.matches(root)
  }
}
