/// Reports an issue: a test failure when a test runs (Swift Testing or XCTest), otherwise a
/// warning on standard error, as TCA's `reportIssue` (from swift-issue-reporting) does.
///
/// Use it for states a feature should never reach, so that tests catch them and a running app
/// only warns:
///
/// ```swift
/// guard let id = state.path.ids.dropLast().last else {
///   reportIssue("Record meeting is the only element in the stack.")
///   return .none
/// }
/// ```
///
/// - Parameters:
///   - message: What went wrong.
///   - fileID: The source file, for the report.
///   - filePath: The source file's path, for the report.
///   - line: The source line, for the report.
///   - column: The source column, for the report.
public func reportIssue(
  _ message: @autoclosure () -> String? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  _reportIssue(
    message() ?? "Issue reported", fileID: fileID, filePath: filePath, line: line,
    column: column)
}

/// Reports an error as an issue (see ``reportIssue(_:fileID:filePath:line:column:)``).
///
/// - Parameters:
///   - error: The error.
///   - message: What was being done, printed before the error.
///   - fileID: The source file, for the report.
///   - filePath: The source file's path, for the report.
///   - line: The source line, for the report.
///   - column: The source column, for the report.
public func reportIssue(
  _ error: any Error,
  _ message: @autoclosure () -> String? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let caught = "Caught error: \(error)"
  _reportIssue(
    message().map { "\($0)\n\n\(caught)" } ?? caught, fileID: fileID, filePath: filePath,
    line: line, column: column)
}

/// Runs `body` and reports the error it throws, if any, as an issue instead of propagating it.
///
/// ```swift
/// withErrorReporting {
///   try FileManager.default.removeItem(at: url)
/// }
/// ```
///
/// - Parameters:
///   - message: What was being done, printed before the error.
///   - fileID: The source file, for the report.
///   - filePath: The source file's path, for the report.
///   - line: The source line, for the report.
///   - column: The source column, for the report.
///   - body: The work.
/// - Returns: What `body` returns, or `nil` when it threw.
@discardableResult
public func withErrorReporting<R>(
  _ message: @autoclosure () -> String? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  catching body: () throws -> R
) -> R? {
  do {
    return try body()
  } catch {
    reportIssue(error, message(), fileID: fileID, filePath: filePath, line: line, column: column)
    return nil
  }
}

/// Runs async work and reports the error it throws, if any, as an issue instead of propagating
/// it (see ``withErrorReporting(_:fileID:filePath:line:column:catching:)``).
@discardableResult
public func withErrorReporting<R>(
  _ message: @autoclosure () -> String? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  isolation: isolated (any Actor)? = #isolation,
  catching body: () async throws -> sending R
) async -> R? {
  do {
    return try await body()
  } catch {
    reportIssue(error, message(), fileID: fileID, filePath: filePath, line: line, column: column)
    return nil
  }
}
