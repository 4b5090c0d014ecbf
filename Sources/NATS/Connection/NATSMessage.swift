/// A message delivered to a subscription, or the reply to a request.
public struct NATSMessage: Sendable, Equatable {
  /// The subject it was published to.
  public var subject: String
  /// The subject to reply to, if the publisher gave one.
  public var replyTo: String?
  /// Its headers; `nil` when it has none, or when they could not be read (see ``headerError``).
  public var headers: NATSHeaders?
  /// The payload.
  public var payload: [UInt8]
  /// Why the message's header block could not be read, when it could not. The server passes
  /// on whatever block a publisher wrote; such a message is still delivered, without headers.
  public var headerError: NATSProtocolError?

  /// Creates a message.
  public init(
    subject: String, replyTo: String? = nil, headers: NATSHeaders? = nil, payload: [UInt8] = [],
    headerError: NATSProtocolError? = nil
  ) {
    self.subject = subject
    self.replyTo = replyTo
    self.headers = headers
    self.payload = payload
    self.headerError = headerError
  }

  /// A message as the parser read it, its header block interpreted.
  init(_ raw: NATSRawMessage) {
    self.subject = raw.subject
    self.replyTo = raw.replyTo
    self.payload = raw.payload
    if let block = raw.headerBytes {
      do {
        self.headers = try NATSHeaders(parsing: block)
      } catch {
        self.headerError = error
      }
    }
  }

  /// The status of a server-made message (`503`, `100`, `404`…), or `nil`.
  public var status: Int? { self.headers?.status }

  /// The payload as UTF-8 text.
  public var text: String { String(decoding: self.payload, as: UTF8.self) }
}
