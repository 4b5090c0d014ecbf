import HTTPServing
import Remote
import Wire

/// The inspector's HTTP interface: access control first (``InspectorAccess``), then the page's
/// files, the event stream and the JSON API.
///
/// | path | method | answer |
/// | --- | --- | --- |
/// | `/`, `/inspector.css`, `/*.js` | GET, HEAD | the page ([InspectorPage]) |
/// | `/api/events?scope=S` | GET | Server-Sent Events: status, snapshot, patch, log, entry, figures… |
/// | `/api/scopes` | GET | `{"scopes":[{pattern, writable, description, ids}]}` |
/// | `/api/state?scope=S[&at=R]` | GET | `{"scope", "rev", "state"}`, now or at revision R |
/// | `/api/change?scope=S&rev=R` | GET | `{"scope", "rev", "ops"}`: what rev R changed in S |
/// | `/api/history?since=R&limit=N` | GET | `{"oldest", "rev", "entries"}` |
/// | `/api/send` | POST `{"scope", "action"}` | `{"rev"}` once the host acknowledged it |
///
/// Errors are `{"error":{"code", "message"}}` with a status that says whose they are: 400 for
/// a malformed request, 403 refused, 404 unknown, 405 wrong method, 409 not available now,
/// 415 not JSON, 422 an action the scope does not take, 502/503 the host's side.
struct InspectorRoutes: Sendable {
  let access: InspectorAccess
  let inspector: Inspector

  /// Answers one request (called on the HTTP server's thread: the work goes to a task).
  func handle(_ request: HTTPRequest, _ responder: HTTPResponder) {
    let setCookie: Bool
    switch self.access.check(request) {
    case .refused(let reason):
      return responder.respond(self.finish(.text(.forbidden, reason), setCookie: false))
    case .allowed(let cookie):
      setCookie = cookie
    }
    let path = request.path
    if let resource = InspectorPage.resources[path] {
      guard request.method == "GET" || request.method == "HEAD" else {
        return responder.respond(self.finish(Self.methodNotAllowed("GET, HEAD"), setCookie: false))
      }
      var response = HTTPResponse(
        status: .ok, headers: ["Content-Type": resource.contentType], body: resource.body)
      response.headers.add("Content-Security-Policy", InspectorPage.contentSecurityPolicy)
      return responder.respond(self.finish(response, setCookie: setCookie))
    }
    guard let allowed = Self.methods[path] else {
      return responder.respond(
        self.finish(Self.error(.notFound, "not_found", "No such path: \(path)"), setCookie: false))
    }
    guard request.method == allowed else {
      return responder.respond(self.finish(Self.methodNotAllowed(allowed), setCookie: false))
    }
    guard let query = request.query else {
      return responder.respond(
        self.finish(
          Self.error(.badRequest, "bad_query", "The query is malformed (a bad % escape?)"),
          setCookie: false))
    }
    if path == "/api/events" {
      let stream = responder.startEventStream(headers: self.commonHeaders(setCookie: setCookie))
      let inspector = self.inspector
      let scope = query.first("scope").flatMap { $0.isEmpty ? nil : $0 }
      Task { await inspector.addViewer(stream, scope: scope) }
      return
    }
    Task {
      let response = await self.answer(
        path, query: query, body: request.body, headers: request.headers)
      responder.respond(self.finish(response, setCookie: setCookie))
    }
  }

  /// The API's paths and the method each takes.
  static let methods: [String: String] = [
    "/api/events": "GET", "/api/scopes": "GET", "/api/state": "GET", "/api/change": "GET",
    "/api/history": "GET", "/api/send": "POST",
  ]

  private func answer(
    _ path: String, query: HTTPQuery, body: [UInt8], headers: HTTPHeaders
  ) async -> HTTPResponse {
    do throws(RouteError) {
      switch path {
      case "/api/scopes":
        return Self.json(try await self.inspector.scopeList())
      case "/api/state":
        let scope = try Self.required("scope", in: query, example: "/api/state?scope=counter")
        let at = try Self.revision("at", in: query, minimum: 0)
        let snapshot = try await self.inspector.state(of: scope, at: at)
        return Self.json(Inspector.snapshotJSON(scope, snapshot))
      case "/api/change":
        let scope = try Self.required(
          "scope", in: query, example: "/api/change?scope=counter&rev=2")
        guard let rev = try Self.revision("rev", in: query, minimum: 1) else {
          throw RouteError(.badRequest, "bad_query", "Missing 'rev' (the entry's revision)")
        }
        return Self.json(try await self.inspector.change(in: scope, at: rev))
      case "/api/history":
        let since = try Self.revision("since", in: query, minimum: 0)
        let limit = try Self.revision("limit", in: query, minimum: 1).map { min(Int($0), 10_000) }
        return Self.json(try await self.inspector.history(since: since, limit: limit ?? 100))
      case "/api/send":
        let (scope, action) = try Self.dispatch(body: body, headers: headers)
        let rev = try await self.inspector.send(action, to: scope)
        return Self.json(.object(["scope": .string(scope), "rev": .int(rev)]))
      default:
        throw RouteError(.notFound, "not_found", "No such path: \(path)")
      }
    } catch {
      return Self.error(error.status, error.code, error.message)
    }
  }

  // MARK: - Reading requests

  private static func required(_ name: String, in query: HTTPQuery, example: String)
    throws(RouteError) -> String
  {
    guard let value = query.first(name), !value.isEmpty else {
      throw RouteError(.badRequest, "bad_query", "Missing '\(name)', as in \(example)")
    }
    return value
  }

  private static func revision(_ name: String, in query: HTTPQuery, minimum: Int64)
    throws(RouteError) -> Int64?
  {
    guard let text = query.first(name) else { return nil }
    guard let value = Int64(text), value >= minimum else {
      throw RouteError(
        .badRequest, "bad_query", "'\(name)' must be an integer from \(minimum), not '\(text)'")
    }
    return value
  }

  /// The scope and action of a dispatch: a JSON object `{"scope": "counter", "action": {…}}`.
  private static func dispatch(body: [UInt8], headers: HTTPHeaders) throws(RouteError) -> (
    String, JSON
  ) {
    let type = headers["Content-Type"]?.split(separator: ";").first.map {
      String($0.filter { $0 != " " && $0 != "\t" }).lowercased()
    }
    guard type == "application/json" else {
      throw RouteError(
        .unsupportedMediaType, "bad_request", "Send the action as application/json")
    }
    let json: JSON
    do {
      json = try body.withUnsafeBytes { bytes throws(JSONParseError) in try JSON(parsing: bytes) }
    } catch {
      throw RouteError(.badRequest, "bad_json", "The body is not JSON: \(error)")
    }
    guard case .object(let object) = json, case .string(let scope)? = object["scope"],
      let action = object["action"]
    else {
      throw RouteError(
        .badRequest, "bad_request", #"Expected {"scope": "…", "action": {…}}"#)
    }
    return (scope, action)
  }

  // MARK: - Answers

  /// Fields every answer carries: nothing is cached, sniffed, framed, or leaked in a referrer.
  private func commonHeaders(setCookie: Bool) -> HTTPHeaders {
    var headers: HTTPHeaders = [
      "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
    ]
    if setCookie { headers.add("Set-Cookie", self.access.setCookie) }
    return headers
  }

  private func finish(_ response: HTTPResponse, setCookie: Bool) -> HTTPResponse {
    var response = response
    for (name, value) in self.commonHeaders(setCookie: setCookie) {
      if name == "Set-Cookie" || response.headers[name] == nil { response.headers.add(name, value) }
    }
    return response
  }

  private static func json(_ value: JSON) -> HTTPResponse {
    .json(.ok, value.serialized())
  }

  static func error(_ status: HTTPStatus, _ code: String, _ message: String) -> HTTPResponse {
    let body: JSON = .object([
      "error": .object(["code": .string(code), "message": .string(message)])
    ])
    return .json(status, body.serialized())
  }

  private static func methodNotAllowed(_ allow: String) -> HTTPResponse {
    var response = Self.error(.methodNotAllowed, "method_not_allowed", "Use \(allow) here")
    response.headers.add("Allow", allow)
    return response
  }
}

/// A request the API cannot answer, with the status and code to answer with.
struct RouteError: Error {
  var status: HTTPStatus
  var code: String
  var message: String

  init(_ status: HTTPStatus, _ code: String, _ message: String) {
    self.status = status
    self.code = code
    self.message = message
  }

  /// The answer for a failure of the host or of the connection to it.
  init(_ error: RemoteError) {
    let message = error.description
    switch error {
    case .unknownScope: self.init(.notFound, "unknown_scope", message)
    case .scopeUnavailable: self.init(.conflict, "scope_unavailable", message)
    case .rejected(let code, let text):
      switch code {
      case .forbidden: self.init(.forbidden, code.rawValue, text)
      case .badAction: self.init(.unprocessableContent, code.rawValue, text)
      case .badMessage, .badJSON: self.init(.badRequest, code.rawValue, text)
      case .revisionUnavailable, .notSubscribed: self.init(.conflict, code.rawValue, text)
      case .overloaded, .unavailable: self.init(.serviceUnavailable, code.rawValue, text)
      default: self.init(.badGateway, code.rawValue, text)
      }
    case .noHost, .notASocket, .connectionFailed, .disconnected, .timedOut, .closed,
      .transportFailed:
      self.init(.serviceUnavailable, "host_unreachable", message)
    case .untrustedHost:
      self.init(.badGateway, "untrusted_host", message)
    case .protocolViolation, .coding, .scopeGone:
      self.init(.badGateway, "protocol_error", message)
    }
  }
}
