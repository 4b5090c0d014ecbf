import Architecture

/// Fetches a fact about a number: the counter's dependency for `factButtonTapped`.
///
/// ```swift
/// @Dependency(\.numberFact) var numberFact
/// let fact = try await numberFact.fetch(42)
/// ```
///
/// The live value needs no network: it asks ``NumberFacts``, a local fact source. The test
/// value fails the test when called; override it:
///
/// ```swift
/// let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
///   $0.numberFact.fetch = { "\($0) is a good number." }
/// }
/// ```
public struct NumberFactClient: Sendable {
  /// Returns a fact about a number.
  public var fetch: @Sendable (_ number: Int) async throws -> String

  /// Creates a client from a fetch function.
  ///
  /// - Parameter fetch: Returns a fact about a number.
  public init(fetch: @escaping @Sendable (_ number: Int) async throws -> String) {
    self.fetch = fetch
  }
}

extension NumberFactClient: DependencyKey {
  /// Facts from ``NumberFacts``, computed locally.
  public static let liveValue = NumberFactClient { number in
    NumberFacts.fact(about: number)
  }

  /// Fails the test when called (throwing ``UnimplementedDependency``).
  public static let testValue = NumberFactClient { _ in
    throw unimplemented("NumberFactClient.fetch")
  }
}

extension DependencyValues {
  /// The number fact client used by ``Counter``.
  public var numberFact: NumberFactClient {
    get { self[NumberFactClient.self] }
    set { self[NumberFactClient.self] = newValue }
  }
}
