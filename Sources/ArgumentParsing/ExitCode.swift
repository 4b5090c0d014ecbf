/// Process exit codes, as swift-argument-parser and sysexits(3) define them.
public enum ExitCode: Int32, Sendable {
  /// Success.
  case success = 0
  /// The operation failed (an error from the host or the protocol).
  case failure = 1
  /// The command was used incorrectly (`EX_USAGE`).
  case usage = 64
  /// A service the command needs is not available (`EX_UNAVAILABLE`), e.g. no host listening.
  case unavailable = 69
  /// Interrupted by SIGINT, as shells report it.
  case interrupted = 130
}
