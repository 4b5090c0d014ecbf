import Testing

@testable import Wire

@Suite struct HostMessageTests {
  static let state: JSON = .object(["count": .int(3), "isTimerRunning": .bool(false)])

  /// Every host message, its JSON text as `encodeFrame` writes it.
  static let cases: [(HostMessage, String)] = [
    (
      .welcome(protocol: 1, host: "storehost/1.0", app: "shop", session: "7"),
      #"{"type":"welcome","protocol":1,"host":"storehost/1.0","app":"shop","session":"7"}"#
    ),
    (
      .welcome(
        protocol: 1, host: "storehost/1.0", app: "shop", session: "7",
        features: ["history", "durable"]),
      #"{"type":"welcome","protocol":1,"host":"storehost/1.0","app":"shop","session":"7","features":["history","durable"]}"#
    ),
    (
      .history(
        id: 4, oldest: 1, rev: 43,
        entries: [
          HistoryEntry(
            rev: 42, time: "2026-11-24T14:00:00.123Z",
            origin: .client(session: "7", client: "storeclient/1.0", pid: 1234, uid: 1000),
            scope: "counter", action: .object(["incrementButtonTapped": .object([:])])),
          HistoryEntry(
            rev: 43, time: "2026-11-24T14:00:01.000Z", origin: .effect, scope: nil,
            action: .object(["counter": .object(["timerTick": .object([:])])])),
        ]),
      #"{"type":"history","id":4,"oldest":1,"rev":43,"entries":[{"rev":42,"time":"2026-11-24T14:00:00.123Z","origin":{"kind":"client","session":"7","client":"storeclient/1.0","pid":1234,"uid":1000},"scope":"counter","action":{"incrementButtonTapped":{}}},{"rev":43,"time":"2026-11-24T14:00:01.000Z","origin":{"kind":"effect"},"scope":null,"action":{"counter":{"timerTick":{}}}}]}"#
    ),
    (.tailing(id: 9, sub: 3, rev: 43), #"{"type":"tailing","id":9,"sub":3,"rev":43}"#),
    (
      .entry(
        sub: 3,
        entry: HistoryEntry(
          rev: 44, time: "2026-11-24T14:00:02.000Z", origin: .host, scope: nil, action: nil)),
      #"{"type":"entry","sub":3,"rev":44,"time":"2026-11-24T14:00:02.000Z","origin":{"kind":"host"},"scope":null,"action":null}"#
    ),
    (.entryGap(sub: 3, from: 44, to: 90), #"{"type":"entry_gap","sub":3,"from":44,"to":90}"#),
    (
      .scopes(
        id: 1,
        scopes: [
          ScopeInfo(pattern: "counter", writable: true, description: "The counter"),
          ScopeInfo(pattern: "_host", writable: false),
        ]),
      #"{"type":"scopes","id":1,"scopes":[{"pattern":"counter","writable":true,"description":"The counter"},{"pattern":"_host","writable":false}]}"#
    ),
    (.scopes(id: 2, scopes: []), #"{"type":"scopes","id":2,"scopes":[]}"#),
    (
      .state(id: 3, scope: "counter", rev: 41, state: HostMessageTests.state),
      #"{"type":"state","id":3,"scope":"counter","rev":41,"state":{"count":3,"isTimerRunning":false}}"#
    ),
    (
      .subscribed(id: 1, sub: 1, scope: "counter", rev: 41, state: HostMessageTests.state),
      #"{"type":"subscribed","id":1,"sub":1,"scope":"counter","rev":41,"state":{"count":3,"isTimerRunning":false}}"#
    ),
    (
      .subscribed(id: 1, sub: 2, scope: "shop/cart", rev: 0, state: .null),
      #"{"type":"subscribed","id":1,"sub":2,"scope":"shop/cart","rev":0,"state":null}"#
    ),
    (
      .patch(
        sub: 1, base: 41, rev: 42,
        ops: [
          .object(["op": .string("replace"), "path": .string("/count"), "value": .int(4)]),
          .object([
            "op": .string("add"), "path": .string("/items/-"),
            "value": .array([.double(1.5), .null, .string("x")]),
          ]),
        ]),
      #"{"type":"patch","sub":1,"base":41,"rev":42,"ops":[{"op":"replace","path":"/count","value":4},{"op":"add","path":"/items/-","value":[1.5,null,"x"]}]}"#
    ),
    (
      .unsubscribed(sub: 5, reason: "scope_gone"),
      #"{"type":"unsubscribed","sub":5,"reason":"scope_gone"}"#
    ),
    (.ack(id: 2, rev: 42), #"{"type":"ack","id":2,"rev":42}"#),
    (
      .ack(id: Int64.min, rev: Int64.max),
      #"{"type":"ack","id":-9223372036854775808,"rev":9223372036854775807}"#
    ),
    (.ok(id: 0), #"{"type":"ok","id":0}"#),
    (.ok(id: 9), #"{"type":"ok","id":9}"#),
    (.pong(id: -1), #"{"type":"pong","id":-1}"#),
    (
      .error(id: 4, code: .unknownScope, message: "no scope 'nope'"),
      #"{"type":"error","id":4,"code":"unknown_scope","message":"no scope 'nope'"}"#
    ),
    (
      .error(id: nil, code: .badJSON, message: "unexpected \"x\""),
      #"{"type":"error","id":null,"code":"bad_json","message":"unexpected \"x\""}"#
    ),
    (.bye(reason: "shutdown"), #"{"type":"bye","reason":"shutdown"}"#),
  ]

  @Test(arguments: HostMessageTests.cases)
  func encodesAndDecodes(message: HostMessage, text: String) throws {
    let expected = try JSON(parsing: text)
    #expect(message.json == expected)
    #expect(try HostMessage(json: expected) == message)
    var out: [UInt8] = [0xEE]
    message.encodeFrame(into: &out)
    #expect(out.first == 0xEE)
    let payload = try payloadJSON(ofSingleFrame: Array(out.dropFirst()))
    #expect(payload.text == text)
    #expect(payload.json == expected)
  }

  @Test func everyErrorCodeRoundTrips() throws {
    for code in ErrorCode.allCases {
      let message = HostMessage.error(id: 1, code: code, message: code.rawValue)
      #expect(try HostMessage(json: message.json) == message)
    }
  }

  @Test func refusesToEncodeAReplyOverTheLimit() throws {
    var out: [UInt8] = [1, 2]
    let big = HostMessage.state(
      id: 1, scope: "s", rev: 1, state: .string(String(repeating: "x", count: 100)))
    #expect(throws: FrameError.frameTooLarge(length: 154, limit: 120)) {
      try big.encodeFrame(into: &out, maxFrameSize: 120)
    }
    #expect(out == [1, 2])
    try big.encodeFrame(into: &out, maxFrameSize: 154)
    #expect(out.count == 2 + 4 + 154)
  }

  static let errors: [(String, MessageError)] = [
    (
      #"{"type":"ack","id":1}"#,
      MessageError(code: .badMessage, id: 1, message: "ack: missing member 'rev'")
    ),
    (
      #"{"type":"patch","sub":1,"base":1,"rev":2,"ops":{}}"#,
      MessageError(code: .badMessage, id: nil, message: "patch: 'ops' must be an array")
    ),
    (
      #"{"type":"patch","sub":1,"base":1,"rev":2,"ops":[1]}"#,
      MessageError(code: .badMessage, id: nil, message: "patch: 'ops[0]' must be an object")
    ),
    (
      #"{"type":"scopes","id":1,"scopes":[{"pattern":"a","writable":true},{"writable":true}]}"#,
      MessageError(code: .badMessage, id: 1, message: "scopes: missing member 'scopes[1].pattern'")
    ),
    (
      #"{"type":"scopes","id":1,"scopes":[{"pattern":"a","writable":1}]}"#,
      MessageError(
        code: .badMessage, id: 1,
        message: "scopes: 'scopes[0].writable' must be a boolean")
    ),
    (
      #"{"type":"error","id":1,"code":"nope","message":"m"}"#,
      MessageError(code: .badMessage, id: 1, message: "error: unknown error code 'nope'")
    ),
    (
      #"{"type":"state","id":1,"scope":"s","rev":1}"#,
      MessageError(code: .badMessage, id: 1, message: "state: missing member 'state'")
    ),
    (
      #"{"type":"welcome","protocol":1,"host":"h","app":"a"}"#,
      MessageError(code: .badMessage, id: nil, message: "welcome: missing member 'session'")
    ),
    (
      #"{"type":"hello","protocol":1}"#,
      MessageError(code: .badMessage, id: nil, message: "unknown message type 'hello'")
    ),
  ]

  @Test(arguments: HostMessageTests.errors)
  func rejectsMalformedMessages(text: String, error: MessageError) throws {
    let json = try JSON(parsing: text)
    #expect(throws: error) { try HostMessage(json: json) }
  }

  @Test func ignoresUnknownMembers() throws {
    let json = try JSON(parsing: #"{"type":"bye","reason":"shutdown","until":"later"}"#)
    #expect(try HostMessage(json: json) == .bye(reason: "shutdown"))
  }
}
