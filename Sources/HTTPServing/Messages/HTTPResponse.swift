/// A complete response: status, header fields and body.
///
/// ```swift
/// responder.respond(.json(.ok, #"{"rev":42}"#))
/// responder.respond(.text(.notFound, "No such path: /nope"))
/// ```
///
/// The server adds `Content-Length` and `Connection` itself; the fields given here are sent as
/// they are.
public struct HTTPResponse: Sendable, Hashable {
  /// The status.
  public var status: HTTPStatus
  /// The header fields (`Content-Type`, `Cache-Control`, …).
  public var headers: HTTPHeaders
  /// The body.
  public var body: [UInt8]

  /// Creates a response.
  ///
  /// - Parameters:
  ///   - status: The status.
  ///   - headers: The header fields.
  ///   - body: The body.
  public init(status: HTTPStatus, headers: HTTPHeaders = [:], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A `text/plain` response; the text ends with a newline.
  ///
  /// - Parameters:
  ///   - status: The status.
  ///   - text: The text.
  /// - Returns: The response.
  public static func text(_ status: HTTPStatus, _ text: String) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "text/plain; charset=utf-8"],
      body: Array((text.hasSuffix("\n") ? text : text + "\n").utf8))
  }

  /// An `application/json` response.
  ///
  /// - Parameters:
  ///   - status: The status.
  ///   - json: The JSON text.
  /// - Returns: The response.
  public static func json(_ status: HTTPStatus, _ json: [UInt8]) -> HTTPResponse {
    HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: json)
  }

  /// The response as bytes: status line, fields, `Content-Length`, `Connection` and the body
  /// (left out for a `HEAD` request, whose `Content-Length` still tells the body's size).
  ///
  /// - Parameters:
  ///   - keepAlive: Whether the connection stays open (`Connection: close` otherwise).
  ///   - includeBody: `false` to answer `HEAD`.
  /// - Returns: The bytes.
  public func serialized(keepAlive: Bool, includeBody: Bool = true) -> [UInt8] {
    var head = "HTTP/1.1 \(self.status.code) \(self.status.reason)\r\n"
    for (name, value) in self.headers {
      head += "\(name): \(value)\r\n"
    }
    // 1xx, 204 and 304 never have a body, nor a length (RFC 9110 §8.6).
    let bodiless = self.status.code < 200 || self.status.code == 204 || self.status.code == 304
    if !bodiless { head += "Content-Length: \(self.body.count)\r\n" }
    if !keepAlive { head += "Connection: close\r\n" }
    head += "\r\n"
    var bytes = Array(head.utf8)
    if includeBody && !bodiless { bytes += self.body }
    return bytes
  }

  /// The head of an unbounded response (an event stream): status line and fields, with
  /// neither `Content-Length` nor chunking — the body ends when the connection closes.
  ///
  /// - Returns: The bytes.
  func serializedStreamHead() -> [UInt8] {
    var head = "HTTP/1.1 \(self.status.code) \(self.status.reason)\r\n"
    for (name, value) in self.headers {
      head += "\(name): \(value)\r\n"
    }
    head += "Connection: close\r\n\r\n"
    return Array(head.utf8)
  }
}
