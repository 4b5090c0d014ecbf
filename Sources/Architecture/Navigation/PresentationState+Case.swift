extension PresentationState where State: CasePathable {
  /// The payload of the presented state when it is in a case, as TCA's `$destination[case:]`:
  /// `nil` when nothing is presented or the presented state is in another case.
  ///
  /// ```swift
  /// state.$destination[case: \.edit]?.syncUp.title = "Engineering"
  /// state.$destination[case: \.alert] = nil   // dismisses the alert
  /// ```
  ///
  /// Changing it changes the presented state, and setting it to `nil` dismisses it. Writing
  /// through it when nothing is presented or another case is changes nothing and is reported as
  /// an issue (a test failure in tests): `Can't modify unrelated case "edit"`, as TCA words it.
  ///
  /// - Parameters:
  ///   - keyPath: The case.
  ///   - fileID: The caller's file, for the issue.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public subscript<Value>(
    case keyPath: CaseKeyPath<State, Value>,
    fileID fileID: StaticString = #fileID,
    filePath filePath: StaticString = #filePath,
    line line: UInt = #line,
    column column: UInt = #column
  ) -> Value? {
    get { self.wrappedValue.flatMap { AnyCasePath(keyPath).extract(from: $0) } }
    _modify {
      let path = AnyCasePath(keyPath)
      let presented = self.wrappedValue
      var value = presented.flatMap { path.extract(from: $0) }
      let wasInCase = value != nil
      yield &value
      guard wasInCase else {
        _reportIssue(
          _unrelatedCaseMessage(presented), fileID: fileID, filePath: filePath, line: line,
          column: column)
        return
      }
      self.wrappedValue = value.map(path.embed)
    }
  }
}

/// TCA's words for writing through a case subscript when the value is in another case (or
/// absent): `Can't modify unrelated case "int"`.
func _unrelatedCaseMessage(_ value: Any?) -> String {
  guard let value else { return "Can't modify unrelated case" }
  return "Can't modify unrelated case \(_caseName(of: value).debugDescription)"
}

/// The name of the case an enum value is in: the label of its payload, or, without a payload,
/// the value's own description.
func _caseName(of value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  if mirror.displayStyle == .enum, let label = mirror.children.first?.label { return label }
  return String(describing: value)
}
