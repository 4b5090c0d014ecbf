import Examples
import Hosting

/// The apps `storehost` can serve, and the scopes each exposes (a public contract: the
/// scope names and JSON shapes are what third-party clients rely on).
enum ExampleApp {
  /// The names accepted by `--app`.
  static let names = ["examples"]

  /// The example app's scopes, declared next to its root reducer, one line each.
  static var scopes: [HostedScope<AppFeature.State, AppFeature.Action>] {
    [
      .scope(
        "counter", state: \.counter, action: \.counter,
        description: "The tutorial counter: count, a number fact, a one-second timer"),
      .scope("todos", state: \.todos, action: \.todos, description: "The to-do list and its filter"),
      .element(
        "todos/{id}", of: \.todos.todos, action: \.todos.todos, description: "One to-do, by id"),
      .scope("shop", state: \.shop, action: \.shop, description: "The whole shop: products and cart"),
      .scope(
        "shop/products", state: \.shop.productList, action: \.shop.productList,
        description: "The product list"),
      .element(
        "shop/products/{id}", of: \.shop.productList.products, action: \.shop.productList.products,
        description: "One product, by id"),
      .element(
        "shop/products/{id}/addToCart", of: \.shop.productList.products,
        action: \.shop.productList.products, state: \.addToCart, action: \.addToCart,
        description: "A product's quantity stepper"),
      .optional(
        "shop/cart", state: \.shop.cart, action: \.shop.cart.presented,
        description: "The cart, while it is presented"),
    ]
  }

  /// Starts the named app on `configuration`'s socket.
  static func start(
    _ name: String, configuration: HostConfiguration
  ) async throws(HostStartError) -> StoreHost<AppFeature.State, AppFeature.Action> {
    let host = try await StoreHost.start(
      app: name, initialState: AppFeature.State(), reducer: { AppFeature() }, scopes: scopes,
      configuration: configuration)
    // Load the shop's catalog, as the app's `task` would on appear.
    await host.send(.shop(.task))
    return host
  }
}
