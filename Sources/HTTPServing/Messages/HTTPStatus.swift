/// An HTTP status code and its reason phrase (RFC 9110 §15).
///
/// ```swift
/// HTTPResponse.text(.notFound, "No such page: /nope")
/// ```
public struct HTTPStatus: Sendable, Hashable, CustomStringConvertible {
  /// The three-digit code, e.g. `404`.
  public var code: Int
  /// The reason phrase sent after the code, e.g. `Not Found`.
  public var reason: String

  /// Creates a status.
  ///
  /// - Parameters:
  ///   - code: The three-digit code.
  ///   - reason: The reason phrase.
  public init(code: Int, reason: String) {
    self.code = code
    self.reason = reason
  }

  /// `200 OK`.
  public static let ok = HTTPStatus(code: 200, reason: "OK")
  /// `100 Continue`: the interim answer to `Expect: 100-continue`.
  public static let `continue` = HTTPStatus(code: 100, reason: "Continue")
  /// `204 No Content`.
  public static let noContent = HTTPStatus(code: 204, reason: "No Content")
  /// `400 Bad Request`: a request that does not follow HTTP's syntax, or the route's.
  public static let badRequest = HTTPStatus(code: 400, reason: "Bad Request")
  /// `403 Forbidden`: the token or the `Host` header is not right.
  public static let forbidden = HTTPStatus(code: 403, reason: "Forbidden")
  /// `404 Not Found`.
  public static let notFound = HTTPStatus(code: 404, reason: "Not Found")
  /// `405 Method Not Allowed` (sent with `Allow`).
  public static let methodNotAllowed = HTTPStatus(code: 405, reason: "Method Not Allowed")
  /// `408 Request Timeout`: a client that took too long to send its request.
  public static let requestTimeout = HTTPStatus(code: 408, reason: "Request Timeout")
  /// `409 Conflict`.
  public static let conflict = HTTPStatus(code: 409, reason: "Conflict")
  /// `413 Content Too Large`.
  public static let contentTooLarge = HTTPStatus(code: 413, reason: "Content Too Large")
  /// `414 URI Too Long`.
  public static let uriTooLong = HTTPStatus(code: 414, reason: "URI Too Long")
  /// `415 Unsupported Media Type`.
  public static let unsupportedMediaType = HTTPStatus(code: 415, reason: "Unsupported Media Type")
  /// `417 Expectation Failed`: an `Expect` other than `100-continue`.
  public static let expectationFailed = HTTPStatus(code: 417, reason: "Expectation Failed")
  /// `422 Unprocessable Content`.
  public static let unprocessableContent = HTTPStatus(code: 422, reason: "Unprocessable Content")
  /// `431 Request Header Fields Too Large`.
  public static let headerFieldsTooLarge = HTTPStatus(
    code: 431, reason: "Request Header Fields Too Large")
  /// `500 Internal Server Error`: a fault of the server, never of the request.
  public static let internalServerError = HTTPStatus(code: 500, reason: "Internal Server Error")
  /// `501 Not Implemented`: a transfer coding the server does not know.
  public static let notImplemented = HTTPStatus(code: 501, reason: "Not Implemented")
  /// `502 Bad Gateway`: the upstream answered something unexpected.
  public static let badGateway = HTTPStatus(code: 502, reason: "Bad Gateway")
  /// `503 Service Unavailable`: too many connections, or the upstream is away.
  public static let serviceUnavailable = HTTPStatus(code: 503, reason: "Service Unavailable")
  /// `504 Gateway Timeout`: the upstream did not answer in time.
  public static let gatewayTimeout = HTTPStatus(code: 504, reason: "Gateway Timeout")
  /// `505 HTTP Version Not Supported`.
  public static let httpVersionNotSupported = HTTPStatus(
    code: 505, reason: "HTTP Version Not Supported")

  /// `404 Not Found`-style text: the code and the reason.
  public var description: String { "\(self.code) \(self.reason)" }
}
