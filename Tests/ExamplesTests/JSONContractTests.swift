import Examples
import Foundation
import Testing

/// The examples' JSON forms are a public contract (the host serves them to third-party
/// clients): each case here is checked against exact text, with Foundation's `JSONEncoder`
/// (sorted keys), and decoded back.
@Suite struct JSONContractTests {
  @Test func counterState() throws {
    try expectJSON(Counter.State(), #"{"count":0,"isLoading":false,"isTimerRunning":false}"#)
    try expectJSON(
      Counter.State(count: 3, fact: "3 is odd.", isLoading: false, isTimerRunning: true),
      #"{"count":3,"fact":"3 is odd.","isLoading":false,"isTimerRunning":true}"#)
  }

  @Test func counterActions() throws {
    try expectJSON(Counter.Action.incrementButtonTapped, #"{"incrementButtonTapped":{}}"#)
    try expectJSON(Counter.Action.decrementButtonTapped, #"{"decrementButtonTapped":{}}"#)
    try expectJSON(Counter.Action.factButtonTapped, #"{"factButtonTapped":{}}"#)
    try expectJSON(Counter.Action.factResponse("Hi"), #"{"factResponse":{"_0":"Hi"}}"#)
    try expectJSON(Counter.Action.timerTick, #"{"timerTick":{}}"#)
    try expectJSON(Counter.Action.toggleTimerButtonTapped, #"{"toggleTimerButtonTapped":{}}"#)
  }

  @Test func todoStateAndActions() throws {
    try expectJSON(
      Todo.State(description: "Milk", id: uuid(1)),
      #"{"description":"Milk","id":"00000000-0000-0000-0000-000000000001","isComplete":false}"#)
    try expectJSON(Todo.Action.toggleCompleted, #"{"toggleCompleted":{}}"#)
    try expectJSON(Todo.Action.setDescription("Milk"), #"{"setDescription":{"_0":"Milk"}}"#)
  }

  @Test func todosStateAndActions() throws {
    try expectJSON(
      Todos.State(filter: .active, todos: [Todo.State(description: "A", id: uuid(2))]),
      #"{"filter":"active","todos":[{"description":"A","#
        + #""id":"00000000-0000-0000-0000-000000000002","isComplete":false}]}"#)
    try expectJSON(Todos.Action.filterPicked(.active), #"{"filterPicked":{"_0":"active"}}"#)
    try expectJSON(Todos.Action.addTodoButtonTapped, #"{"addTodoButtonTapped":{}}"#)
    try expectJSON(Todos.Action.clearCompletedButtonTapped, #"{"clearCompletedButtonTapped":{}}"#)
    try expectJSON(
      Todos.Action.todos(.element(id: uuid(1), action: .toggleCompleted)),
      #"{"todos":{"_0":{"element":{"action":{"toggleCompleted":{}},"#
        + #""id":"00000000-0000-0000-0000-000000000001"}}}}"#)
    try expectJSON(
      Todos.Action.delete([0, 3, 4]),
      #"{"delete":{"_0":{"indexes":[{"length":1,"location":0},{"length":2,"location":3}]}}}"#)
    #expect(Filter.allCases.map(\.rawValue) == ["all", "active", "completed"])
  }

  @Test func shopStateAndActions() throws {
    try expectJSON(
      AddToCart.Action.didTapPlusButton, #"{"didTapPlusButton":{}}"#)
    try expectJSON(
      Product.State(product: .cap, addToCart: AddToCart.State(count: 2)),
      #"{"addToCart":{"count":2},"id":4,"product":{"category":"Accessories","#
        + #""description":"One size, adjustable strap.","id":4,"imageName":"cap","#
        + #""priceInCents":1250,"title":"Cap"}}"#)
    try expectJSON(
      Shop.State(),
      #"{"cart":null,"productList":{"loadingStatus":"notStarted","products":[]}}"#)
    try expectJSON(Shop.Action.task, #"{"task":{}}"#)
    try expectJSON(
      Shop.Action.productList(.products(.element(id: 4, action: .addToCart(.didTapPlusButton)))),
      #"{"productList":{"_0":{"products":{"_0":{"element":{"action":{"addToCart":{"_0":"#
        + #"{"didTapPlusButton":{}}}},"id":4}}}}}}"#)
    try expectJSON(
      Shop.Action.cart(.presented(.alert(.presented(.didConfirmPurchase)))),
      #"{"cart":{"_0":{"presented":{"_0":{"alert":{"_0":{"presented":{"_0":"#
        + #"{"didConfirmPurchase":{}}}}}}}}}}"#)
    try expectJSON(Shop.Action.cart(.dismiss), #"{"cart":{"_0":{"dismiss":{}}}}"#)
    try expectJSON(
      Cart.State(
        items: [CartItem.State(product: .cap, quantity: 1)], alert: .orderPlaced(confirmation: "OK")
      ),
      #"{"alert":{"buttons":[{"action":{"dismissSuccessAlert":{}},"label":"Done"}],"#
        + #""message":"OK","title":"Thank you!"},"isSendingOrder":false,"items":[{"id":4,"#
        + #""product":{"category":"Accessories","description":"One size, adjustable strap.","#
        + #""id":4,"imageName":"cap","priceInCents":1250,"title":"Cap"},"quantity":1}],"#
        + #""totalPriceInCents":1250}"#)
  }

  @Test func appActions() throws {
    try expectJSON(
      AppFeature.Action.counter(.incrementButtonTapped),
      #"{"counter":{"_0":{"incrementButtonTapped":{}}}}"#)
    let state = AppFeature.State()
    let decoded = try JSONDecoder().decode(
      AppFeature.State.self, from: JSONEncoder().encode(state))
    #expect(decoded == state)
  }
}

/// Checks a value's exact JSON (sorted keys) and that it decodes back to the value.
func expectJSON<T: Codable & Equatable>(
  _ value: T, _ json: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  let data = try encoder.encode(value)
  #expect(String(decoding: data, as: UTF8.self) == json, sourceLocation: sourceLocation)
  #expect(
    try JSONDecoder().decode(T.self, from: Data(json.utf8)) == value,
    sourceLocation: sourceLocation)
}
