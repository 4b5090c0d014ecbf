import ArgumentParsing
import Remote

/// A failure that ends the tool: `Error: <message>` on stderr and an exit code.
struct CommandFailure: Error, Equatable {
  /// What went wrong, for people.
  var message: String
  /// The exit status: 1 for an error from the host or the protocol, 69 when no host listens.
  var exitCode: ExitCode

  /// The failure for a remote error: 69 with what to do when no host is listening, 1 else.
  init(_ error: RemoteError) {
    self.message = error.description
    if case .noHost = error {
      self.exitCode = .unavailable
    } else {
      self.exitCode = .failure
    }
  }

  /// A failure with an explicit message and status.
  init(_ message: String, exitCode: ExitCode = .failure) {
    self.message = message
    self.exitCode = exitCode
  }
}
