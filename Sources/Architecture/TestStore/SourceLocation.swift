import Synchronization

/// A call site of a test-store assertion: where its failures are reported.
struct _SourceLocation: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  /// Reports a test failure at this location.
  func reportIssue(_ message: String) {
    _reportIssue(
      message, fileID: self.fileID, filePath: self.filePath, line: self.line, column: self.column)
  }

  /// Prints an informational note (not a failure) about this location to standard error.
  func reportNote(_ message: String) {
    _TestPlatform.writeToStandardError("\(self.fileID):\(self.line): note: \(message)\n")
  }
}

/// The location of the test-store assertion running now, shared with the runtime-warning
/// reporter a test store installs, so that a warning raised by a reducer or an effect fails the
/// test at the step during which it happened.
final class _AssertionLocation: Sendable {
  private let location: Mutex<_SourceLocation>

  init(_ location: _SourceLocation) {
    self.location = Mutex(location)
  }

  var current: _SourceLocation {
    get { self.location.withLock { $0 } }
    set { self.location.withLock { $0 = newValue } }
  }
}
