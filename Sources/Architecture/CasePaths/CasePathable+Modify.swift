extension CasePathable {
  /// Changes the payload of a case in place.
  ///
  /// ```swift
  /// state.destination?.modify(\.edit) { $0.title = "Groceries" }
  /// ```
  ///
  /// If the value is in another case nothing changes, and the mismatch is reported as a test
  /// failure in tests (on standard error otherwise): check the case first when it may differ.
  ///
  /// - Parameters:
  ///   - keyPath: A case key path to the payload.
  ///   - yield: Changes the payload.
  ///   - fileID: The caller's file, for the failure.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public mutating func modify<Value>(
    _ keyPath: CaseKeyPath<Self, Value>,
    yield: (inout Value) -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let path = AnyCasePath(keyPath)
    guard var value = path.extract(from: self) else {
      _reportIssue(
        "Can't modify '\(self)' via 'CaseKeyPath<\(Self.self), \(Value.self)>': it is in another"
          + " case.",
        fileID: fileID, filePath: filePath, line: line, column: column)
      return
    }
    yield(&value)
    self = path.embed(value)
  }
}

extension Optional where Wrapped: CasePathable {
  /// Changes the payload of a case of the wrapped value in place (see
  /// ``CasePathable/modify(_:yield:fileID:filePath:line:column:)``); a `nil` value is reported
  /// like a mismatched case.
  ///
  /// ```swift
  /// state.destination.modify(\.edit) { $0.title = "Groceries" }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: A case key path to the payload.
  ///   - yield: Changes the payload.
  ///   - fileID: The caller's file, for the failure.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public mutating func modify<Value>(
    _ keyPath: CaseKeyPath<Wrapped, Value>,
    yield: (inout Value) -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard self != nil else {
      _reportIssue(
        "Can't modify 'nil' via 'CaseKeyPath<\(Wrapped.self), \(Value.self)>'.",
        fileID: fileID, filePath: filePath, line: line, column: column)
      return
    }
    self!.modify(
      keyPath, yield: yield, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
