import Architecture
import Examples
import Testing

/// The shop, tested as the OnlineStoreTCA demo's README tests it: the happy path of loading
/// products, the side effects of ordering, and removing from the cart.
@Suite struct ShopTests {
  // MARK: - Happy path: fetching products

  @Test func fetchingProductsShowsThem() async {
    let store = TestStore(initialState: Shop.State()) {
      Shop()
    } withDependencies: {
      $0.apiClient.fetchProducts = { [.tshirt, .bag] }
    }

    await store.send(.task)
    await store.receive(\.productList.fetchProducts) {
      $0.productList.loadingStatus = .loading
    }
    await store.receive(.productList(.fetchProductsResponse([.tshirt, .bag]))) {
      $0.productList.loadingStatus = .loaded
      $0.productList.products = [Product.State(product: .tshirt), Product.State(product: .bag)]
    }
    // Loaded: asking again does nothing.
    await store.send(.productList(.fetchProducts))
  }

  @Test func fetchingProductsFails() async {
    let store = TestStore(initialState: Shop.State()) {
      Shop()
    } withDependencies: {
      $0.apiClient.fetchProducts = { throw APIError.emptyOrder }
    }

    await store.send(.productList(.fetchProducts)) {
      $0.productList.loadingStatus = .loading
    }
    await store.receive(\.productList.fetchProductsFailed) {
      $0.productList.loadingStatus = .failed
      $0.productList.errorMessage = "An order needs at least one item."
    }
  }

  @Test func liveAPIServesTheCatalog() async throws {
    #expect(try await APIClient.liveValue.fetchProducts() == CatalogProduct.catalog)
    let items = [CartItem.State(product: .tshirt, quantity: 2)]
    #expect(
      try await APIClient.liveValue.sendOrder(items)
        == "Your order of 2 items ($39.98) is on its way.")
    await #expect(throws: APIError.emptyOrder) {
      try await APIClient.liveValue.sendOrder([])
    }
  }

  // MARK: - Add to cart

  @Test func quantityStepperStaysInBounds() async {
    let store = TestStore(initialState: Shop.State(productList: loaded())) { Shop() }
    await store.send(
      .productList(.products(.element(id: 1, action: .addToCart(.didTapMinusButton)))))
    await store.send(
      .productList(.products(.element(id: 1, action: .addToCart(.didTapPlusButton))))
    ) {
      $0.productList.products[id: 1]?.addToCart.count = 1
    }
    await store.send(
      .productList(.products(.element(id: 1, action: .addToCart(.didTapMinusButton))))
    ) {
      $0.productList.products[id: 1]?.addToCart.count = 0
    }
    let full = TestStore(
      initialState: AddToCart.State(count: AddToCart.maximumCount)
    ) { AddToCart() }
    await full.send(.didTapPlusButton)
  }

  @Test func openingTheCartListsChosenProductsWithTheirTotal() async {
    let store = TestStore(
      initialState: Shop.State(productList: loaded(tshirts: 2, bags: 0, caps: 1))
    ) { Shop() }
    await store.send(.cartButtonTapped) {
      $0.cart = Cart.State(items: [
        CartItem.State(product: .tshirt, quantity: 2),
        CartItem.State(product: .cap, quantity: 1),
      ])
    }
    #expect(store.state.cart?.totalPriceInCents == 2 * 1999 + 1250)
    await store.send(.cart(.presented(.closeButtonTapped))) {
      $0.cart = nil
    }
  }

  // MARK: - Side effects: ordering

  @Test func orderingPlacesTheOrderAndEmptiesTheCart() async {
    let store = TestStore(
      initialState: Shop.State(productList: loaded(tshirts: 2, bags: 1))
    ) {
      Shop()
    } withDependencies: {
      $0.apiClient.sendOrder = { items in "Order of \(items.count) lines placed." }
    }

    await store.send(.cartButtonTapped) {
      $0.cart = Cart.State(items: [
        CartItem.State(product: .tshirt, quantity: 2),
        CartItem.State(product: .bag, quantity: 1),
      ])
    }
    await store.send(.cart(.presented(.payButtonTapped))) {
      $0.cart?.alert = .confirmPurchase(totalPriceInCents: 8498)
    }
    #expect(
      store.state.cart?.alert?.message
        == TextState("Do you want to proceed with your purchase of $84.98?"))
    await store.send(\.cart.alert.didConfirmPurchase) {
      $0.cart?.alert = nil
      $0.cart?.isSendingOrder = true
    }
    await store.receive(.cart(.presented(.purchaseSucceeded("Order of 2 lines placed.")))) {
      $0.cart?.isSendingOrder = false
      $0.cart?.alert = .orderPlaced(confirmation: "Order of 2 lines placed.")
    }
    await store.send(\.cart.alert.dismissSuccessAlert) {
      $0.cart = nil
      $0.productList.products[id: 1]?.addToCart.count = 0
      $0.productList.products[id: 3]?.addToCart.count = 0
    }
  }

  @Test func orderingFailureShowsAnErrorAndKeepsTheCart() async {
    let store = TestStore(initialState: Shop.State(productList: loaded(tshirts: 1))) {
      Shop()
    } withDependencies: {
      $0.apiClient.sendOrder = { _ in throw APIError.emptyOrder }
    }

    await store.send(.cartButtonTapped) {
      $0.cart = Cart.State(items: [CartItem.State(product: .tshirt, quantity: 1)])
    }
    await store.send(.cart(.presented(.payButtonTapped))) {
      $0.cart?.alert = .confirmPurchase(totalPriceInCents: 1999)
    }
    await store.send(.cart(.presented(.alert(.presented(.didConfirmPurchase))))) {
      $0.cart?.alert = nil
      $0.cart?.isSendingOrder = true
    }
    await store.receive(\.cart.presented.purchaseFailed) {
      $0.cart?.isSendingOrder = false
      $0.cart?.alert = .orderFailed(reason: "An order needs at least one item.")
    }
    await store.send(\.cart.alert.dismissErrorAlert) {
      $0.cart?.alert = nil
    }
  }

  @Test func cancellingTheConfirmationSendsNothing() async {
    let store = TestStore(initialState: Shop.State(productList: loaded(tshirts: 1))) { Shop() }
    await store.send(.cartButtonTapped) {
      $0.cart = Cart.State(items: [CartItem.State(product: .tshirt, quantity: 1)])
    }
    await store.send(.cart(.presented(.payButtonTapped))) {
      $0.cart?.alert = .confirmPurchase(totalPriceInCents: 1999)
    }
    await store.send(.cart(.presented(.alert(.presented(.didCancelConfirmation))))) {
      $0.cart?.alert = nil
    }
  }

  @Test func closingTheCartCancelsAnOrderInFlight() async {
    let store = TestStore(initialState: Shop.State(productList: loaded(tshirts: 1))) {
      Shop()
    } withDependencies: {
      $0.apiClient.sendOrder = { _ in
        try await Task.sleep(for: .seconds(60))
        return "late"
      }
    }
    await store.send(.cartButtonTapped) {
      $0.cart = Cart.State(items: [CartItem.State(product: .tshirt, quantity: 1)])
    }
    await store.send(.cart(.presented(.payButtonTapped))) {
      $0.cart?.alert = .confirmPurchase(totalPriceInCents: 1999)
    }
    await store.send(.cart(.presented(.alert(.presented(.didConfirmPurchase))))) {
      $0.cart?.alert = nil
      $0.cart?.isSendingOrder = true
    }
    // Dismissing the cart ends its presentation, which cancels its effects.
    await store.send(.cart(.dismiss)) {
      $0.cart = nil
    }
    await store.finish()
  }

  // MARK: - Removing from the cart

  @Test func removingFromTheCartResetsTheProduct() async {
    let store = TestStore(
      initialState: Shop.State(productList: loaded(tshirts: 2, bags: 1))
    ) { Shop() }

    await store.send(.cartButtonTapped) {
      $0.cart = Cart.State(items: [
        CartItem.State(product: .tshirt, quantity: 2),
        CartItem.State(product: .bag, quantity: 1),
      ])
    }
    await store.send(.cart(.presented(.items(.element(id: 1, action: .deleteButtonTapped))))) {
      $0.cart?.items.remove(id: 1)
      $0.cart?.totalPriceInCents = 4500
      $0.productList.products[id: 1]?.addToCart.count = 0
    }
    // The cart with nothing left can't be paid.
    await store.send(.cart(.presented(.items(.element(id: 3, action: .deleteButtonTapped))))) {
      $0.cart?.items = []
      $0.cart?.totalPriceInCents = 0
      $0.productList.products[id: 3]?.addToCart.count = 0
    }
    await store.send(.cart(.presented(.payButtonTapped)))
  }

  @Test func apiIsUnimplementedInTests() async {
    await withKnownIssue {
      let store = TestStore(initialState: Shop.State()) { Shop() }
      store.exhaustivity = .off
      await store.send(.productList(.fetchProducts))
      await store.receive(\.productList.fetchProductsFailed)
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        "Unimplemented: APIClient.fetchProducts was called in a test context."
          + " Override it with withDependencies."
      ]
    }
  }
}

extension CatalogProduct {
  static let tshirt = CatalogProduct.catalog[0]
  static let jacket = CatalogProduct.catalog[1]
  static let bag = CatalogProduct.catalog[2]
  static let cap = CatalogProduct.catalog[3]
}

/// The loaded catalog, with quantities chosen.
func loaded(tshirts: Int = 0, bags: Int = 0, caps: Int = 0) -> ProductList.State {
  ProductList.State(
    loadingStatus: .loaded,
    products: [
      Product.State(product: .tshirt, addToCart: AddToCart.State(count: tshirts)),
      Product.State(product: .jacket),
      Product.State(product: .bag, addToCart: AddToCart.State(count: bags)),
      Product.State(product: .cap, addToCart: AddToCart.State(count: caps)),
    ]
  )
}
