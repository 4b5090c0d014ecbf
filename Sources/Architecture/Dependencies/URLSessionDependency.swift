import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension DependencyValues {
  /// The URL session effects make requests with, as swift-dependencies has it: `URLSession.shared`
  /// live (FoundationNetworking's, on Linux); in tests, unless overridden, reading it reports
  /// "Unimplemented" (a test failure in a test store) and returns a session whose every request
  /// fails, so that a test never reaches the network by accident.
  ///
  /// ```swift
  /// @Dependency(\.urlSession) var urlSession
  /// let (data, _) = try await urlSession.data(from: url)
  /// ```
  public var urlSession: URLSession {
    get { self[URLSessionKey.self] }
    set { self[URLSessionKey.self] = newValue }
  }
}

private enum URLSessionKey: DependencyKey {
  static let liveValue = URLSession.shared
  static var testValue: URLSession {
    DependencyValues._effective.runtimeWarnings(
      "Unimplemented: @Dependency(\\.urlSession) was read in a test context. Override it in the"
        + " test's dependencies (withDependencies { $0.urlSession = … }) so that the test does"
        + " not reach the network.")
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [_UnimplementedURLProtocol.self]
    return URLSession(configuration: configuration)
  }
}

/// Fails every request of the test value of `urlSession`.
private final class _UnimplementedURLProtocol: URLProtocol {
  override class func canInit(with request: URLRequest) -> Bool { true }
  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  override func startLoading() {
    self.client?.urlProtocol(self, didFailWithError: URLError(.notConnectedToInternet))
  }

  override func stopLoading() {}
}
