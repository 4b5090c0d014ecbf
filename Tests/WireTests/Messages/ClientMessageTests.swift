import Testing

@testable import Wire

/// Decodes the single frame in `bytes` and parses its payload (with the temporary parser).
func payloadJSON(ofSingleFrame bytes: [UInt8]) throws -> (text: String, json: JSON) {
  var decoder = FrameDecoder()
  decoder.append(bytes)
  let frame = try #require(try decoder.nextFrame())
  #expect(decoder.bufferedByteCount == 0)
  return (String(decoding: frame, as: UTF8.self), try JSON(parsing: frame))
}

@Suite struct ClientMessageTests {
  /// Every client message, its JSON text as `encodeFrame` writes it.
  static let cases: [(ClientMessage, String)] = [
    (
      .hello(protocol: 1, client: "storeclient/1.0"),
      #"{"type":"hello","protocol":1,"client":"storeclient/1.0"}"#
    ),
    (.hello(protocol: 1, client: nil), #"{"type":"hello","protocol":1}"#),
    (.hello(protocol: nil, client: nil), #"{"type":"hello"}"#),
    (.scopes(id: 7), #"{"type":"scopes","id":7}"#),
    (.get(id: 3, scope: "todos/0B9E"), #"{"type":"get","id":3,"scope":"todos/0B9E"}"#),
    (.subscribe(id: 1, scope: "counter"), #"{"type":"subscribe","id":1,"scope":"counter"}"#),
    (.unsubscribe(id: 4, sub: 9), #"{"type":"unsubscribe","id":4,"sub":9}"#),
    (
      .send(id: 2, scope: "counter", action: .object(["incrementButtonTapped": .object([:])])),
      #"{"type":"send","id":2,"scope":"counter","action":{"incrementButtonTapped":{}}}"#
    ),
    (
      .send(id: nil, scope: "counter", action: .object(["set": .object(["_0": .int(-5)])])),
      #"{"type":"send","scope":"counter","action":{"set":{"_0":-5}}}"#
    ),
    (.ping(id: Int64.max), #"{"type":"ping","id":9223372036854775807}"#),
    (.get(id: 5, scope: "counter", at: 42), #"{"type":"get","id":5,"scope":"counter","at":42}"#),
    (.history(id: 6, since: nil, limit: nil, scope: nil), #"{"type":"history","id":6}"#),
    (
      .history(id: 6, since: 40, limit: 10, scope: "todos/{id}"),
      #"{"type":"history","id":6,"since":40,"limit":10,"scope":"todos/{id}"}"#
    ),
    (.tail(id: 8, since: nil, scope: nil), #"{"type":"tail","id":8}"#),
    (.tail(id: 8, since: 3, scope: "counter"), #"{"type":"tail","id":8,"since":3,"scope":"counter"}"#),
  ]

  @Test(arguments: ClientMessageTests.cases)
  func encodesAndDecodes(message: ClientMessage, text: String) throws {
    let expected = try JSON(parsing: text)
    #expect(message.json == expected)
    #expect(try ClientMessage(json: expected) == message)
    var out: [UInt8] = []
    message.encodeFrame(into: &out)
    let payload = try payloadJSON(ofSingleFrame: out)
    #expect(payload.text == text)
    #expect(payload.json == expected)
  }

  @Test func ignoresUnknownMembers() throws {
    let json = try JSON(parsing: 
      #"{"type":"get","id":1,"scope":"counter","future":[1,2],"x":null}"#)
    #expect(try ClientMessage(json: json) == .get(id: 1, scope: "counter"))
  }

  @Test func acceptsIntegralNumbersWrittenAsDoubles() throws {
    let json: JSON = .object(["type": .string("ping"), "id": .double(12)])
    #expect(try ClientMessage(json: json) == .ping(id: 12))
  }

  @Test func readsAStrangeHelloAsHavingNoProtocol() throws {
    for text in [
      #"{"type":"hello"}"#, #"{"type":"hello","protocol":"1"}"#,
      #"{"type":"hello","protocol":1.5,"client":7}"#, #"{"type":"hello","protocol":null}"#,
    ] {
      #expect(
        try ClientMessage(json: JSON(parsing: text))
          == .hello(protocol: nil, client: nil))
    }
    #expect(
      try ClientMessage(json: JSON(parsing: #"{"type":"hello","protocol":2}"#))
        == .hello(protocol: 2, client: nil))
  }

  @Test func sendWithNullIdIsFireAndForget() throws {
    let json = try JSON(parsing: 
      #"{"type":"send","id":null,"scope":"a","action":null}"#)
    #expect(try ClientMessage(json: json) == .send(id: nil, scope: "a", action: .null))
  }

  static let errors: [(String, MessageError)] = [
    (
      #"{"type":"send","id":3,"action":{}}"#,
      MessageError(code: .badMessage, id: 3, message: "send: missing member 'scope'")
    ),
    (
      #"{"type":"send","scope":"counter"}"#,
      MessageError(code: .badMessage, id: nil, message: "send: missing member 'action'")
    ),
    (
      #"{"type":"send","id":"2","scope":"counter","action":{}}"#,
      MessageError(code: .badMessage, id: nil, message: "send: 'id' must be an integer")
    ),
    (
      #"{"type":"send","id":2,"scope":5,"action":{}}"#,
      MessageError(code: .badMessage, id: 2, message: "send: 'scope' must be a string")
    ),
    (
      #"{"type":"get","id":"x","scope":"counter"}"#,
      MessageError(code: .badMessage, id: nil, message: "get: 'id' must be an integer")
    ),
    (
      #"{"type":"get","id":1.5,"scope":"counter"}"#,
      MessageError(code: .badMessage, id: nil, message: "get: 'id' must be an integer")
    ),
    (
      #"{"type":"get","scope":"counter"}"#,
      MessageError(code: .badMessage, id: nil, message: "get: missing member 'id'")
    ),
    (
      #"{"type":"subscribe","id":8}"#,
      MessageError(code: .badMessage, id: 8, message: "subscribe: missing member 'scope'")
    ),
    (
      #"{"type":"unsubscribe","id":8,"sub":true}"#,
      MessageError(code: .badMessage, id: 8, message: "unsubscribe: 'sub' must be an integer")
    ),
    (
      #"{"type":"scopes"}"#,
      MessageError(code: .badMessage, id: nil, message: "scopes: missing member 'id'")
    ),
    (
      #"{"type":"ping","id":null}"#,
      MessageError(code: .badMessage, id: nil, message: "ping: missing member 'id'")
    ),
    (
      #"{"type":"launch","id":4}"#,
      MessageError(code: .badMessage, id: 4, message: "unknown message type 'launch'")
    ),
    (
      #"{"type":"welcome","id":4}"#,
      MessageError(code: .badMessage, id: 4, message: "unknown message type 'welcome'")
    ),
    (#"{"id":4}"#, MessageError(code: .badMessage, id: 4, message: "missing member 'type'")),
    (#"{"type":1}"#, MessageError(code: .badMessage, id: nil, message: "'type' must be a string")),
    (#"[1,2]"#, MessageError(code: .badJSON, id: nil, message: "top level must be an object")),
    (#""hello""#, MessageError(code: .badJSON, id: nil, message: "top level must be an object")),
  ]

  @Test(arguments: ClientMessageTests.errors)
  func rejectsMalformedMessages(text: String, error: MessageError) throws {
    let json = try JSON(parsing: text)
    #expect(throws: error) { try ClientMessage(json: json) }
  }

  @Test func errorReplyEchoesTheRequestId() throws {
    let json = try JSON(parsing: #"{"type":"get","id":41}"#)
    do {
      _ = try ClientMessage(json: json)
      Issue.record("expected an error")
    } catch {
      #expect(
        HostMessage.error(error)
          == .error(
            id: 41, code: .badMessage,
            message: "get: missing member 'scope'"))
      #expect(error.description == "bad_message: get: missing member 'scope'")
    }
  }

  @Test func escapesStringsInFrames() throws {
    let scope = "q\"uo\\te\n\t\u{01}\u{1F}é🎉/"
    let message = ClientMessage.send(id: 1, scope: scope, action: .string(scope))
    var out: [UInt8] = []
    message.encodeFrame(into: &out)
    let payload = try payloadJSON(ofSingleFrame: out)
    #expect(payload.text.contains(#"q\"uo\\te\n\t\u0001\u001fé🎉/"#))
    #expect(try ClientMessage(json: payload.json) == message)
  }

  // MARK: The compact send fast path

  /// `ClientMessage(compactSend:)` for `text`, checked against the general path when it reads
  /// a message.
  func compactSend(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws
    -> ClientMessage?
  {
    let fast = ClientMessage(compactSend: ArraySlice(text.utf8))
    if let fast {
      #expect(
        try ClientMessage(json: JSON(parsing: text)) == fast, "\(text)",
        sourceLocation: sourceLocation)
    }
    return fast
  }

  @Test(arguments: ClientMessageTests.cases)
  func readsEveryEncodedSendOnTheFastPath(message: ClientMessage, text: String) throws {
    var out: [UInt8] = []
    message.encodeFrame(into: &out)
    let fast = ClientMessage(compactSend: out[4...])
    if case .send = message {
      #expect(fast == message)
    } else {
      #expect(fast == nil)
    }
  }

  @Test func readsCompactSendsWithWhitespaceAndEdgeValues() throws {
    #expect(
      try self.compactSend(
        " {\n \"type\" : \"send\" ,\t\"id\":-12 , \"scope\":\"todos/0B9E\",\"action\": [1, {\"a\":null}] }\r\n"
      ) == .send(id: -12, scope: "todos/0B9E", action: .array([.int(1), .object(["a": .null])])))
    #expect(
      try self.compactSend(#"{"type":"send","id":null,"scope":"","action":null}"#)
        == .send(id: nil, scope: "", action: .null))
    #expect(
      try self.compactSend(#"{"type":"send","id":-0,"scope":"a","action":"}"}"#)
        == .send(id: 0, scope: "a", action: .string("}")))
    #expect(
      try self.compactSend(#"{"type":"send","id":999999999999999999,"scope":"a","action":{}}"#)
        == .send(id: 999_999_999_999_999_999, scope: "a", action: .object([:])))
  }

  @Test func readsScopesOfEveryLengthAroundTheInlineStringLimit() throws {
    // Scopes up to 15 bytes are built in place; they must be the very strings the general
    // path builds (equal, same length, same hash, usable as dictionary keys).
    let characters = Array("todos/0123456789-ABCDEF~ ")
    for length in 0...20 {
      let scope = String(characters.prefix(length))
      let text = #"{"type":"send","id":1,"scope":""# + scope + #"","action":{"a":1}}"#
      guard case .send(_, let read, _) = try self.compactSend(text) else {
        Issue.record("not read on the fast path: \(text)")
        continue
      }
      #expect(read == scope && read.utf8.count == length && read.count == length)
      #expect(read.hashValue == scope.hashValue)
      #expect([scope: length][read] == length)
      #expect(read + "!" == scope + "!")
    }
  }

  @Test func leavesEverythingElseToTheGeneralPath() throws {
    for text in [
      #"{"type":"get","id":1,"scope":"a"}"#,  // another type
      #"{"id":1,"type":"send","scope":"a","action":{}}"#,  // another order
      #"{"type":"send","scope":"a","id":1,"action":{}}"#,
      #"{"type":"send","id":1,"scope":"a","action":{},"x":1}"#,  // a member after the action
      #"{"type":"send","id":1,"scope":"a","action":{},"action":{"b":{}}}"#,  // a repeated one
      #"{"type":"send","id":1,"x":2,"scope":"a","action":{}}"#,  // an unknown member
      #"{"type":"send","id":1,"scope":"a"}"#,  // no action
      #"{"type":"send","id":1,"scope":"a","action":}"#,
      #"{"type":"send","id":1.0,"scope":"a","action":{}}"#,  // numbers for the general parser
      #"{"type":"send","id":1e2,"scope":"a","action":{}}"#,
      #"{"type":"send","id":07,"scope":"a","action":{}}"#,
      #"{"type":"send","id":"7","scope":"a","action":{}}"#,
      #"{"type":"send","id":1234567890123456789,"scope":"a","action":{}}"#,
      // Digits enough to overflow Int64 while they are read (the fuzzer's crash): refused.
      #"{"type":"send","id":2222222222222222222222222222222222222222,"scope":"a","action":{}}"#,
      #"{"type":"send","id":-99999999999999999999999,"scope":"a","action":{}}"#,
      #"{"type":"send","id":-,"scope":"a","action":{}}"#,
      #"{"type":"send","id":1,"scope":"a\/b","action":{}}"#,  // escapes and non-ASCII scopes
      #"{"type":"send","id":1,"scope":"é","action":{}}"#,
      #"{"type":"send","id":1,"scope":7,"action":{}}"#,
      #"{"type":"send","id":1,"scope":"a","action":{"b":}}"#,  // not JSON
      #"{"type":"send","id":1,"scope":"a","action":{"b":1}"#,
      #"{"type":"send","id":1,"scope":"a","action":{}} x"#,
      #"{"type":"sendx","id":1,"scope":"a","action":{}}"#,
      #"{"type":"send""#, "", "{",
    ] {
      #expect(try self.compactSend(text) == nil, "\(text)")
    }
  }

  @Test func agreesWithTheGeneralPathOnEveryOneByteChange() throws {
    // The reader compares runs of the envelope and scans the scope a word at a time: every byte
    // must count. Each one-byte change either leaves the fast path or reads what the general
    // path reads.
    let replacements = Array(#"x "0:,}\"#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xFF]
    var readOnFastPath = 0
    for text in [
      #"{"type":"send","id":42,"scope":"counter","action":{"increment":{}}}"#,
      // A scope long enough to be scanned a word at a time, then byte by byte.
      #"{"type":"send","scope":"todos/0B9E1F2C-2F45-4C4B","action":{}}"#,
    ] {
      let bytes = Array(text.utf8)
      for position in bytes.indices {
        for replacement in replacements where replacement != bytes[position] {
          var changed = bytes
          changed[position] = replacement
          guard let fast = ClientMessage(compactSend: ArraySlice(changed)) else { continue }
          readOnFastPath += 1
          let general = try? ClientMessage(json: JSON(parsing: changed))
          #expect(general == fast, "\(String(decoding: changed, as: UTF8.self))")
        }
      }
    }
    // Some changes keep a valid compact send (the id's digits, the scope's letters, spaces).
    #expect(readOnFastPath > 0)
  }

  @Test func keepsTheGeneralPathsDepthLimit() throws {
    // The envelope is one level: an action may nest one level less than a whole payload.
    let depth = JSON.defaultMaxDepth - 1
    let deepest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let tooDeep = "[" + deepest + "]"
    #expect(
      try self.compactSend(#"{"type":"send","scope":"a","action":"# + deepest + "}") != nil)
    #expect(try self.compactSend(#"{"type":"send","scope":"a","action":"# + tooDeep + "}") == nil)
    #expect(throws: JSONParseError.self) {
      try JSON(parsing: #"{"type":"send","scope":"a","action":"# + tooDeep + "}")
    }
  }
}

@Suite struct ErrorCodeTests {
  @Test func coversEveryCodeOfTheProtocol() {
    #expect(
      ErrorCode.allCases.map(\.rawValue) == [
        "bad_frame", "frame_too_large", "bad_json", "hello_required", "unsupported_protocol",
        "bad_message", "unknown_scope", "scope_unavailable", "forbidden", "bad_action",
        "not_subscribed", "overloaded", "revision_unavailable", "unavailable",
      ])
    #expect(FrameError.emptyFrame.code == .badFrame)
    #expect(FrameError.frameTooLarge(length: 2, limit: 1).code == .frameTooLarge)
  }
}
