/// Why a request could not be read; each case maps to the status a server answers with
/// (``status``) before it closes the connection.
public enum HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The request line is not `METHOD SP target SP HTTP/x.y` (400). The text says what is wrong.
  case malformedRequestLine(String)
  /// The request line is longer than the limit (414).
  case requestLineTooLong(limit: Int)
  /// The version is well formed but neither HTTP/1.0 nor HTTP/1.1 (505).
  case unsupportedVersion(String)
  /// A header line is not `name: value`, or folds onto the previous one (400).
  case malformedHeader(String)
  /// More header fields than the limit (431).
  case tooManyHeaders(limit: Int)
  /// More bytes of header fields than the limit (431).
  case headersTooLarge(limit: Int)
  /// An HTTP/1.1 request without `Host`, or with more than one (400).
  case badHost(String)
  /// A `Content-Length` that is not one decimal number (400).
  case badContentLength(String)
  /// Both `Content-Length` and `Transfer-Encoding`, or `Transfer-Encoding` that does not end
  /// with `chunked`, or in an HTTP/1.0 request (400).
  case badFraming(String)
  /// A transfer coding other than `chunked` (501).
  case unsupportedTransferCoding(String)
  /// A body larger than the limit (413).
  case bodyTooLarge(limit: Int)
  /// A chunk of a chunked body is malformed (400).
  case malformedChunk(String)
  /// An `Expect` other than `100-continue` (417).
  case unsupportedExpectation(String)

  /// The status to answer with.
  public var status: HTTPStatus {
    switch self {
    case .malformedRequestLine, .malformedHeader, .badHost, .badContentLength, .badFraming,
      .malformedChunk:
      return .badRequest
    case .requestLineTooLong: return .uriTooLong
    case .unsupportedVersion: return .httpVersionNotSupported
    case .tooManyHeaders, .headersTooLarge: return .headerFieldsTooLarge
    case .unsupportedTransferCoding: return .notImplemented
    case .bodyTooLarge: return .contentTooLarge
    case .unsupportedExpectation: return .expectationFailed
    }
  }

  /// What was wrong, for people.
  public var description: String {
    switch self {
    case .malformedRequestLine(let why): return "malformed request line: \(why)"
    case .requestLineTooLong(let limit): return "the request line is longer than \(limit) bytes"
    case .unsupportedVersion(let version):
      return "\(version) is not supported; use HTTP/1.1 or HTTP/1.0"
    case .malformedHeader(let why): return "malformed header field: \(why)"
    case .tooManyHeaders(let limit): return "more than \(limit) header fields"
    case .headersTooLarge(let limit): return "the header fields are larger than \(limit) bytes"
    case .badHost(let why): return why
    case .badContentLength(let value): return "Content-Length '\(value)' is not one decimal number"
    case .badFraming(let why): return why
    case .unsupportedTransferCoding(let coding):
      return "the transfer coding '\(coding)' is not supported; send chunked or Content-Length"
    case .bodyTooLarge(let limit): return "the body is larger than \(limit) bytes"
    case .malformedChunk(let why): return "malformed chunked body: \(why)"
    case .unsupportedExpectation(let value):
      return "Expect: \(value) is not supported (only 100-continue is)"
    }
  }
}
