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

extension AnyCasePath {
  /// Changes the payload of `root` in place, as swift-case-paths' `AnyCasePath.modify`.
  ///
  /// - Parameters:
  ///   - root: The enum value.
  ///   - body: Changes the payload.
  /// - Returns: What `body` returns.
  /// - Throws: ``CaseExtractionFailed`` when `root` is in another case (then it is unchanged),
  ///   or what `body` throws.
  public func modify<Result>(
    _ root: inout Root, _ body: (inout Value) throws -> Result
  ) throws -> Result {
    guard var value = self.extract(from: root) else { throw CaseExtractionFailed() }
    let result = try body(&value)
    root = self.embed(value)
    return result
  }
}

/// The error ``AnyCasePath/modify(_:_:)`` throws when the value is in another case.
public struct CaseExtractionFailed: Error, Equatable, Sendable {
  /// Creates the error.
  public init() {}
}

extension KeyPath {
  /// Changes the payload of an enum value in place through a case key path, the key-path
  /// spelling of ``AnyCasePath/modify(_:_:)``:
  ///
  /// ```swift
  /// try (\Destination.State.Cases.edit).modify(&state.destination) { $0.title = "Groceries" }
  /// ```
  ///
  /// - Parameters:
  ///   - root: The enum value.
  ///   - body: Changes the payload.
  /// - Returns: What `body` returns.
  /// - Throws: ``CaseExtractionFailed`` when `root` is in another case, or what `body` throws.
  public func modify<Enum, Payload, Result>(
    _ root: inout Enum, _ body: (inout Payload) throws -> Result
  ) throws -> Result where Root == Case<Enum>, Value == Case<Payload> {
    try AnyCasePath(self as CaseKeyPath<Enum, Payload>).modify(&root, body)
  }

  /// Changes the payload of an optional enum value in place through a case key path; `nil` is
  /// another case.
  ///
  /// - Parameters:
  ///   - root: The optional enum value.
  ///   - body: Changes the payload.
  /// - Returns: What `body` returns.
  /// - Throws: ``CaseExtractionFailed`` when `root` is `nil` or in another case, or what `body`
  ///   throws.
  public func modify<Enum, Payload, Result>(
    _ root: inout Enum?, _ body: (inout Payload) throws -> Result
  ) throws -> Result where Root == Case<Enum>, Value == Case<Payload> {
    guard var wrapped = root else { throw CaseExtractionFailed() }
    let result = try AnyCasePath(self as CaseKeyPath<Enum, Payload>).modify(&wrapped, body)
    root = wrapped
    return result
  }
}

extension CasePathable {
  /// The root of the case key paths of this type, as swift-case-paths names it:
  /// `\Action.Cases.counter` is the explicit spelling of `\.counter`.
  public typealias Cases = Case<Self>
}
