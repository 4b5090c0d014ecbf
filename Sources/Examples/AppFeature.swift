import Architecture

/// The demo app the host serves: the counter, the to-dos and the shop, side by side.
///
/// The host's scopes, with their key paths and case paths:
///
/// | scope | state | action |
/// | --- | --- | --- |
/// | `counter` | `\.counter` | `\.counter` (``Counter/Action``) |
/// | `todos` | `\.todos` | `\.todos` (``Todos/Action``) |
/// | `todos/{id}` | `\.todos.todos[id: id]` | `\.todos.todos[id: id]` (``Todo/Action``) |
/// | `shop` | `\.shop` | `\.shop` (``Shop/Action``) |
/// | `shop/products` | `\.shop.productList` | `\.shop.productList` (``ProductList/Action``) |
/// | `shop/products/{id}` | `\.shop.productList.products[id: id]` | `\.shop.productList.products[id: id]` (``Product/Action``) |
/// | `shop/products/{id}/addToCart` | `\.shop.productList.products[id: id]?.addToCart` | `\.shop.productList.products[id: id].addToCart` (``AddToCart/Action``) |
/// | `shop/cart` | `\.shop.cart` (`nil` when closed) | `\.shop.cart.presented` (``Cart/Action``) |
///
/// Send `.shop(.task)` at start to load the products.
public struct AppFeature: Reducer, Sendable {
  /// The app's state.
  public struct State: Codable, Equatable, Sendable {
    /// The counter.
    public var counter: Counter.State
    /// The to-dos.
    public var todos: Todos.State
    /// The shop.
    public var shop: Shop.State

    /// Creates the app's state; by default a zero counter, a few demo to-dos
    /// (``Todos/State/demo``) and a shop whose products are not loaded yet.
    ///
    /// - Parameters:
    ///   - counter: The counter.
    ///   - todos: The to-dos.
    ///   - shop: The shop.
    public init(
      counter: Counter.State = Counter.State(),
      todos: Todos.State = .demo,
      shop: Shop.State = Shop.State()
    ) {
      self.counter = counter
      self.todos = todos
      self.shop = shop
    }
  }

  /// The app's actions: one case per feature.
  public enum Action: Codable, Equatable, Sendable, CasePathable {
    /// A counter action.
    case counter(Counter.Action)
    /// A to-do list action.
    case todos(Todos.Action)
    /// A shop action.
    case shop(Shop.Action)

    /// The case paths of ``AppFeature/Action``.
    public struct AllCasePaths: Sendable {
      /// `.counter`.
      public var counter: AnyCasePath<Action, Counter.Action> {
        .init(Action.counter) { if case .counter(let v) = $0 { v } else { nil } }
      }
      /// `.todos`.
      public var todos: AnyCasePath<Action, Todos.Action> {
        .init(Action.todos) { if case .todos(let v) = $0 { v } else { nil } }
      }
      /// `.shop`.
      public var shop: AnyCasePath<Action, Shop.Action> {
        .init(Action.shop) { if case .shop(let v) = $0 { v } else { nil } }
      }
    }

    /// The case paths of ``AppFeature/Action``.
    public static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  /// Creates the app feature.
  public init() {}

  /// The three features, each on its part of the state.
  public var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: \.counter) {
      Counter()
    }
    Scope(state: \.todos, action: \.todos) {
      Todos()
    }
    Scope(state: \.shop, action: \.shop) {
      Shop()
    }
  }
}
