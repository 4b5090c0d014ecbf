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
///
/// A key that only has a test implementation (an interface module's key, whose live value
/// lives in another module) conforms to ``TestDependencyKey`` instead.
public protocol DependencyKey: TestDependencyKey {
  // `Value` and `testValue` are restated from `TestDependencyKey` so that `Value` is inferred
  // from `liveValue` alone.

  /// The dependency's type.
  associatedtype Value: Sendable = Self
  /// The implementation used by stores in a live context.
  static var liveValue: Value { get }
  /// The implementation used by stores in a test context (see ``DependencyContext``).
  static var testValue: Value { get }
}

/// A key for a dependency with a test implementation only: the interface half of a dependency
/// whose live implementation is registered elsewhere, as in swift-dependencies.
///
/// ```swift
/// // In the interface module, which features depend on:
/// extension APIClient: TestDependencyKey {
///   static let testValue = APIClient(fetch: { _ in throw Unimplemented() })
/// }
/// // In the live module, which only the app depends on:
/// extension APIClient: DependencyKey {
///   static let liveValue = APIClient(fetch: { try await URLSession.shared.data(from: $0).0 })
/// }
/// ```
///
/// A key that is only a `TestDependencyKey` uses its test value in a live context too, and
/// reports a runtime warning saying so.
public protocol TestDependencyKey {
  /// The dependency's type.
  associatedtype Value: Sendable = Self
  /// The implementation used by stores in a test context (see ``DependencyContext``).
  static var testValue: Value { get }
}

extension DependencyValues {
  /// Whether dependencies are being overridden (a `withDependencies` closure, a store's or
  /// test store's `withDependencies:`): a value read there to be modified is not reported as
  /// missing a test implementation.
  @TaskLocal static var _isSetting = false
}

extension DependencyKey {
  /// By default a test context uses the live value and reports a runtime warning saying the
  /// dependency has no test implementation.
  public static var testValue: Value {
    // Read to be modified (`$0.client.fetch = { 1 }` in `withDependencies`): that is how a test
    // gives it a test implementation, as in swift-dependencies.
    if DependencyValues._isSetting { return self.liveValue }
    let message =
      "@Dependency(\(Self.self)) has no test implementation and was accessed in a test context;"
      + " its live value is used. Override it with withDependencies or give the key a testValue."
    DependencyValues._effective.runtimeWarnings(message)
    return self.liveValue
  }
}
