/// One complete request, as ``HTTPRequestParser`` read it.
///
/// ```swift
/// if request.method == "GET", request.path == "/api/state",
///   let scope = request.query?.first("scope") { … }
/// ```
public struct HTTPRequest: Sendable, Hashable {
  /// The method, case-sensitive as HTTP defines it (`GET`, `POST`, …).
  public var method: String
  /// The request target as sent: `/api/state?scope=counter`, `http://host/path` or `*`.
  public var target: String
  /// The version from the request line.
  public var version: HTTPVersion
  /// The header fields, in order (trailer fields of a chunked body are not included).
  public var headers: HTTPHeaders
  /// The body (empty when the request has none); a chunked body is already decoded.
  public var body: [UInt8]

  /// Creates a request.
  public init(
    method: String, target: String, version: HTTPVersion = .http1_1,
    headers: HTTPHeaders = [:], body: [UInt8] = []
  ) {
    self.method = method
    self.target = target
    self.version = version
    self.headers = headers
    self.body = body
  }

  /// The path of the target, without its query (`/api/state`), still percent-encoded. For an
  /// absolute-form target (`http://host/path`) the path part; `*` for `OPTIONS *`.
  public var path: String {
    let origin = self.originForm
    return String(origin.prefix { $0 != "?" })
  }

  /// The query of the target (after `?`), still percent-encoded, or `nil` when there is none.
  public var rawQuery: String? {
    let origin = self.originForm
    guard let mark = origin.firstIndex(of: "?") else { return nil }
    return String(origin[origin.index(after: mark)...])
  }

  /// The query's name–value pairs, decoded (`+` is a space, `%XX` a byte; UTF-8), or `nil` when
  /// the query is malformed (a bad `%` escape or bytes that are not UTF-8). Empty without a
  /// query.
  public var query: HTTPQuery? {
    guard let raw = self.rawQuery else { return HTTPQuery(items: []) }
    return HTTPQuery(parsing: raw)
  }

  /// The authority the request is for: the absolute-form target's, else the `Host` field.
  public var authority: String? {
    if let (authority, _) = Self.splitAbsolute(self.target) { return authority }
    return self.headers["Host"]
  }

  /// Whether the connection stays open after the response: HTTP/1.1 unless `Connection:
  /// close`, HTTP/1.0 only with `Connection: keep-alive`.
  public var keepAlive: Bool {
    let tokens = self.headers.tokens("Connection")
    if tokens.contains("close") { return false }
    return self.version == .http1_1 || tokens.contains("keep-alive")
  }

  /// The request as bytes on the wire: request line, fields and the body (for clients and
  /// tests). The fields are written as they are, but for the framing: one `Content-Length`
  /// with the body's length takes the place of the first `Content-Length` or
  /// `Transfer-Encoding` (the body is already decoded), so a request read by
  /// ``HTTPRequestParser`` writes back to one that reads the same.
  ///
  /// - Returns: The bytes.
  public func serialized() -> [UInt8] {
    var text = "\(self.method) \(self.target) \(self.version)\r\n"
    var framed = false
    for (name, value) in self.headers {
      let lower = ASCII.lowercased(Substring(name))
      if lower == "content-length" || lower == "transfer-encoding" {
        // The body is decoded already: a chunked one is written with its length instead.
        if !framed { text += "Content-Length: \(self.body.count)\r\n" }
        framed = true
        continue
      }
      text += "\(name): \(value)\r\n"
    }
    if !framed && !self.body.isEmpty { text += "Content-Length: \(self.body.count)\r\n" }
    text += "\r\n"
    return Array(text.utf8) + self.body
  }

  private var originForm: Substring {
    if let (_, rest) = Self.splitAbsolute(self.target) { return rest }
    return Substring(self.target)
  }

  /// Splits `http://authority/path?query` into its authority and `/path?query` (`/` when the
  /// path is empty); `nil` for any other form.
  static func splitAbsolute(_ target: String) -> (authority: String, rest: Substring)? {
    let lower = ASCII.lowercased(Substring(target.prefix(8)))
    let schemeLength: Int
    if lower.hasPrefix("http://") {
      schemeLength = 7
    } else if lower.hasPrefix("https://") {
      schemeLength = 8
    } else {
      return nil
    }
    let afterScheme = target.dropFirst(schemeLength)
    let end = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
    let authority = String(afterScheme[..<end])
    let rest = afterScheme[end...]
    return (authority, rest.isEmpty ? "/" : rest)
  }
}
