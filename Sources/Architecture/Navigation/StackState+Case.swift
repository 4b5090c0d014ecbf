extension StackState where Element: CasePathable {
  /// The payload of the element with an id when it is in a case, as TCA's
  /// `path[id: id, case: \.detail]`: `nil` when there is no such element or it is in another
  /// case.
  ///
  /// ```swift
  /// state.path[id: id, case: \.detail]?.syncUp.meetings.insert(meeting, at: 0)
  /// ```
  ///
  /// Changing it changes the element, and setting it to `nil` pops the element. Writing through
  /// it when the element is missing or in another case changes nothing and is reported as an
  /// issue (a test failure in tests): `Can't modify unrelated case "int"`, as TCA words it.
  ///
  /// - Parameters:
  ///   - id: The element's id.
  ///   - keyPath: The case.
  public subscript<Value>(
    id id: StackElementID,
    case keyPath: CaseKeyPath<Element, Value>,
    fileID fileID: StaticString = #fileID,
    filePath filePath: StaticString = #filePath,
    line line: UInt = #line,
    column column: UInt = #column
  ) -> Value? {
    get { self[id: id].flatMap { AnyCasePath(keyPath).extract(from: $0) } }
    _modify {
      let path = AnyCasePath(keyPath)
      let element = self[id: id]
      var value = element.flatMap { path.extract(from: $0) }
      let wasInCase = value != nil
      yield &value
      guard wasInCase else {
        _reportIssue(
          _unrelatedCaseMessage(element), fileID: fileID, filePath: filePath, line: line,
          column: column)
        return
      }
      // `nil` pops the element, as in TCA.
      self[id: id] = value.map(path.embed)
    }
  }
}
