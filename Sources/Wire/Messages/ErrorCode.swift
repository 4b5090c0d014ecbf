/// Every error code of the store protocol (PROTOCOL.md §5), as sent in `error{code}`.
public enum ErrorCode: String, Sendable, CaseIterable, Hashable {
  /// A zero-length frame or a payload that is not valid UTF-8; the connection is closed.
  case badFrame = "bad_frame"
  /// A length prefix over the host's limit (connection closed), or a reply that would exceed it
  /// (connection kept).
  case frameTooLarge = "frame_too_large"
  /// A payload that is not JSON, or whose top level is not an object.
  case badJSON = "bad_json"
  /// The first frame was not a `hello`; the connection is closed.
  case helloRequired = "hello_required"
  /// A `hello` whose `protocol` is missing or not supported; the connection is closed.
  case unsupportedProtocol = "unsupported_protocol"
  /// An unknown `type`, or a missing or mistyped member.
  case badMessage = "bad_message"
  /// A scope that matches no pattern the host declares.
  case unknownScope = "unknown_scope"
  /// A scope whose state does not currently exist.
  case scopeUnavailable = "scope_unavailable"
  /// A `send` to a read-only scope.
  case forbidden = "forbidden"
  /// An `action` that does not decode as the scope's action type.
  case badAction = "bad_action"
  /// An `unsubscribe` of a `sub` this connection does not hold.
  case notSubscribed = "not_subscribed"
  /// A configured limit was reached (connections, subscriptions per connection).
  case overloaded = "overloaded"
  /// A `get` with `at` names a revision the host cannot reconstruct (no longer, or not yet);
  /// the message names the oldest available one (§8).
  case revisionUnavailable = "revision_unavailable"
  /// The host cannot accept writes right now (its journal cannot be written); reads still
  /// work (§9).
  case unavailable = "unavailable"
}
