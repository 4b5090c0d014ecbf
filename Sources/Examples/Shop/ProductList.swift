import Architecture

/// The shop's product list, fetched through ``APIClient``.
public struct ProductList: Reducer, Sendable {
  /// Where fetching the products is at.
  public enum LoadingStatus: String, Codable, Equatable, Sendable {
    /// Not asked yet.
    case notStarted
    /// Being fetched.
    case loading
    /// Fetched.
    case loaded
    /// The fetch failed (see ``ProductList/State/errorMessage``); fetching again retries.
    case failed
  }

  /// The products.
  public struct State: Codable, Equatable, Sendable {
    /// Where fetching is at.
    public var loadingStatus: LoadingStatus
    /// The products, in catalog order (the host's `shop/products` scope).
    public var products: IdentifiedArrayOf<Product.State>
    /// Why the last fetch failed.
    public var errorMessage: String?

    /// Creates a product list.
    ///
    /// - Parameters:
    ///   - loadingStatus: Where fetching is at.
    ///   - products: The products.
    ///   - errorMessage: Why the last fetch failed.
    public init(
      loadingStatus: LoadingStatus = .notStarted,
      products: IdentifiedArrayOf<Product.State> = [],
      errorMessage: String? = nil
    ) {
      self.loadingStatus = loadingStatus
      self.products = products
      self.errorMessage = errorMessage
    }
  }

  /// The list's actions.
  public enum Action: Codable, Equatable, Sendable, CasePathable {
    /// Fetches the products, unless they are loaded or being loaded.
    case fetchProducts
    /// The fetch failed, with a reason.
    case fetchProductsFailed(String)
    /// The products fetched.
    case fetchProductsResponse([CatalogProduct])
    /// An action of one product: `\.products[id: id]`.
    case products(IdentifiedActionOf<Product>)

    /// The case paths of ``ProductList/Action``.
    public struct AllCasePaths: Sendable {
      /// `.fetchProducts`.
      public var fetchProducts: AnyCasePath<Action, Void> {
        .init(.fetchProducts) { if case .fetchProducts = $0 { true } else { false } }
      }
      /// `.fetchProductsFailed`.
      public var fetchProductsFailed: AnyCasePath<Action, String> {
        .init(Action.fetchProductsFailed) {
          if case .fetchProductsFailed(let v) = $0 { v } else { nil }
        }
      }
      /// `.fetchProductsResponse`.
      public var fetchProductsResponse: AnyCasePath<Action, [CatalogProduct]> {
        .init(Action.fetchProductsResponse) {
          if case .fetchProductsResponse(let v) = $0 { v } else { nil }
        }
      }
      /// `.products`; `\.products[id: id]` reaches one product's actions.
      public var products: AnyCasePath<Action, IdentifiedActionOf<Product>> {
        .init(Action.products) { if case .products(let v) = $0 { v } else { nil } }
      }
    }

    /// The case paths of ``ProductList/Action``.
    public static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  @Dependency(\.apiClient) var apiClient

  /// Creates the product list feature.
  public init() {}

  /// Fetching, and each product's logic through `forEach`.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .fetchProducts:
        guard state.loadingStatus != .loading, state.loadingStatus != .loaded else {
          return .none
        }
        state.loadingStatus = .loading
        state.errorMessage = nil
        return .run { send in
          await send(.fetchProductsResponse(try await self.apiClient.fetchProducts()))
        } catch: { error, send in
          await send(.fetchProductsFailed("\(error)"))
        }

      case .fetchProductsFailed(let message):
        state.loadingStatus = .failed
        state.errorMessage = message
        return .none

      case .fetchProductsResponse(let products):
        state.loadingStatus = .loaded
        var list = IdentifiedArrayOf<Product.State>()
        // `append` keeps the first of duplicated ids: the API's data must not crash the host.
        for product in products { list.append(Product.State(product: product)) }
        state.products = list
        return .none

      case .products:
        return .none
      }
    }
    .forEach(\.products, action: \.products) {
      Product()
    }
  }
}
