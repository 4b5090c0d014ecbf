/// Makes the fuzzer's requests: every request type of the protocol, with valid and invalid
/// members, for the example app's scopes (PROTOCOL.md §2, §3, §8), plus malformed frames.
///
/// Requests are built as text: the point is also to send what a well-behaved encoder never
/// would (wrong types, missing members, unknown types, JSON that is not an object).
struct RequestGenerator {
  /// Ids of to-dos seen in the host's replies, so that `todos/{id}` scopes mostly exist.
  var todoIDs: [String] = [
    "5EED0000-0000-0000-0000-000000000001", "5EED0000-0000-0000-0000-000000000002",
    "5EED0000-0000-0000-0000-000000000003",
  ]
  /// The newest root revision seen, for `get` with `at` and `since`.
  var newestRevision: Int64 = 0

  private static let fixedScopes = [
    "counter", "todos", "shop", "shop/products", "shop/products/1", "shop/products/2",
    "shop/products/3/addToCart", "shop/products/4/addToCart", "shop/cart", "_host",
  ]
  private static let badScopes = [
    "", "nope", "todos/", "todos/not-an-id", "counter/extra", "shop/products/999",
    "shop/products/x/addToCart", "/", "{id}", "todos/{id}", "shop//products", "été/☃",
    String(repeating: "a/", count: 300),
  ]

  /// A scope name: usually one that exists, sometimes not.
  mutating func scope(_ random: inout SplitMix64) -> String {
    if random.chance(10) { return random.pick(Self.badScopes) }
    if random.chance(25), !self.todoIDs.isEmpty { return "todos/" + random.pick(self.todoIDs) }
    return random.pick(Self.fixedScopes)
  }

  /// A scope pattern or name for `history` and `tail` filters.
  mutating func filter(_ random: inout SplitMix64) -> String {
    random.chance(30) ? random.pick(["todos/{id}", "shop/products/{id}", "*", "{id}"]) : self.scope(&random)
  }

  /// An action for `scope`: mostly one it accepts; sometimes one it does not.
  func action(for scope: String, _ random: inout SplitMix64) -> String {
    if random.chance(12) {
      return random.pick([
        #"{"nope":{}}"#, "5", #""incrementButtonTapped""#, "null", "[]", #"{"incrementButtonTapped":5}"#,
        #"{"setDescription":{"_0":7}}"#, #"{"a":{},"b":{}}"#, #"{"delete":{"_0":{"indexes":"x"}}}"#,
      ])
    }
    if scope == "counter" {
      return random.pick([
        #"{"incrementButtonTapped":{}}"#, #"{"decrementButtonTapped":{}}"#,
        #"{"factButtonTapped":{}}"#, #"{"toggleTimerButtonTapped":{}}"#,
        #"{"factResponse":{"_0":"fuzz"}}"#,
      ])
    }
    if scope == "todos" {
      // Deleting is likelier than adding, so the list stays short however long the run.
      return random.pick([
        #"{"addTodoButtonTapped":{}}"#, #"{"clearCompletedButtonTapped":{}}"#,
        #"{"delete":{"_0":{"indexes":[{"location":0,"length":1}]}}}"#,
        #"{"delete":{"_0":{"indexes":[{"location":0,"length":1}]}}}"#,
        #"{"filterPicked":{"_0":"active"}}"#, #"{"filterPicked":{"_0":"all"}}"#,
      ])
    }
    if scope.hasPrefix("todos/") {
      let text = String(repeating: "x", count: Int.random(in: 0..<64, using: &random))
      return random.pick([#"{"toggleCompleted":{}}"#, #"{"setDescription":{"_0":"\#(text)"}}"#])
    }
    if scope.hasSuffix("/addToCart") {
      return random.pick([#"{"didTapPlusButton":{}}"#, #"{"didTapMinusButton":{}}"#])
    }
    if scope == "shop/cart" {
      return random.pick([#"{"closeButtonTapped":{}}"#, #"{"payButtonTapped":{}}"#])
    }
    return #"{"fetchProducts":{}}"#
  }

  /// A revision for `at` or `since`: near the newest mostly, sometimes out of range.
  func revision(_ random: inout SplitMix64) -> Int64 {
    switch Int.random(in: 0..<10, using: &random) {
    case 0: return -Int64.random(in: 1...5, using: &random)
    case 1: return 0
    case 2: return self.newestRevision + Int64.random(in: 1...1_000, using: &random)
    case 3: return Int64.max
    default: return max(0, self.newestRevision - Int64.random(in: 0...3_000, using: &random))
    }
  }

  /// One request after the handshake, as a frame's JSON text.
  ///
  /// - Parameters:
  ///   - id: The request id to use.
  ///   - subs: The subscription and tail ids the connection holds.
  mutating func request(id: Int64, subs: [Int64], _ random: inout SplitMix64) -> String {
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<22:
      let scope = self.scope(&random)
      let withID = random.chance(85)
      return #"{"type":"send","scope":\#(quoted(scope)),"action":\#(self.action(for: scope, &random))"#
        + (withID ? #","id":\#(id)}"# : "}")
    case 22..<32:
      return #"{"type":"get","id":\#(id),"scope":\#(quoted(self.scope(&random)))}"#
    case 32..<38:
      return #"{"type":"get","id":\#(id),"scope":\#(quoted(self.scope(&random))),"at":\#(self.revision(&random))}"#
    case 38..<48:
      return #"{"type":"subscribe","id":\#(id),"scope":\#(quoted(self.scope(&random)))}"#
    case 48..<58:
      let sub = subs.isEmpty || random.chance(20) ? Int64.random(in: -2...50, using: &random) : random.pick(subs)
      return #"{"type":"unsubscribe","id":\#(id),"sub":\#(sub)}"#
    case 58..<65:
      var text = #"{"type":"history","id":\#(id)"#
      if random.chance(60) { text += #","since":\#(self.revision(&random))"# }
      if random.chance(50) { text += #","limit":\#(random.pick([-1, 0, 1, 10, 100, 10_000, 10_001]))"# }
      if random.chance(30) { text += #","scope":\#(quoted(self.filter(&random)))"# }
      return text + "}"
    case 65..<75:
      var text = #"{"type":"tail","id":\#(id)"#
      if random.chance(60) { text += #","since":\#(self.revision(&random))"# }
      if random.chance(30) { text += #","scope":\#(quoted(self.filter(&random)))"# }
      return text + "}"
    case 75..<80:
      return #"{"type":"ping","id":\#(id)}"#
    case 80..<83:
      return #"{"type":"scopes","id":\#(id)}"#
    case 83..<86:
      return #"{"type":"hello","protocol":1}"#
    default:
      return random.pick([
        #"{"type":"frobnicate","id":\#(id)}"#, #"{"id":\#(id)}"#, #"{"type":"get","id":\#(id)}"#,
        #"{"type":"send","scope":"counter"}"#, #"{"type":"get","id":"x","scope":"counter"}"#,
        #"{"type":"subscribe","id":\#(id),"scope":5}"#, #"{"type":"unsubscribe","id":\#(id)}"#,
        #"{"type":"tail","id":\#(id),"since":"yesterday"}"#, #"{"type":"ping","id":1e400}"#,
        #"{"type":"ping","id":123456789012345678901234567890}"#, "[1,2,3]", "\"text\"",
        "{\"type\":\"ping\"", "not json at all", #"{"type":"ping","id":\#(id)}{}"#,
      ])
    }
  }

  /// A first frame: usually a valid hello, sometimes something the host must refuse.
  func hello(_ random: inout SplitMix64) -> String {
    guard random.chance(10) else { return #"{"type":"hello","protocol":1,"client":"fuzz"}"# }
    return random.pick([
      #"{"type":"hello","protocol":2}"#, #"{"type":"hello"}"#, #"{"type":"ping","id":1}"#,
      #"{"type":"hello","protocol":"1"}"#, "garbage",
    ])
  }

  /// Learns to-do ids and the newest revision from one of the host's replies.
  mutating func learn(from text: Substring) {
    if let range = text.range(of: #""rev":"#) {
      let digits = text[range.upperBound...].prefix { $0.isNumber }
      if let revision = Int64(digits), revision > self.newestRevision { self.newestRevision = revision }
    }
    var rest = text[...]
    while let range = rest.range(of: #""id":""#) {
      let id = rest[range.upperBound...].prefix { $0 != "\"" }
      if id.count == 36, !self.todoIDs.contains(String(id)) {
        self.todoIDs.append(String(id))
        if self.todoIDs.count > 64 { self.todoIDs.removeFirst() }
      }
      rest = rest[range.upperBound...]
    }
  }
}

/// `text` as a JSON string literal.
func quoted(_ text: String) -> String {
  var result = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": result += "\\\""
    case "\\": result += "\\\\"
    case "\u{0}"..."\u{1F}": result += "\\u00" + String(scalar.value, radix: 16).leftPadded(to: 2)
    default: result.unicodeScalars.append(scalar)
    }
  }
  return result + "\""
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - self.count)) + self
  }
}
