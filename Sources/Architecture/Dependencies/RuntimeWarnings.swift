#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reports programmer errors that must not crash (an action for a missing `forEach` element, an
/// unhandled error thrown by an effect…), as TCA's `reportIssue` does: in a test context (a test
/// process, or a test store) each one is a test failure, at the reducer or effect that raised it
/// (a test store reports it at the `send` it descends from); live, it prints
/// `[Architecture] warning: …` to standard error. Override it per store to collect them:
///
/// ```swift
/// Store(initialState: …, reducer: { … }, withDependencies: {
///   $0.runtimeWarnings = RuntimeWarningReporter { message in Issue.record(Comment(rawValue: message)) }
/// })
/// ```
public struct RuntimeWarningReporter: Sendable {
  let report: @Sendable (String, _SourceLocation?) -> Void

  /// Creates a reporter from a closure.
  ///
  /// - Parameter report: Receives each warning's message.
  public init(_ report: @escaping @Sendable (String) -> Void) {
    self.report = { message, _ in report(message) }
  }

  init(located report: @escaping @Sendable (String, _SourceLocation?) -> Void) {
    self.report = report
  }

  /// Reports a warning.
  ///
  /// - Parameter message: What went wrong and how to fix it.
  public func callAsFunction(_ message: String) {
    self.report(message, nil)
  }

  /// Reports a warning raised by code at a known place (the reducer operator or effect that
  /// raised it), where a test failure is shown.
  func callAsFunction(
    _ message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    self.report(
      message, _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Reports each warning as a test failure (at the place that raised it, when known), or on
  /// standard error when no test is running: the test value.
  public static let testFailure = RuntimeWarningReporter(located: { message, location in
    if let location {
      location.reportIssue(message)
    } else {
      _reportIssue(message, fileID: #fileID, filePath: #filePath, line: #line, column: #column)
    }
  })

  /// Writes warnings to standard error.
  public static let standardError = RuntimeWarningReporter { message in
    let line = "[Architecture] warning: \(message)\n"
    var bytes = Array(line.utf8)
    bytes.withUnsafeMutableBytes { buffer in
      _ = write(2, buffer.baseAddress, buffer.count)
    }
  }
}

private enum RuntimeWarningsKey: DependencyKey {
  static let liveValue = RuntimeWarningReporter.standardError
  static let testValue = RuntimeWarningReporter.testFailure
}

extension DependencyValues {
  /// Where runtime warnings go (standard error unless overridden).
  public var runtimeWarnings: RuntimeWarningReporter {
    get { self[RuntimeWarningsKey.self] }
    set { self[RuntimeWarningsKey.self] = newValue }
  }
}

extension RuntimeWarningReporter {
  /// Reports a warning raised by a reducer operator declared at `location`.
  func callAsFunction(_ message: String, at location: _SourceLocation) {
    self.report(message, location)
  }
}
