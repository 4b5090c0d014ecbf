import Architecture

/// A line of the cart: a product and its quantity.
public struct CartItem: Reducer, Sendable {
  /// A cart line.
  public struct State: Codable, Equatable, Identifiable, Sendable {
    /// The product's catalog id.
    public let id: Int
    /// The product.
    public var product: CatalogProduct
    /// How many of it.
    public var quantity: Int

    /// Creates a cart line.
    ///
    /// - Parameters:
    ///   - product: The product.
    ///   - quantity: How many of it.
    public init(product: CatalogProduct, quantity: Int) {
      self.id = product.id
      self.product = product
      self.quantity = quantity
    }

    /// The line's price, in cents.
    public var totalPriceInCents: Int {
      self.product.priceInCents * self.quantity
    }
  }

  /// A cart line's actions.
  public enum Action: Codable, Equatable, Sendable, CasePathable {
    /// Removes the line from the cart (handled by ``Cart``, and by ``Shop``, which resets the
    /// product's quantity).
    case deleteButtonTapped

    /// The case paths of ``CartItem/Action``.
    public struct AllCasePaths: Sendable {
      /// `.deleteButtonTapped`.
      public var deleteButtonTapped: AnyCasePath<Action, Void> {
        .init(.deleteButtonTapped) { if case .deleteButtonTapped = $0 { true } else { false } }
      }
    }

    /// The case paths of ``CartItem/Action``.
    public static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  /// Creates the cart line feature.
  public init() {}

  /// A line has no logic of its own: its parents handle deletion.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .none
  }
}
