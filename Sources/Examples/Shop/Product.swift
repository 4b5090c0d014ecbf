import Architecture

/// A product of the shop's list, with its quantity stepper.
public struct Product: Reducer, Sendable {
  /// A product and the quantity chosen.
  public struct State: Codable, Equatable, Identifiable, Sendable {
    /// The catalog id (the `{id}` of the host's `shop/products/{id}` scope).
    public let id: Int
    /// The product.
    public var product: CatalogProduct
    /// The quantity stepper.
    public var addToCart: AddToCart.State

    /// Creates a product row.
    ///
    /// - Parameters:
    ///   - product: The product.
    ///   - addToCart: The quantity chosen.
    public init(product: CatalogProduct, addToCart: AddToCart.State = AddToCart.State()) {
      self.id = product.id
      self.product = product
      self.addToCart = addToCart
    }
  }

  /// A product's actions.
  public enum Action: Codable, Equatable, Sendable, CasePathable {
    /// An action of the quantity stepper.
    case addToCart(AddToCart.Action)

    /// The case paths of ``Product/Action``.
    public struct AllCasePaths: Sendable {
      /// `.addToCart`.
      public var addToCart: AnyCasePath<Action, AddToCart.Action> {
        .init(Action.addToCart) { if case .addToCart(let v) = $0 { v } else { nil } }
      }
    }

    /// The case paths of ``Product/Action``.
    public static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  /// Creates the product feature.
  public init() {}

  /// Runs the stepper on its part of the state.
  public var body: some ReducerOf<Self> {
    Scope(state: \.addToCart, action: \.addToCart) {
      AddToCart()
    }
  }
}
