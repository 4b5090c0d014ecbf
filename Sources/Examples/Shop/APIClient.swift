import Architecture

/// The shop's back end: the catalog and orders.
///
/// The live value serves ``CatalogProduct/catalog`` from memory and accepts any non-empty
/// order, with no network. The test value fails the test when called; override what a test
/// needs:
///
/// ```swift
/// TestStore(initialState: Shop.State()) { Shop() } withDependencies: {
///   $0.apiClient.fetchProducts = { [.tshirt] }
/// }
/// ```
public struct APIClient: Sendable {
  /// Fetches the catalog.
  public var fetchProducts: @Sendable () async throws -> [CatalogProduct]
  /// Places an order and returns a confirmation to show.
  public var sendOrder: @Sendable (_ items: [CartItem.State]) async throws -> String

  /// Creates a client.
  ///
  /// - Parameters:
  ///   - fetchProducts: Fetches the catalog.
  ///   - sendOrder: Places an order and returns a confirmation.
  public init(
    fetchProducts: @escaping @Sendable () async throws -> [CatalogProduct],
    sendOrder: @escaping @Sendable (_ items: [CartItem.State]) async throws -> String
  ) {
    self.fetchProducts = fetchProducts
    self.sendOrder = sendOrder
  }
}

/// Why the API refused a request.
public enum APIError: Error, Equatable, Sendable, CustomStringConvertible {
  /// An order with no items.
  case emptyOrder

  /// A readable reason.
  public var description: String {
    switch self {
    case .emptyOrder: "An order needs at least one item."
    }
  }
}

extension APIClient: DependencyKey {
  /// The local catalog; orders are confirmed at once.
  public static let liveValue = APIClient(
    fetchProducts: { CatalogProduct.catalog },
    sendOrder: { items in
      guard !items.isEmpty else { throw APIError.emptyOrder }
      let quantity = items.reduce(0) { $0 + $1.quantity }
      let total = items.reduce(0) { $0 + $1.totalPriceInCents }
      return "Your order of \(quantity) item\(quantity == 1 ? "" : "s") (\(formatPrice(total)))"
        + " is on its way."
    }
  )

  /// Fails the test when either endpoint is called.
  public static let testValue = APIClient(
    fetchProducts: { throw unimplemented("APIClient.fetchProducts") },
    sendOrder: { _ in throw unimplemented("APIClient.sendOrder") }
  )
}

extension DependencyValues {
  /// The shop's API client.
  public var apiClient: APIClient {
    get { self[APIClient.self] }
    set { self[APIClient.self] = newValue }
  }
}
