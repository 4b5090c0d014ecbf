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

  /// Starts the named app on `configuration`'s socket, with its state kept as `persistence`
  /// says, then resumes what the state says was running.
  static func start(
    _ name: String, configuration: HostConfiguration, persistence: Persistence
  ) async throws(HostStartError) -> StoreHost<AppFeature.State, AppFeature.Action> {
    let host = try await StoreHost.start(
      app: name, initialState: AppFeature.State(), reducer: { AppFeature() }, scopes: scopes,
      configuration: configuration, persistence: persistence)
    guard host.recovery != nil else {
      // A new state: load the shop's catalog, as the app's `task` would on appear.
      await host.send(.shop(.task))
      return host
    }
    await self.resume(host)
    return host
  }

  /// After a restart, the effects the previous host ran are gone while the recovered state
  /// still says they run: start them again (and send nothing when nothing was running, so
  /// that a restart alone never changes the state or its revision).
  static func resume(_ host: StoreHost<AppFeature.State, AppFeature.Action>) async {
    let state = await host.state
    if state.counter.isTimerRunning || state.counter.isLoading {
      await host.send(.counter(.stateRestored))
    }
    switch state.shop.productList.loadingStatus {
    case .loaded, .failed:
      break
    case .loading:
      // The fetch in flight was lost with the previous host: it failed; fetch again.
      await host.send(
        .shop(.productList(.fetchProductsFailed("the host restarted while loading"))))
      await host.send(.shop(.task))
    case .notStarted:
      await host.send(.shop(.task))
    }
  }
}
