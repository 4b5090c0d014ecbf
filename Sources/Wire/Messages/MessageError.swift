/// A message that could not be decoded: the payload was JSON, but not a valid protocol message.
///
/// The ``message`` names the message type and the offending member, e.g.
/// `send: missing member 'scope'` or `get: 'id' must be an integer`; a host sends it back as
/// `error{id, code, message}`, echoing ``id`` when the request carried an integer one.
public struct MessageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The protocol error code: ``ErrorCode/badMessage``, or ``ErrorCode/badJSON`` when the top
  /// level is not an object.
  public var code: ErrorCode
  /// The request's `id` when it had an integer one, so that the reply can echo it.
  public var id: Int64?
  /// A human-readable reason naming the offending member.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - code: The protocol error code.
  ///   - id: The request's integer `id`, if it had one.
  ///   - message: A human-readable reason naming the offending member.
  public init(code: ErrorCode, id: Int64?, message: String) {
    self.code = code
    self.id = id
    self.message = message
  }

  /// The reason, prefixed by the code: `bad_message: send: missing member 'scope'`.
  public var description: String { "\(self.code.rawValue): \(self.message)" }
}
