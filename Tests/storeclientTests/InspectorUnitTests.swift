import ArgumentParsing
import HTTPServing
import Testing
import Wire

@testable import storeclient

@Suite struct ListenAddressTests {
  @Test func readsLoopbackAddressesAndPorts() throws {
    #expect(
      try ListenAddress(parsing: "127.0.0.1:8080") == ListenAddress(address: .loopback, port: 8080))
    #expect(try ListenAddress(parsing: "localhost:0") == ListenAddress(address: .loopback, port: 0))
    #expect(try ListenAddress(parsing: ":9000") == ListenAddress(address: .loopback, port: 9000))
    #expect(try ListenAddress(parsing: "127.0.0.1") == ListenAddress(address: .loopback, port: 0))
    #expect(try ListenAddress(parsing: "127.1.2.3:1").address == IPv4Address(127, 1, 2, 3))
  }

  @Test(arguments: [
    ("0.0.0.0:8080", "loopback interface only"),
    ("192.168.1.10:8080", "loopback interface only"),
    ("example.com:80", "expected an address such as 127.0.0.1:8080"),
    ("[::1]:8080", "IPv6 is not supported"),
    ("127.0.0.1:70000", "the port must be a number"),
    ("127.0.0.1:http", "the port must be a number"),
  ])
  func refusesAnythingElseWithAUsageError(value: String, why: String) {
    #expect {
      try ListenAddress(parsing: value)
    } throws: { error in
      let message = (error as? UsageError)?.message ?? ""
      return message.hasPrefix("The value '\(value)' is invalid for '--listen <address:port>': ")
        && message.contains(why)
    }
  }
}

@Suite struct InspectCommandTests {
  @Test func helpIsGolden() {
    #expect(
      InspectCommand.spec.help(width: 80) == """
        OVERVIEW: Serve a live web inspector of the host on this machine's loopback
        interface.

        Open the printed URL in a browser: the scopes and their live state (changed
        values flash), the actions the host reduced with the change each made (click one
        to see the state at its revision), a box to send an action to a writable scope,
        and charts of the host's figures. The page runs in this process, which keeps one
        connection to the host and reconnects when the host restarts.

        Only this machine can connect, and only with the token in the URL (it is kept in
        a cookie by the first page that uses it); requests naming another host are
        refused. Stop with Ctrl-C.

        USAGE: storeclient inspect [--socket <path>] [--listen <address:port>]

        OPTIONS:
          --socket <path>         The socket file of the host to talk to. (default:
                                  $STOREHOST_SOCKET, else
                                  $XDG_RUNTIME_DIR/storehost.sock, else
                                  /tmp/storehost-<uid>.sock)
          --listen <address:port>
                                  Where to serve the page: a loopback address and a
                                  port, 0 for any free one. (default: 127.0.0.1:0)
          -h, --help              Show help information.
        """)
  }

  @Test func listensOnLoopbackAndAFreePortByDefault() throws {
    let command = try InspectCommand(try InspectCommand.spec.parse([]), socketPath: "/s")
    #expect(command.listen == ListenAddress(address: .loopback, port: 0))
    let chosen = try InspectCommand(
      try InspectCommand.spec.parse(["--listen", "localhost:8765"]), socketPath: "/s")
    #expect(chosen.listen.port == 8765)
  }
}

@Suite struct InspectorAccessTests {
  let access = InspectorAccess(token: "secret", address: .loopback, port: 8123)

  func request(_ target: String, _ headers: HTTPHeaders) -> HTTPRequest {
    HTTPRequest(method: "GET", target: target, headers: headers)
  }

  @Test func allowsTheTokenInTheQueryAndSetsTheCookie() {
    let decision = self.access.check(self.request("/?token=secret", ["Host": "127.0.0.1:8123"]))
    #expect(decision == .allowed(setCookie: true))
    #expect(
      self.access.setCookie
        == "storeclient-inspector-8123=secret; Path=/; HttpOnly; SameSite=Strict")
  }

  @Test func allowsTheCookieAndTheAuthorizationHeader() {
    let cookie = self.request(
      "/api/scopes", ["Host": "localhost:8123", "Cookie": "a=b; storeclient-inspector-8123=secret"])
    #expect(self.access.check(cookie) == .allowed(setCookie: false))
    let header = self.request(
      "/api/scopes", ["Host": "127.0.0.1:8123", "Authorization": "Token secret"])
    #expect(self.access.check(header) == .allowed(setCookie: false))
  }

  @Test func refusesAMissingOrWrongToken() {
    for headers: HTTPHeaders in [
      ["Host": "127.0.0.1:8123"],
      ["Host": "127.0.0.1:8123", "Cookie": "storeclient-inspector-8123=secreT"],
      ["Host": "127.0.0.1:8123", "Cookie": "storeclient-inspector-9999=secret"],
      ["Host": "127.0.0.1:8123", "Authorization": "Token secre"],
    ] {
      guard case .refused(let why) = self.access.check(self.request("/?token=nope", headers)) else {
        Issue.record("allowed \(headers)")
        continue
      }
      #expect(why.contains("needs the token"))
    }
  }

  @Test func refusesAnotherHostNameEvenWithTheToken() {
    for host in ["evil.example:8123", "127.0.0.1:8124", "127.0.0.1", "localhost.evil:8123"] {
      let decision = self.access.check(self.request("/?token=secret", ["Host": host]))
      #expect(
        decision
          == .refused(
            "The Host header '\(host)' does not name this inspector; open http://127.0.0.1:8123/ "
              + "(a page on another site cannot reach it)."))
    }
  }

  @Test func refusesRequestsFromAnotherOrigin() {
    let foreign = self.request(
      "/api/send",
      ["Host": "127.0.0.1:8123", "Origin": "http://evil.example", "Authorization": "Token secret"])
    #expect(
      self.access.check(foreign)
        == .refused("Requests from the page at 'http://evil.example' are not accepted."))
    let own = self.request(
      "/api/send",
      [
        "Host": "127.0.0.1:8123", "Origin": "http://127.0.0.1:8123",
        "Authorization": "Token secret",
      ])
    #expect(self.access.check(own) == .allowed(setCookie: false))
  }

  @Test func makesTokensOf48HexadecimalDigits() {
    var generator = SystemRandomNumberGenerator()
    let tokens = (0..<8).map { _ in InspectorAccess.makeToken(using: &generator) }
    #expect(tokens.allSatisfy { $0.count == 48 && $0.allSatisfy(\.isHexDigit) })
    #expect(Set(tokens).count == 8)
  }
}

@Suite struct ScopeCatalogTests {
  let patterns = [
    "counter", "todos", "todos/{id}", "shop/products", "shop/products/{id}/addToCart", "a/{id}",
  ]

  @Test func findsTheParentScopeOfACollectionPattern() {
    #expect(
      ScopeCatalog.collectionSource(of: "todos/{id}", among: self.patterns)! == ("todos", "todos"))
    #expect(
      ScopeCatalog.collectionSource(of: "shop/products/{id}/addToCart", among: self.patterns)!
        == ("shop/products", "products"))
    #expect(ScopeCatalog.collectionSource(of: "counter", among: self.patterns) == nil)
    // No scope 'a' to read the ids from.
    #expect(ScopeCatalog.collectionSource(of: "a/{id}", among: self.patterns) == nil)
  }

  @Test func readsIDsFromTheNamedMemberOrTheOnlyCollection() throws {
    let todos = try JSON(
      parsing: #"{"filter":"all","todos":[{"id":"A"},{"id":"B"}],"tags":[{"id":1}]}"#)
    #expect(ScopeCatalog.ids(in: todos, member: "todos") == ["A", "B"])
    let products = try JSON(parsing: #"{"loadingStatus":"loaded","items":[{"id":1},{"id":2}]}"#)
    #expect(ScopeCatalog.ids(in: products, member: "products") == ["1", "2"])
    let array = try JSON(parsing: #"[{"id":7}]"#)
    #expect(ScopeCatalog.ids(in: array, member: "x") == ["7"])
    let ambiguous = try JSON(parsing: #"{"a":[{"id":1}],"b":[{"id":2}]}"#)
    #expect(ScopeCatalog.ids(in: ambiguous, member: "x") == nil)
    let noIDs = try JSON(parsing: #"{"todos":[{"name":"x"}]}"#)
    #expect(ScopeCatalog.ids(in: noIDs, member: "todos") == nil)
  }
}
