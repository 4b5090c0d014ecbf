/// The error an unimplemented endpoint throws (see `unimplemented(_:)`).
public struct UnimplementedFailure: Error, CustomStringConvertible, Sendable {
  /// The endpoint's description, e.g. `FactClient.fetch`.
  public let description: String
}

/// An endpoint of a dependency that fails the test when called: the default of each endpoint of
/// a hand-written dependency client, as TCA's `@DependencyClient` macro generates.
///
/// ```swift
/// struct FactClient {
///   var fetch: @Sendable (Int) async throws -> String = unimplemented("FactClient.fetch")
/// }
/// extension FactClient: DependencyKey {
///   static let liveValue = Self(fetch: { … })
///   static let testValue = Self()
/// }
/// ```
///
/// A test that exercises the endpoint without overriding it fails at the endpoint's definition;
/// the endpoint then throws ``UnimplementedFailure``.
///
/// - Parameters:
///   - description: The endpoint's name, for the failure message.
///   - fileID: The source file, for the report.
///   - filePath: The source file's path, for the report.
///   - function: The enclosing declaration, for the report.
///   - line: The source line, for the report.
///   - column: The source column, for the report.
/// - Returns: A closure that reports an issue and throws when called.
public func unimplemented<each Argument, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  function: StaticString = #function,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) async throws -> Result {
  { (argument: repeat each Argument) in
    let name = description()
    _reportUnimplemented(
      name, arguments: (repeat each argument), fileID: fileID, filePath: filePath, line: line,
      column: column)
    throw UnimplementedFailure(description: name)
  }
}

/// A synchronous throwing endpoint that fails the test when called, then throws
/// ``UnimplementedFailure``.
public func unimplemented<each Argument, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  function: StaticString = #function,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) throws -> Result {
  { (argument: repeat each Argument) in
    let name = description()
    _reportUnimplemented(
      name, arguments: (repeat each argument), fileID: fileID, filePath: filePath, line: line,
      column: column)
    throw UnimplementedFailure(description: name)
  }
}

/// A non-throwing async endpoint that fails the test when called and then returns
/// `placeholder`.
///
/// ```swift
/// var authorizationStatus: @Sendable () async -> Status = unimplemented(
///   "SpeechClient.authorizationStatus", placeholder: .notDetermined)
/// ```
public func unimplemented<each Argument, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  placeholder: @autoclosure @escaping @Sendable () -> Result,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  function: StaticString = #function,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) async -> Result {
  { (argument: repeat each Argument) in
    _reportUnimplemented(
      description(), arguments: (repeat each argument), fileID: fileID, filePath: filePath,
      line: line, column: column)
    return placeholder()
  }
}

/// A non-throwing synchronous endpoint that fails the test when called and then returns
/// `placeholder`.
public func unimplemented<each Argument, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  placeholder: @autoclosure @escaping @Sendable () -> Result,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  function: StaticString = #function,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) -> Result {
  { (argument: repeat each Argument) in
    _reportUnimplemented(
      description(), arguments: (repeat each argument), fileID: fileID, filePath: filePath,
      line: line, column: column)
    return placeholder()
  }
}

/// A non-throwing async endpoint returning nothing that fails the test when called (a `Void`
/// endpoint needs no placeholder).
///
/// ```swift
/// var finishTask: @Sendable () async -> Void = unimplemented("SpeechClient.finishTask")
/// ```
// Disfavored: a throwing `Void` endpoint takes the throwing overload (which throws) instead.
@_disfavoredOverload
public func unimplemented<each Argument>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  function: StaticString = #function,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) async -> Void {
  { (argument: repeat each Argument) in
    _reportUnimplemented(
      description(), arguments: (repeat each argument), fileID: fileID, filePath: filePath,
      line: line, column: column)
  }
}

/// A non-throwing synchronous endpoint returning nothing that fails the test when called.
@_disfavoredOverload
public func unimplemented<each Argument>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  function: StaticString = #function,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) -> Void {
  { (argument: repeat each Argument) in
    _reportUnimplemented(
      description(), arguments: (repeat each argument), fileID: fileID, filePath: filePath,
      line: line, column: column)
  }
}

/// Reports a call to an unimplemented endpoint, with its arguments.
func _reportUnimplemented<Arguments>(
  _ description: String,
  arguments: Arguments,
  fileID: StaticString,
  filePath: StaticString,
  line: UInt,
  column: UInt
) {
  let name = description.isEmpty ? "An unimplemented endpoint" : "'\(description)'"
  let lines = _dumpLines(arguments)
  let invoked =
    lines == ["()"]
    ? "" : "\n\n  Invoked with:\n" + lines.map { "    \($0)" }.joined(separator: "\n")
  _reportIssue(
    """
    Unimplemented: \(name) was called.\(invoked)

    Override it in the dependencies of the test (withDependencies) or of the store.
    """,
    fileID: fileID, filePath: filePath, line: line, column: column)
}
