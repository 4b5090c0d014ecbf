import Foundation
import Testing
import Wire

/// The handshake and every error code of the protocol, against the real `storehost`.
@Suite(.serialized)
struct HandshakeAndErrorTests {
  let host: HostProcess

  init() throws {
    host = try HostProcess()
  }

  @Test func helloGetsWelcome() throws {
    let client = try WireClient(path: host.socketPath)
    let welcome = try client.hello()
    #expect(welcome["protocol"] == .int(1))
    #expect(welcome["host"]?.string?.hasPrefix("storehost/") == true)
    #expect(welcome["app"] == .string("examples"))
    #expect(welcome["session"]?.string?.isEmpty == false)
  }

  @Test func unsupportedProtocolIsRefusedAndClosed() throws {
    let client = try WireClient(path: host.socketPath)
    try client.send(#"{"type":"hello","protocol":2}"#)
    let error = try client.expect("error")
    #expect(error["code"] == .string("unsupported_protocol"))
    #expect(error["message"]?.string?.contains("protocol 2") == true)
    #expect(client.waitForClose())

    let missing = try WireClient(path: host.socketPath)
    try missing.send(#"{"type":"hello"}"#)
    #expect(try missing.expect("error")["code"] == .string("unsupported_protocol"))
    #expect(missing.waitForClose())
  }

  @Test func firstFrameMustBeHello() throws {
    for first in [#"{"type":"ping","id":1}"#, "not json", #"[1,2]"#] {
      let client = try WireClient(path: host.socketPath)
      try client.send(first)
      let error = try client.expect("error")
      #expect(error["code"] == .string("hello_required"), "first frame \(first)")
      #expect(client.waitForClose(), "first frame \(first)")
    }
  }

  @Test func zeroLengthFrameIsBadFrameAndCloses() throws {
    let client = try WireClient.greeted(path: host.socketPath)
    try client.sendRaw([0, 0, 0, 0])
    #expect(try client.expect("error")["code"] == .string("bad_frame"))
    #expect(client.waitForClose())
  }

  @Test func invalidUTF8IsBadFrameAndCloses() throws {
    let client = try WireClient.greeted(path: host.socketPath)
    try client.sendRaw(WireClient.frame([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]))
    #expect(try client.expect("error")["code"] == .string("bad_frame"))
    #expect(client.waitForClose())
  }

  @Test func oversizePrefixIsRefusedBeforeThePayload() throws {
    let client = try WireClient.greeted(path: host.socketPath)
    // 2 GiB announced, nothing sent after it: the host must answer from the prefix alone.
    try client.sendRaw([0x80, 0, 0, 0])
    let error = try client.expect("error", timeout: 5)
    #expect(error["code"] == .string("frame_too_large"))
    #expect(error["message"]?.string?.contains("2147483648") == true)
    #expect(client.waitForClose())
  }

  @Test func badJSONKeepsTheConnection() throws {
    let client = try WireClient.greeted(path: host.socketPath)
    for text in ["{nope", "[1]", "\"text\"", "{\"a\":1,}"] {
      let error = try client.request(text)
      #expect(error["code"] == .string("bad_json"), "payload \(text)")
      #expect(error["id"] == .null)
    }
    #expect(try client.request(#"{"type":"ping","id":9}"#) == .object(["type": .string("pong"), "id": .int(9)]))
  }

  @Test func badMessagesNameTheMemberAndEchoTheID() throws {
    let client = try WireClient.greeted(path: host.socketPath)
    let unknown = try client.request(#"{"type":"frobnicate","id":3}"#)
    #expect(unknown["code"] == .string("bad_message"))
    #expect(unknown["id"] == .int(3))
    #expect(unknown["message"]?.string?.contains("frobnicate") == true)

    let missing = try client.request(#"{"type":"get","id":4}"#)
    #expect(missing["code"] == .string("bad_message"))
    #expect(missing["id"] == .int(4))
    #expect(missing["message"]?.string?.contains("scope") == true)

    let mistyped = try client.request(#"{"type":"get","id":"five","scope":"counter"}"#)
    #expect(mistyped["code"] == .string("bad_message"))
    #expect(mistyped["id"] == .null)

    let noType = try client.request(#"{"id":6}"#)
    #expect(noType["code"] == .string("bad_message"))
    // Unknown members are ignored.
    let pong = try client.request(#"{"type":"ping","id":7,"extra":[1,{"x":null}]}"#)
    #expect(pong["type"] == .string("pong"))
  }

  @Test func scopeErrors() throws {
    let client = try WireClient.greeted(path: host.socketPath)
    let unknown = try client.request(#"{"type":"get","id":1,"scope":"nope"}"#)
    #expect(unknown["code"] == .string("unknown_scope"))
    #expect(unknown["message"]?.string?.contains("nope") == true)

    let missingTodo = try client.request(
      #"{"type":"subscribe","id":2,"scope":"todos/00000000-0000-0000-0000-0000000000AA"}"#)
    #expect(missingTodo["code"] == .string("scope_unavailable"))
    let notAnID = try client.request(#"{"type":"get","id":3,"scope":"todos/banana"}"#)
    #expect(notAnID["code"] == .string("scope_unavailable"))

    let readOnly = try client.request(#"{"type":"send","id":4,"scope":"_host","action":{}}"#)
    #expect(readOnly["code"] == .string("forbidden"))
    #expect(readOnly["id"] == .int(4))

    let noCart = try client.request(#"{"type":"get","id":5,"scope":"shop/cart"}"#)
    #expect(noCart["code"] == .string("scope_unavailable"))
  }

  @Test func badActionsSayWhereDecodingFailed() throws {
    let client = try WireClient.greeted(path: host.socketPath)
    let subscribed = try client.request(#"{"type":"subscribe","id":1,"scope":"counter"}"#)
    let before = try #require(subscribed["state"])
    for action in [#"{"launchRockets":{}}"#, "42", "[]", #""incrementButtonTapped""#, "null"] {
      let error = try client.request(#"{"type":"send","id":2,"scope":"counter","action":\#(action)}"#)
      #expect(error["code"] == .string("bad_action"), "action \(action)")
      #expect(error["message"]?.string?.hasPrefix("action") == true, "action \(action)")
    }
    let unknownCase = try client.request(
      #"{"type":"send","id":2,"scope":"counter","action":{"launchRockets":{}}}"#)
    #expect(unknownCase["message"]?.string?.hasPrefix("action: ") == true, "\(unknownCase.compactString)")
    #expect(unknownCase["message"]?.string?.contains("launchRockets") == true)
    let nested = try client.request(
      #"{"type":"send","id":3,"scope":"todos","action":{"filterPicked":{"_0":"someday"}}}"#)
    #expect(nested["code"] == .string("bad_action"))
    #expect(nested["message"]?.string?.hasPrefix("action.filterPicked._0: ") == true, "\(nested.compactString)")
    // None of that changed the state (and no patch was pushed: the next frame is the reply).
    let state = try client.request(#"{"type":"get","id":4,"scope":"counter"}"#)
    #expect(state["type"] == .string("state"))
    #expect(state["state"] == before)
    // An action without an id that fails is still answered, with a null id.
    let silent = try client.request(#"{"type":"send","scope":"counter","action":{"nope":{}}}"#)
    #expect(silent["code"] == .string("bad_action"))
    #expect(silent["id"] == .null)
  }

  @Test func unsubscribeOfUnknownSubIsNotSubscribed() throws {
    let client = try WireClient.greeted(path: host.socketPath)
    let error = try client.request(#"{"type":"unsubscribe","id":1,"sub":99}"#)
    #expect(error["code"] == .string("not_subscribed"))
    #expect(error["id"] == .int(1))
  }

  @Test func scopesListsTheContract() throws {
    let client = try WireClient.greeted(path: host.socketPath)
    let reply = try client.request(#"{"type":"scopes","id":1}"#)
    let scopes = try #require(reply["scopes"]?.array)
    var writable: [String: Bool] = [:]
    for scope in scopes {
      if let pattern = scope["pattern"]?.string, case .bool(let flag)? = scope["writable"] {
        writable[pattern] = flag
      }
    }
    #expect(writable["counter"] == true)
    #expect(writable["todos"] == true)
    #expect(writable["todos/{id}"] == true)
    #expect(writable["_host"] == false)
    #expect(writable["shop"] != nil)
    #expect(writable["shop/products/{id}"] != nil)
    #expect(writable["shop/cart"] != nil)
  }

  @Test func hostFiguresAreLive() throws {
    let client = try WireClient.greeted(path: host.socketPath)
    _ = try client.request(#"{"type":"send","id":1,"scope":"counter","action":{"incrementButtonTapped":{}}}"#)
    let state = try client.request(#"{"type":"get","id":2,"scope":"_host"}"#)
    let figures = try #require(state["state"])
    #expect((figures["connections"]?.int ?? 0) >= 1)
    #expect((figures["actionsReduced"]?.int ?? 0) >= 1)
    #expect((figures["bytesIn"]?.int ?? 0) > 0)
    #expect(figures["uptimeSeconds"]?.int != nil)
  }
}

/// Limits: connections and subscriptions per connection, and replies over the frame limit.
@Suite(.serialized)
struct LimitTests {
  @Test func connectionLimitAnswersOverloadedAndCloses() throws {
    let host = try HostProcess(arguments: ["--max-connections", "1"])
    // The harness's readiness probe was a connection too; wait until the host has seen it go.
    var admitted: WireClient?
    for _ in 0..<100 where admitted == nil {
      let client = try WireClient(path: host.socketPath)
      try client.send(#"{"type":"hello","protocol":1}"#)
      if try client.next()["type"] == .string("welcome") { admitted = client } else { usleep(20_000) }
    }
    let first = try #require(admitted)
    let second = try WireClient(path: host.socketPath)
    let error = try second.expect("error")
    #expect(error["code"] == .string("overloaded"))
    #expect(second.waitForClose())
    #expect(try first.request(#"{"type":"ping","id":1}"#)["type"] == .string("pong"))
  }

  @Test func silentConnectionsAreDroppedAfterTheHelloTimeout() throws {
    let host = try HostProcess(arguments: ["--hello-timeout", "1", "--max-connections", "2"])
    let silent = try WireClient(path: host.socketPath)
    let error = try silent.expect("error", timeout: 5)
    #expect(error["code"] == .string("hello_required"))
    #expect(error["message"]?.string?.contains("no hello within 1 s") == true)
    #expect(silent.waitForClose())
    // Its slot is free again.
    _ = try WireClient.greeted(path: host.socketPath)
  }

  @Test func subscriptionLimitAnswersOverloadedAndKeeps() throws {
    let host = try HostProcess(arguments: ["--max-subscriptions", "1"])
    let client = try WireClient.greeted(path: host.socketPath)
    #expect(try client.request(#"{"type":"subscribe","id":1,"scope":"counter"}"#)["type"] == .string("subscribed"))
    let error = try client.request(#"{"type":"subscribe","id":2,"scope":"todos"}"#)
    #expect(error["code"] == .string("overloaded"))
    #expect(error["id"] == .int(2))
    #expect(try client.request(#"{"type":"ping","id":3}"#)["type"] == .string("pong"))
  }

  @Test func replyOverTheFrameLimitIsAnErrorAndKeeps() throws {
    let host = try HostProcess(arguments: ["--max-frame", "200"])
    let client = try WireClient.greeted(path: host.socketPath)
    let error = try client.request(#"{"type":"get","id":1,"scope":"todos"}"#)
    #expect(error["code"] == .string("frame_too_large"))
    #expect(error["id"] == .int(1))
    #expect(try client.request(#"{"type":"ping","id":2}"#)["type"] == .string("pong"))
  }
}
