/// A violation of the framing layer of the store protocol (PROTOCOL.md §1).
///
/// Both cases are fatal for the connection that produced them: the byte stream can no longer be
/// split into frames, so the host answers with the matching ``ErrorCode`` and closes.
public enum FrameError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A length prefix of zero (``ErrorCode/badFrame``).
  case emptyFrame
  /// A length prefix above the configured maximum (``ErrorCode/frameTooLarge``), detected from
  /// the prefix alone, before any of the payload is buffered.
  case frameTooLarge(length: Int, limit: Int)

  /// The protocol error code a host reports for this error.
  public var code: ErrorCode {
    switch self {
    case .emptyFrame: .badFrame
    case .frameTooLarge: .frameTooLarge
    }
  }

  /// A human-readable description, e.g. `frame of 20000000 bytes exceeds the limit of 16777216`.
  public var description: String {
    switch self {
    case .emptyFrame: "zero-length frame"
    case .frameTooLarge(let length, let limit):
      "frame of \(length) bytes exceeds the limit of \(limit)"
    }
  }
}
