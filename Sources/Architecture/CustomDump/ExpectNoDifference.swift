/// Checks that two values are equal, and when they are not, reports a test failure with the
/// line diff of their dumps — the diff a ``TestStore`` prints for state — as CustomDump's
/// `expectNoDifference`.
///
/// ```swift
/// expectNoDifference(store.state.board, expectedBoard)
/// ```
///
/// ```
/// expectNoDifference failed: …
///
///       Board(
///     −   score: 3,
///     +   score: 2,
///         tiles: […]
///       )
///
/// (First: −, Second: +)
/// ```
///
/// Outside a test the failure is a warning on standard error (see ``reportIssue(_:fileID:filePath:line:column:)``).
///
/// - Parameters:
///   - expression1: The first value (printed with `−`).
///   - expression2: The second value (printed with `+`).
///   - message: What the comparison is about.
///   - fileID: The source file, for the report.
///   - filePath: The source file's path, for the report.
///   - line: The source line, for the report.
///   - column: The source column, for the report.
public func expectNoDifference<T: Equatable>(
  _ expression1: @autoclosure () throws -> T,
  _ expression2: @autoclosure () throws -> T,
  _ message: @autoclosure () -> String? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  do {
    let first = try expression1()
    let second = try expression2()
    guard first != second else { return }
    _reportIssue(
      _differenceMessage(
        "expectNoDifference", message(),
        _TestStoreMessages.diff(first, second, actualLabel: "Second", expectedLabel: "First")),
      fileID: fileID, filePath: filePath, line: line, column: column)
  } catch {
    _reportIssue(
      "expectNoDifference failed: caught error: \(error)", fileID: fileID, filePath: filePath,
      line: line, column: column)
  }
}

/// Checks how an operation changes a value: reads it, runs `operation`, and expects it to equal
/// the first reading changed by `changes`, as CustomDump's `expectDifference`. A mismatch is
/// reported with the diff a ``TestStore`` prints for state.
///
/// ```swift
/// expectDifference(model.count) {
///   model.incrementButtonTapped()
/// } changes: {
///   $0 += 1
/// }
/// ```
///
/// - Parameters:
///   - expression: The value to watch.
///   - message: What the check is about.
///   - operation: The work that should change the value.
///   - updateValueToMatch: Turns the value read before `operation` into the expected one.
///   - fileID: The source file, for the report.
///   - filePath: The source file's path, for the report.
///   - line: The source line, for the report.
///   - column: The source column, for the report.
public func expectDifference<T: Equatable>(
  _ expression: @autoclosure () throws -> T,
  _ message: @autoclosure () -> String? = nil,
  operation: () throws -> Void = {},
  changes updateValueToMatch: (inout T) throws -> Void,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  do {
    var expected = try expression()
    try operation()
    try updateValueToMatch(&expected)
    let actual = try expression()
    _reportDifference(
      expected: expected, actual: actual, message: message(), fileID: fileID,
      filePath: filePath, line: line, column: column)
  } catch {
    _reportIssue(
      "expectDifference failed: caught error: \(error)", fileID: fileID, filePath: filePath,
      line: line, column: column)
  }
}

/// Checks how an async operation changes a value (see the synchronous
/// ``expectDifference(_:_:operation:changes:fileID:filePath:line:column:)``).
///
/// ```swift
/// await expectDifference(model.isLoading) {
///   await model.refresh()
/// } changes: {
///   $0 = false
/// }
/// ```
///
/// - Parameters:
///   - expression: The value to watch.
///   - message: What the check is about.
///   - operation: The work that should change the value.
///   - updateValueToMatch: Turns the value read before `operation` into the expected one.
///   - fileID: The source file, for the report.
///   - filePath: The source file's path, for the report.
///   - line: The source line, for the report.
///   - column: The source column, for the report.
public func expectDifference<T: Equatable>(
  _ expression: @autoclosure () throws -> T,
  _ message: @autoclosure () -> String? = nil,
  operation: () async throws -> Void = {},
  changes updateValueToMatch: (inout T) throws -> Void,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) async {
  do {
    var expected = try expression()
    try await operation()
    try updateValueToMatch(&expected)
    let actual = try expression()
    _reportDifference(
      expected: expected, actual: actual, message: message(), fileID: fileID,
      filePath: filePath, line: line, column: column)
  } catch {
    _reportIssue(
      "expectDifference failed: caught error: \(error)", fileID: fileID, filePath: filePath,
      line: line, column: column)
  }
}

private func _reportDifference<T: Equatable>(
  expected: T, actual: T, message: String?, fileID: StaticString, filePath: StaticString,
  line: UInt, column: UInt
) {
  guard expected != actual else { return }
  _reportIssue(
    _differenceMessage("expectDifference", message, _TestStoreMessages.diff(expected, actual)),
    fileID: fileID, filePath: filePath, line: line, column: column)
}

/// "name failed: message" (or "…" without one), a blank line, then the diff.
private func _differenceMessage(_ name: String, _ message: String?, _ diff: String) -> String {
  let headline = message.map { $0.isEmpty ? "…" : $0 } ?? "…"
  return "\(name) failed: \(headline)\n\n\(diff)"
}
