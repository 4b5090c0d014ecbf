import Foundation
import HTTPTestSupport
import Testing
import Wire

@testable import storeclient

/// `storeclient inspect` as a browser — or anything else on the machine — meets it: the real
/// binary, serving a real host, over real sockets.
@Suite(
  .serialized, .timeLimit(.minutes(5)),
  .enabled(if: Binaries.available, "storehost and storeclient must be built next to the tests"))
struct InspectorTests {
  private func withInspector(_ body: (HostProcess, InspectorProcess) async throws -> Void)
    async throws
  {
    let host = try await HostProcess(socketPath: makeTemporaryDirectory() + "/host.sock")
    let inspector = try await InspectorProcess(socketPath: host.socketPath)
    do {
      try await body(host, inspector)
    } catch {
      try? await inspector.stop()
      try? await host.terminate()
      throw error
    }
    try await inspector.stop()
    try await host.terminate()
  }

  private func json(_ response: RawResponse) throws -> JSONObject {
    guard case .object(let object) = try JSON(parsing: response.text) else {
      throw HarnessError("not a JSON object: \(response.text)")
    }
    return object
  }

  private func errorCode(_ response: RawResponse) throws -> String? {
    guard case .object(let error)? = try self.json(response)["error"],
      case .string(let code)? = error["code"]
    else { return nil }
    return code
  }

  // MARK: - Who may use it

  @Test func refusesRequestsWithoutTheTokenAndServesThePageWithIt() async throws {
    try await self.withInspector { _, inspector in
      let host = "Host: 127.0.0.1:\(inspector.port)\r\n"
      let bare = try RawHTTPClient.exchange("GET / HTTP/1.1\r\n\(host)\r\n", port: inspector.port)
      #expect(bare.status == 403)
      #expect(bare.text.contains("needs the token"))
      #expect(!bare.text.contains(inspector.token))
      let api = try RawHTTPClient.exchange(
        "GET /api/scopes HTTP/1.1\r\n\(host)\r\n", port: inspector.port)
      #expect(api.status == 403)
      let wrong = try RawHTTPClient.exchange(
        "GET /api/scopes?token=\(String(inspector.token.reversed())) HTTP/1.1\r\n\(host)\r\n",
        port: inspector.port)
      #expect(wrong.status == 403)

      let page = try RawHTTPClient.exchange(
        "GET /?token=\(inspector.token) HTTP/1.1\r\n\(host)\r\n", port: inspector.port)
      #expect(page.status == 200)
      #expect(page.header("Content-Type") == "text/html; charset=utf-8")
      #expect(page.text.contains("<title>storeclient inspect</title>"))
      #expect(page.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
      let cookie = try #require(page.header("Set-Cookie"))
      #expect(cookie.hasPrefix("storeclient-inspector-\(inspector.port)=\(inspector.token);"))
      #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))

      let withCookie = try RawHTTPClient.exchange(
        "GET /api/scopes HTTP/1.1\r\n\(host)Cookie: \(cookie.split(separator: ";")[0])\r\n\r\n",
        port: inspector.port)
      #expect(withCookie.status == 200)
      #expect(withCookie.text.contains(#""pattern":"counter""#))
    }
  }

  @Test func refusesRequestsNamingAnotherHostOrComingFromAnotherPage() async throws {
    try await self.withInspector { _, inspector in
      // DNS rebinding: a page of evil.example whose name now resolves to 127.0.0.1.
      let rebound = try RawHTTPClient.exchange(
        "GET /?token=\(inspector.token) HTTP/1.1\r\nHost: evil.example:\(inspector.port)\r\n\r\n",
        port: inspector.port)
      #expect(rebound.status == 403)
      #expect(rebound.text.contains("does not name this inspector"))
      let byName = try RawHTTPClient.exchange(
        "GET /?token=\(inspector.token) HTTP/1.1\r\nHost: localhost:\(inspector.port)\r\n\r\n",
        port: inspector.port)
      #expect(byName.status == 200)
      let foreign = try inspector.post(
        "/api/send", json: #"{"scope":"counter","action":{"incrementButtonTapped":{}}}"#,
        headers: "Origin: http://evil.example\r\n")
      #expect(foreign.status == 403)
    }
  }

  // MARK: - Bad input

  @Test func answersUnknownPathsAndWrongMethods() async throws {
    try await self.withInspector { _, inspector in
      let unknown = try inspector.get("/nope")
      #expect(unknown.status == 404)
      #expect(try self.errorCode(unknown) == "not_found")
      let postState = try inspector.post("/api/state?scope=counter", json: "{}")
      #expect(postState.status == 405)
      #expect(postState.header("Allow") == "GET")
      let getSend = try inspector.get("/api/send")
      #expect(getSend.status == 405)
      #expect(getSend.header("Allow") == "POST")
      let deletePage = try RawHTTPClient.exchange(
        "DELETE / HTTP/1.1\r\n\(inspector.credentials)\r\n", port: inspector.port)
      #expect(deletePage.status == 405)
      #expect(deletePage.header("Allow") == "GET, HEAD")
    }
  }

  @Test func answersMalformedAndOversizedRequestsAndKeepsServing() async throws {
    try await self.withInspector { _, inspector in
      let huge = try RawHTTPClient.exchange(
        "GET / HTTP/1.1\r\n\(inspector.credentials)X-Big: \(String(repeating: "x", count: 64 * 1024))\r\n\r\n",
        port: inspector.port)
      #expect(huge.status == 431)
      let many = try RawHTTPClient.exchange(
        "GET / HTTP/1.1\r\n\(inspector.credentials)" + String(repeating: "X-A: b\r\n", count: 200)
          + "\r\n",
        port: inspector.port)
      #expect(many.status == 431)
      let long = try RawHTTPClient.exchange(
        "GET /\(String(repeating: "a", count: 20_000)) HTTP/1.1\r\n\r\n", port: inspector.port)
      #expect(long.status == 414)
      let garbage = try RawHTTPClient.exchange("\u{1}\u{2}hello\r\n\r\n", port: inspector.port)
      #expect(garbage.status == 400)
      let body = try RawHTTPClient.exchange(
        "POST /api/send HTTP/1.1\r\n\(inspector.credentials)Content-Length: 5000000\r\n\r\n",
        port: inspector.port)
      #expect(body.status == 413)
      let version = try RawHTTPClient.exchange("GET / HTTP/2.0\r\n\r\n", port: inspector.port)
      #expect(version.status == 505)
      // Still serving, and still connected to the host.
      let sent = try inspector.post(
        "/api/send", json: #"{"scope":"counter","action":{"incrementButtonTapped":{}}}"#)
      #expect(sent.status == 200)
      #expect(inspector.process.isRunning)
    }
  }

  @Test func answersASlowClientWith408WhileServingOthers() async throws {
    try await self.withInspector { _, inspector in
      let slow = try RawHTTPClient(port: inspector.port)
      try slow.send("GET /api/scopes HTTP/1.1\r\n\(inspector.credentials)")  // never finished
      // Meanwhile everyone else is served, and actions reach the host.
      for _ in 0..<3 {
        let sent = try inspector.post(
          "/api/send", json: #"{"scope":"counter","action":{"incrementButtonTapped":{}}}"#)
        #expect(sent.status == 200)
      }
      let timedOut = try slow.readResponse(timeout: 60)
      #expect(timedOut.status == 408)
      #expect(timedOut.header("Connection") == "close")
      let state = try self.json(try inspector.get("/api/state?scope=counter"))
      #expect(state["state"].flatMap { $0.objectValue["count"] } == .int(3))
    }
  }

  // MARK: - The API

  @Test func readsStatesAndSendsActionsThroughTheAPI() async throws {
    try await self.withInspector { _, inspector in
      let before = try self.json(try inspector.get("/api/state?scope=counter"))
      #expect(before["state"].flatMap { $0.objectValue["count"] } == .int(0))
      let sent = try inspector.post(
        "/api/send", json: #"{"scope":"counter","action":{"incrementButtonTapped":{}}}"#)
      #expect(sent.status == 200)
      let rev = try #require(try self.json(sent)["rev"])
      let after = try self.json(try inspector.get("/api/state?scope=counter"))
      #expect(after["state"].flatMap { $0.objectValue["count"] } == .int(1))
      #expect(after["rev"] == rev)

      let badAction = try inspector.post(
        "/api/send", json: #"{"scope":"counter","action":{"nope":{}}}"#)
      #expect(badAction.status == 422)
      #expect(try self.errorCode(badAction) == "bad_action")
      let readOnly = try inspector.post("/api/send", json: #"{"scope":"_host","action":{}}"#)
      #expect(readOnly.status == 403)
      #expect(try self.errorCode(readOnly) == "forbidden")
      let unknown = try inspector.get("/api/state?scope=nope")
      #expect(unknown.status == 404)
      #expect(try self.errorCode(unknown) == "unknown_scope")
      let missing = try inspector.get("/api/state")
      #expect(missing.status == 400)
      let badQuery = try inspector.get("/api/state?scope=%zz")
      #expect(badQuery.status == 400)
      let notJSON = try inspector.post("/api/send", json: "{nope")
      #expect(notJSON.status == 400)
      #expect(try self.errorCode(notJSON) == "bad_json")
      let wrongType = try RawHTTPClient.exchange(
        "POST /api/send HTTP/1.1\r\n\(inspector.credentials)Content-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}",
        port: inspector.port)
      #expect(wrongType.status == 415)
    }
  }

  @Test func readsTheHistoryThePastAndWhatEachActionChanged() async throws {
    try await self.withInspector { host, inspector in
      var revisions: [Int64] = []
      for _ in 0..<2 {
        let sent = try await storeclient(
          ["send", "counter", #"{"incrementButtonTapped":{}}"#, "--socket", host.socketPath])
        revisions.append(
          try #require(Int64(sent.output.trimmingCharacters(in: .whitespacesAndNewlines))))
      }
      let page = try self.json(try inspector.get("/api/history?since=0&limit=1000"))
      guard case .array(let entries)? = page["entries"] else { throw HarnessError("no entries") }
      let sent = entries.filter { $0.objectValue["scope"] == .string("counter") }
      #expect(sent.map { $0.objectValue["rev"] } == revisions.map { .int($0) })
      #expect(
        sent.first?.objectValue["action"] == (try JSON(parsing: #"{"incrementButtonTapped":{}}"#)))
      #expect(sent.first?.objectValue["origin"]?.objectValue["kind"] == .string("client"))

      let past = try self.json(try inspector.get("/api/state?scope=counter&at=\(revisions[0])"))
      #expect(past["rev"] == .int(revisions[0]))
      #expect(past["state"]?.objectValue["count"] == .int(1))
      let change = try self.json(try inspector.get("/api/change?scope=counter&rev=\(revisions[1])"))
      #expect(
        change["ops"]
          == (try JSON(parsing: #"[{"op":"replace","path":"/count","value":2,"old":1}]"#)))
      let future = try inspector.get("/api/state?scope=counter&at=\(revisions[1] + 1000)")
      #expect(future.status == 409)
      #expect(try self.errorCode(future) == "revision_unavailable")

      // A tab gets the recent entries first, then each new one as it is reduced.
      let stream = try RawHTTPClient(port: inspector.port)
      try stream.send("GET /api/events HTTP/1.1\r\n\(inspector.credentials)\r\n")
      let opening = try stream.readUntil(contains: "event: log\n")
      #expect(opening.contains(#""available":true"#))
      let third = try inspector.post(
        "/api/send", json: #"{"scope":"counter","action":{"decrementButtonTapped":{}}}"#)
      let rev = try #require(try self.json(third)["rev"])
      _ = try stream.readUntil(timeout: 30, "the entry of rev \(rev)") {
        $0.contains("event: entry\ndata: {\"rev\":\(rev.compactString),")
      }
    }
  }

  @Test func listsTheIDsOfCollectionScopes() async throws {
    try await self.withInspector { _, inspector in
      let list = try self.json(try inspector.get("/api/scopes"))
      guard case .array(let scopes)? = list["scopes"] else { throw HarnessError("no scopes") }
      let todos = try #require(scopes.first { $0.objectValue["pattern"] == .string("todos/{id}") })
      guard case .array(let ids)? = todos.objectValue["ids"] else { throw HarnessError("no ids") }
      #expect(ids.count == 3)
      let products = try #require(
        scopes.first { $0.objectValue["pattern"] == .string("shop/products/{id}") })
      #expect(products.objectValue["ids"] == .array(["1", "2", "3", "4"].map(JSON.string)))
    }
  }

  @Test func sharesOneSubscriptionPerScopeAmongTabsAndEndsItWithTheLast() async throws {
    try await self.withInspector { _, inspector in
      func subscriptions() throws -> JSON? {
        try self.json(try inspector.get("/api/state?scope=_host"))["state"]?.objectValue[
          "subscriptions"]
      }
      func openTab() throws -> RawHTTPClient {
        let tab = try RawHTTPClient(port: inspector.port)
        try tab.send("GET /api/events?scope=todos HTTP/1.1\r\n\(inspector.credentials)\r\n")
        _ = try tab.readUntil(contains: "event: snapshot\n")
        return tab
      }
      // The inspector's own tail (on a host with history) is open once its log is settled.
      let settled = try RawHTTPClient(port: inspector.port)
      try settled.send("GET /api/events HTTP/1.1\r\n\(inspector.credentials)\r\n")
      _ = try settled.readUntil(timeout: 30, "the log is settled") {
        $0.contains(#"event: log"# + "\n" + #"data: {"available":true"#)
          || $0.contains(#"data: {"available":false,"message""#)
      }
      let before = try #require(try subscriptions())
      var tabs = [try openTab()]
      let one = try #require(try subscriptions())
      #expect(one != before)
      tabs.append(try openTab())
      tabs.append(try openTab())
      #expect(try subscriptions() == one)
      tabs.removeAll()  // every tab closes: the subscription ends
      try await waitUntil("the inspector unsubscribes") { try subscriptions() == before }
    }
  }

  @Test func streamsSnapshotsAndPatchesAndFollowsTheHostAcrossARestart() async throws {
    let socket = makeTemporaryDirectory() + "/host.sock"
    var host = try await HostProcess(socketPath: socket)
    let inspector = try await InspectorProcess(socketPath: socket)
    let stream = try RawHTTPClient(port: inspector.port)
    try stream.send("GET /api/events?scope=counter HTTP/1.1\r\n\(inspector.credentials)\r\n")
    var text = try stream.readUntil(contains: "event: snapshot\n")
    #expect(text.contains("Content-Type: text/event-stream"))
    #expect(text.contains(#"event: status"# + "\n" + #"data: {"connected":true"#))

    let sent = try await storeclient([
      "send", "counter", #"{"incrementButtonTapped":{}}"#, "--socket", socket,
    ])
    #expect(sent.status == 0)
    text = try stream.readUntil(contains: #""ops":[{"op":"replace","path":"/count","value":1}]"#)
    #expect(text.contains("event: patch\n"))

    try await host.terminate()
    text = try stream.readUntil(contains: #"data: {"connected":false"#)
    host = try await HostProcess(socketPath: socket)
    // The inspector reconnects by itself; the tab gets the new host's state.
    text = try stream.readUntil(timeout: 60, "a snapshot after the restart") { text in
      guard let range = text.range(of: #"data: {"connected":false"#) else { return false }
      let after = text[range.upperBound...]
      return after.contains(#"data: {"connected":true"#) && after.contains("event: snapshot\n")
    }
    try await inspector.stop()
    try await host.terminate()
  }

  // MARK: - The command line

  @Test func refusesToListenBeyondLoopback() async throws {
    let result = try await storeclient([
      "inspect", "--listen", "0.0.0.0:8080", "--socket", "/nonexistent.sock",
    ])
    #expect(result.status == 64)
    #expect(
      result.errors.hasPrefix(
        "Error: The value '0.0.0.0:8080' is invalid for '--listen <address:port>': the inspector "
          + "serves the loopback interface only"))
    #expect(
      result.errors.contains(
        "Usage: storeclient inspect [--socket <path>] [--listen <address:port>]"))
  }

  @Test func failsWhenNoHostListens() async throws {
    let result = try await storeclient([
      "inspect", "--socket", makeTemporaryDirectory() + "/none.sock",
    ])
    #expect(result.status == 69)
    #expect(result.errors.contains("no host is listening on"))
  }

  @Test func failsWhenThePortIsTaken() async throws {
    let host = try await HostProcess(socketPath: makeTemporaryDirectory() + "/host.sock")
    let first = try await InspectorProcess(socketPath: host.socketPath)
    let second = try await storeclient([
      "inspect", "--socket", host.socketPath, "--listen", "127.0.0.1:\(first.port)",
    ])
    #expect(second.status == 1)
    #expect(
      second.errors
        == "Error: 127.0.0.1:\(first.port) is already in use; choose another port, or 0 for a free one\n"
    )
    try await first.stop()
    try await host.terminate()
  }
}
