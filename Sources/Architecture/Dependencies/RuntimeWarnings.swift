#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reports programmer errors that must not crash (an action for a missing `forEach` element, an
/// unhandled error thrown by an effect…). Live and test values print `[Architecture] warning: …`
/// to standard error; override it per store to collect or fail on them:
///
/// ```swift
/// Store(initialState: …, reducer: { … }, withDependencies: {
///   $0.runtimeWarnings = RuntimeWarningReporter { message in Issue.record(Comment(rawValue: message)) }
/// })
/// ```
public struct RuntimeWarningReporter: Sendable {
  let report: @Sendable (String) -> Void

  /// Creates a reporter from a closure.
  ///
  /// - Parameter report: Receives each warning's message.
  public init(_ report: @escaping @Sendable (String) -> Void) {
    self.report = report
  }

  /// Reports a warning.
  ///
  /// - Parameter message: What went wrong and how to fix it.
  public func callAsFunction(_ message: String) {
    self.report(message)
  }

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
  static let testValue = RuntimeWarningReporter.standardError
}

extension DependencyValues {
  /// Where runtime warnings go (standard error unless overridden).
  public var runtimeWarnings: RuntimeWarningReporter {
    get { self[RuntimeWarningsKey.self] }
    set { self[RuntimeWarningsKey.self] = newValue }
  }
}
