import Testing

// The C entry points through which the Architecture library reports test failures to Swift
// Testing without linking it (the host daemon links Architecture, and must not load Testing).
// Architecture finds them at run time with `dlsym`; a test target that uses `TestStore` depends
// on this target so that they are linked into the test process. The names and signatures are a
// contract with `Sources/Architecture/TestStore/IssueReporting.swift`.

/// Whether the calling task runs inside a Swift Testing test.
///
/// Exported to C as `architecture_testing_is_running`, for the Architecture library's issue
/// reporter.
///
/// - Returns: `true` when `Test.current` is set.
@_cdecl("architecture_testing_is_running")
public func architectureTestingIsRunning() -> Bool {
  Test.current != nil
}

/// Records a Swift Testing issue at a source location.
///
/// Exported to C as `architecture_testing_record_issue`, for the Architecture library's issue
/// reporter. The strings are NUL-terminated UTF-8.
///
/// - Parameters:
///   - message: The failure message.
///   - fileID: The `#fileID` of the failing call site.
///   - filePath: The `#filePath` of the failing call site.
///   - line: The line of the failing call site.
///   - column: The column of the failing call site.
@_cdecl("architecture_testing_record_issue")
public func architectureTestingRecordIssue(
  _ message: UnsafePointer<CChar>,
  _ fileID: UnsafePointer<CChar>,
  _ filePath: UnsafePointer<CChar>,
  _ line: Int,
  _ column: Int
) {
  Issue.record(
    Comment(rawValue: String(cString: message)),
    sourceLocation: SourceLocation(
      fileID: String(cString: fileID),
      filePath: String(cString: filePath),
      line: max(line, 1),
      column: max(column, 1)
    )
  )
}
