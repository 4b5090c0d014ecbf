/// A key for a dependency in ``DependencyValues``, with its live and test implementations.
///
/// ```swift
/// struct FactClient: Sendable { var fetch: @Sendable (Int) async throws -> String }
///
/// extension FactClient: DependencyKey {
///   static let liveValue = FactClient { "\($0) is a good number." }
///   static let testValue = FactClient { _ in throw Unimplemented() }
/// }
///
/// extension DependencyValues {
///   var factClient: FactClient {
///     get { self[FactClient.self] }
///     set { self[FactClient.self] = newValue }
///   }
/// }
/// ```
public protocol DependencyKey {
  /// The dependency's type.
  associatedtype Value: Sendable
  /// The implementation used by stores in a live context.
  static var liveValue: Value { get }
  /// The implementation used by stores in a test context (see ``DependencyContext``).
  static var testValue: Value { get }
}

extension DependencyKey {
  /// By default a test context uses the live value and reports a runtime warning saying the
  /// dependency has no test implementation.
  public static var testValue: Value {
    let message =
      "@Dependency(\(Self.self)) has no test implementation and was accessed in a test context;"
      + " its live value is used. Override it with withDependencies or give the key a testValue."
    DependencyValues._effective.runtimeWarnings(message)
    return self.liveValue
  }
}
