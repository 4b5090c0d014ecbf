import Architecture

/// Fetches a fact about a number: ``CounterFeature``'s dependency.
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
  /// Computes the fact locally (TCA's tutorial asks numbersapi.com).
  public static let liveValue = NumberFactClient { number in
    "\(number) is \(number.isMultiple(of: 2) ? "an even" : "an odd") number."
  }

  /// Fails when called: a test must say what the fact is.
  public static let testValue = NumberFactClient { _ in
    throw UnimplementedNumberFact()
  }
}

/// Thrown by ``NumberFactClient/testValue``.
public struct UnimplementedNumberFact: Error, Equatable {
  /// Creates the error.
  public init() {}
}

extension DependencyValues {
  /// The number fact client of ``CounterFeature``.
  public var numberFact: NumberFactClient {
    get { self[NumberFactClient.self] }
    set { self[NumberFactClient.self] = newValue }
  }
}
