import Architecture

/// The shop of the OnlineStoreTCA demo: a product list with a quantity stepper per product, and
/// a cart presented on demand, from which the order is placed.
///
/// ```swift
/// let store = Store(initialState: Shop.State()) { Shop() }
/// await store.send(.task).finish()                      // loads the catalog
/// await store.send(.productList(.products(.element(id: 1, action: .addToCart(.didTapPlusButton)))))
/// await store.send(.cartButtonTapped)                   // presents the cart
/// ```
///
/// The host's scopes into it: `shop` (`\.shop`), `shop/products` (`\.shop.productList`),
/// `shop/products/{id}` (`\.shop.productList.products[id:]`),
/// `shop/products/{id}/addToCart` (`…[id:]?.addToCart`, action `…[id: id].addToCart`) and
/// `shop/cart` (`\.shop.cart`, action `\.shop.cart.presented`), present while the cart is.
public struct Shop: Reducer, Sendable {
  /// The shop.
  public struct State: Codable, Equatable, Sendable {
    /// The cart, when presented.
    @Presents public var cart: Cart.State?
    /// The products.
    public var productList: ProductList.State

    /// Creates a shop state.
    ///
    /// - Parameters:
    ///   - productList: The products (none until ``Action/task`` loads them).
    ///   - cart: The presented cart.
    public init(productList: ProductList.State = ProductList.State(), cart: Cart.State? = nil) {
      self.cart = cart
      self.productList = productList
    }
  }

  /// The shop's actions.
  public enum Action: Codable, Equatable, Sendable, CasePathable {
    /// An action of the presented cart, or its dismissal.
    case cart(PresentationAction<Cart.Action>)
    /// Presents the cart with the products whose quantity is above 0.
    case cartButtonTapped
    /// An action of the product list.
    case productList(ProductList.Action)
    /// The shop appeared: loads the products (the host sends it at start).
    case task

    /// The case paths of ``Shop/Action``.
    public struct AllCasePaths: Sendable {
      /// `.cart`; `\.cart.presented` reaches the cart's actions.
      public var cart: AnyCasePath<Action, PresentationAction<Cart.Action>> {
        .init(Action.cart) { if case .cart(let v) = $0 { v } else { nil } }
      }
      /// `.cartButtonTapped`.
      public var cartButtonTapped: AnyCasePath<Action, Void> {
        .init(.cartButtonTapped) { if case .cartButtonTapped = $0 { true } else { false } }
      }
      /// `.productList`.
      public var productList: AnyCasePath<Action, ProductList.Action> {
        .init(Action.productList) { if case .productList(let v) = $0 { v } else { nil } }
      }
      /// `.task`.
      public var task: AnyCasePath<Action, Void> {
        .init(.task) { if case .task = $0 { true } else { false } }
      }
    }

    /// The case paths of ``Shop/Action``.
    public static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  /// Creates the shop feature.
  public init() {}

  /// The product list, the cart's presentation, and what the cart's actions mean for the list.
  public var body: some ReducerOf<Self> {
    Scope(state: \.productList, action: \.productList) {
      ProductList()
    }
    Reduce { state, action in
      switch action {
      case .cart(.presented(.closeButtonTapped)):
        state.cart = nil
        return .none

      case .cart(.presented(.alert(.presented(.dismissSuccessAlert)))):
        // The order is placed: empty the cart.
        for id in state.productList.products.ids {
          state.productList.products[id: id]?.addToCart.count = 0
        }
        state.cart = nil
        return .none

      case .cart(.presented(.items(.element(let id, .deleteButtonTapped)))):
        state.productList.products[id: id]?.addToCart.count = 0
        return .none

      case .cart:
        return .none

      case .cartButtonTapped:
        let items = state.productList.products
          .filter { $0.addToCart.count > 0 }
          .map { CartItem.State(product: $0.product, quantity: $0.addToCart.count) }
        state.cart = Cart.State(items: IdentifiedArrayOf(uniqueElements: items))
        return .none

      case .productList:
        return .none

      case .task:
        return .send(.productList(.fetchProducts))
      }
    }
    .ifLet(\.$cart, action: \.cart) {
      Cart()
    }
  }
}
