import Architecture

/// The error thrown by a dependency endpoint that a test did not override.
public struct UnimplementedDependency: Error, Equatable, Sendable, CustomStringConvertible {
  /// The endpoint that was called, such as `"APIClient.fetchProducts"`.
  public var endpoint: String

  /// Creates the error for an endpoint.
  ///
  /// - Parameter endpoint: The endpoint's name.
  public init(endpoint: String) {
    self.endpoint = endpoint
  }

  /// "Unimplemented: APIClient.fetchProducts".
  public var description: String { "Unimplemented: \(self.endpoint)" }
}

/// Reports (as a runtime warning, which fails a `TestStore` test) that a test used a dependency
/// endpoint without overriding it, and returns the error the endpoint then throws.
func unimplemented(_ endpoint: String) -> UnimplementedDependency {
  DependencyValues.current.runtimeWarnings(
    "Unimplemented: \(endpoint) was called in a test context."
      + " Override it with withDependencies.")
  return UnimplementedDependency(endpoint: endpoint)
}
