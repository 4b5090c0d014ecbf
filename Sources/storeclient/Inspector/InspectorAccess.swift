import HTTPServing

/// Who may use the inspector: requests that carry its token, are addressed to it by name, and
/// — when a browser says where they come from — come from its own page.
///
/// - **Token** (as Jupyter does it): a random secret printed in the URL. A request carries it
///   in the query (`?token=…`), in `Authorization: Token …`, or in the cookie that the first
///   tokened request sets (`HttpOnly`, `SameSite=Strict`, named after the port, so that two
///   inspectors on one machine keep theirs apart). Without it: `403`. Other users of the
///   machine can connect to a loopback port, but cannot read the token.
/// - **Host**: the `Host` field must name the address served (`127.0.0.1:PORT`, or
///   `localhost:PORT`). A page on another site that makes its own name resolve to 127.0.0.1
///   (DNS rebinding) sends its own name there: `403`.
/// - **Origin**: a request with an `Origin` field must come from the inspector's own origin,
///   so that no other page can send actions with a browser's cookie (`403`).
struct InspectorAccess: Sendable {
  /// The secret.
  let token: String
  /// The address served.
  let address: IPv4Address
  /// The port served.
  let port: UInt16

  /// The verdict on one request.
  enum Decision: Equatable {
    /// Allowed; `setCookie` when the token came in the query (the page's first request),
    /// so that later requests of the page carry it by themselves.
    case allowed(setCookie: Bool)
    /// Refused, and why (sent to the client with `403`).
    case refused(String)
  }

  /// Creates the access rules with a new random token.
  init(address: IPv4Address, port: UInt16) {
    var generator = SystemRandomNumberGenerator()  // getrandom(2) / arc4random: unpredictable
    self.init(token: Self.makeToken(using: &generator), address: address, port: port)
  }

  init(token: String, address: IPv4Address, port: UInt16) {
    self.token = token
    self.address = address
    self.port = port
  }

  /// 24 random bytes as 48 hexadecimal digits.
  static func makeToken(using generator: inout some RandomNumberGenerator) -> String {
    let digits = Array("0123456789abcdef")
    return String((0..<48).map { _ in digits[Int.random(in: 0..<16, using: &generator)] })
  }

  /// The URL to open: the page, with the token.
  var url: String { "http://\(self.address):\(self.port)/?token=\(self.token)" }

  /// The cookie's name: one per port.
  var cookieName: String { "storeclient-inspector-\(self.port)" }

  /// The `Set-Cookie` value that hands the token to the page.
  var setCookie: String { "\(self.cookieName)=\(self.token); Path=/; HttpOnly; SameSite=Strict" }

  /// Decides whether `request` may be served.
  func check(_ request: HTTPRequest) -> Decision {
    guard let host = request.authority, self.isOwnAuthority(host) else {
      return .refused(
        "The Host header '\(request.authority ?? "")' does not name this inspector; open "
          + "http://\(self.address):\(self.port)/ (a page on another site cannot reach it).")
    }
    if let origin = request.headers["Origin"], !self.isOwnOrigin(origin) {
      return .refused("Requests from the page at '\(origin)' are not accepted.")
    }
    if let query = request.query, let token = query.first("token"), Self.same(token, self.token) {
      return .allowed(setCookie: true)
    }
    if let authorization = request.headers["Authorization"], authorization.hasPrefix("Token "),
      Self.same(String(authorization.dropFirst(6)), self.token)
    {
      return .allowed(setCookie: false)
    }
    if let cookie = self.cookieValue(in: request), Self.same(cookie, self.token) {
      return .allowed(setCookie: false)
    }
    return .refused(
      "This inspector needs the token that `storeclient inspect` printed: open the whole URL it "
        + "printed (http://\(self.address):\(self.port)/?token=…).")
  }

  /// `127.0.0.1:PORT` or `localhost:PORT` (without the port when it is 80), in any case.
  private func isOwnAuthority(_ authority: String) -> Bool {
    let lower = authority.lowercased()
    let names = ["\(self.address)", "localhost"]
    return names.contains { name in
      lower == "\(name):\(self.port)" || (self.port == 80 && lower == name)
    }
  }

  private func isOwnOrigin(_ origin: String) -> Bool {
    let lower = origin.lowercased()
    return lower == "http://\(self.address):\(self.port)"
      || lower == "http://localhost:\(self.port)"
  }

  private func cookieValue(in request: HTTPRequest) -> String? {
    for field in request.headers.values("Cookie") {
      for pair in field.split(separator: ";") {
        let parts = pair.split(separator: "=", maxSplits: 1)
        if parts.count == 2, parts[0].trimmingSpaces == self.cookieName {
          return String(parts[1].trimmingSpaces)
        }
      }
    }
    return nil
  }

  /// Compares in time that depends on the length only, not on where the texts differ.
  static func same(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    guard x.count == y.count else { return false }
    var difference: UInt8 = 0
    for index in x.indices { difference |= x[index] ^ y[index] }
    return difference == 0
  }
}

extension Substring {
  fileprivate var trimmingSpaces: Substring {
    guard let first = self.firstIndex(where: { $0 != " " }),
      let last = self.lastIndex(where: { $0 != " " })
    else { return "" }
    return self[first...last]
  }
}
