import Synchronization

/// A call site of a test-store assertion, or of a reducer operator: where its failures are
/// reported.
@usableFromInline
struct _SourceLocation: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt
  /// The test this location belongs to (see `_ExpectedFailures`): the one running where it was
  /// made.
  let owner: UInt64

  init(
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt,
    owner: UInt64 = _IssueOwner.current
  ) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
    self.owner = owner
  }

  /// A reducer operator's call site (`#fileID`, `#line`), owned by the test running now.
  @usableFromInline
  init(fileID: StaticString, line: UInt) {
    self.init(fileID: fileID, filePath: fileID, line: line, column: 1)
  }

  /// Reports a test failure at this location.
  func reportIssue(_ message: String) {
    _reportIssue(
      message, fileID: self.fileID, filePath: self.filePath, line: self.line, column: self.column,
      owner: self.owner)
  }

  /// Prints an informational note (not a failure) about this location to standard error.
  func reportNote(_ message: String) {
    _TestPlatform.writeToStandardError("\(self.fileID):\(self.line): note: \(message)\n")
  }
}

/// The `send` a reducer or an effect runs on behalf of, in a test store.
///
/// Set around the test store's `send` and, through task-local inheritance and the wrapping done
/// by `_TestReducer`, seen by the effects that action starts and by the actions those effects
/// feed back: so a runtime warning raised anywhere downstream of a `send` is reported at that
/// `send`, deterministically, wherever the test is by then.
enum _TestStoreContext {
  @TaskLocal static var sendLocation: _SourceLocation?
}

/// The location of the test-store assertion running now: where runtime warnings raised outside
/// any `send`'s context are reported.
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
