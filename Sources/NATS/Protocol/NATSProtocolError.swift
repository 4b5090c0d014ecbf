/// Bytes from a NATS server that break the protocol: what the parser found, where it stopped.
///
/// A connection that meets one closes the socket and reconnects (possibly to another server):
/// after a violation nothing later on the stream can be trusted. The parser keeps no more than
/// its limits allow, so a server that sends garbage costs a bounded amount of memory.
public struct NATSProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What was wrong.
  public enum Reason: Sendable, Hashable {
    /// An operation this client does not know (not INFO, MSG, HMSG, PING, PONG, +OK, -ERR).
    case unknownOperation
    /// A control line longer than the limit (no CRLF within it).
    case controlLineTooLong(limit: Int)
    /// A line ended with LF alone, or held a CR or another control byte.
    case badLineEnding
    /// The arguments of an operation do not have the protocol's shape.
    case malformedArguments
    /// A message larger than the limit (the server's `max_payload`, or the client's cap).
    case messageTooLarge(size: Int, limit: Int)
    /// A message's payload was not followed by CRLF.
    case missingPayloadTerminator
    /// A header block that does not have the `NATS/1.0` shape.
    case malformedHeaders
    /// A subject or reply subject that is empty, holds control bytes or is not UTF-8.
    case invalidSubject
  }

  /// What was wrong.
  public var reason: Reason
  /// A short excerpt of the offending bytes (printable ASCII, at most 64 characters), for logs.
  public var excerpt: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - reason: What was wrong.
  ///   - excerpt: The offending bytes, shown in the message (shortened and made printable).
  public init(_ reason: Reason, excerpt: some Collection<UInt8> = [UInt8]()) {
    self.reason = reason
    self.excerpt = Self.printable(excerpt)
  }

  /// A one-line explanation, e.g. `unknown protocol operation in "HELLO 1"`.
  public var description: String {
    let what: String =
      switch self.reason {
      case .unknownOperation: "unknown protocol operation"
      case .controlLineTooLong(let limit): "a control line longer than \(limit) bytes"
      case .badLineEnding: "a line not terminated by CRLF, or holding a control byte"
      case .malformedArguments: "malformed arguments"
      case .messageTooLarge(let size, let limit):
        "a message of \(size) bytes, over the limit of \(limit)"
      case .missingPayloadTerminator: "a message payload not followed by CRLF"
      case .malformedHeaders: "a malformed header block (it must start with NATS/1.0 and end with an empty line)"
      case .invalidSubject: "an invalid subject"
      }
    return self.excerpt.isEmpty ? what : "\(what) in \"\(self.excerpt)\""
  }

  static func printable(_ bytes: some Collection<UInt8>) -> String {
    var text = ""
    for byte in bytes.prefix(64) {
      switch byte {
      case 0x0D: text += "\\r"
      case 0x0A: text += "\\n"
      case 0x09: text += "\\t"
      case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(byte))
      default: text += "\\x" + String(byte, radix: 16, uppercase: true)
      }
    }
    return bytes.count > 64 ? text + "…" : text
  }
}
