/// Reports a test failure to whichever test framework runs the current test.
///
/// The Architecture library never links XCTest or Testing (the host daemon links it), so it
/// finds them at run time, as swift-issue-reporting does:
///
/// 1. Inside a Swift Testing test (the test target links `ArchitectureTestSupport`, whose
///    `architecture_testing_is_running` says so), the failure is recorded with `Issue.record`
///    through `architecture_testing_record_issue`, at the given source location.
/// 2. Otherwise, when XCTest is loaded, through `XCTFail(_:file:line:)`, looked up by its
///    mangled name.
/// 3. Otherwise it is printed to standard error.
///
/// - Parameters:
///   - message: The failure message.
///   - fileID: The `#fileID` of the call site the failure is about.
///   - filePath: The `#filePath` of that call site.
///   - line: Its line.
///   - column: Its column.
func _reportIssue(
  _ message: String,
  fileID: StaticString,
  filePath: StaticString,
  line: UInt,
  column: UInt
) {
  let frameworks = _TestFrameworks.shared
  if let isRunning = frameworks.swiftTestingIsRunning, isRunning(),
    let record = frameworks.swiftTestingRecordIssue
  {
    "\(message)".withCString { message in
      "\(fileID)".withCString { fileID in
        "\(filePath)".withCString { filePath in
          record(message, fileID, filePath, Int(line), Int(column))
        }
      }
    }
    return
  }
  if let fail = frameworks.xcTestFail {
    fail(message, filePath, line)
    return
  }
  _TestPlatform.writeToStandardError("\(fileID):\(line): error: \(message)\n")
}

/// The entry points of the test frameworks present in the process, looked up once.
struct _TestFrameworks: @unchecked Sendable {
  // @unchecked: immutable after init, and every field is a C or thin function pointer, which
  // captures no state.
  typealias IsRunning = @convention(c) () -> Bool
  typealias RecordIssue =
    @convention(c) (
      UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<CChar>, Int, Int
    ) -> Void
  typealias XCTFail = @convention(thin) (String, StaticString, UInt) -> Void

  let swiftTestingIsRunning: IsRunning?
  let swiftTestingRecordIssue: RecordIssue?
  let xcTestFail: XCTFail?

  static let shared = _TestFrameworks()

  private init() {
    self.swiftTestingIsRunning = _TestPlatform.symbol(named: "architecture_testing_is_running")
      .map { unsafeBitCast($0, to: IsRunning.self) }
    self.swiftTestingRecordIssue = _TestPlatform.symbol(named: "architecture_testing_record_issue")
      .map { unsafeBitCast($0, to: RecordIssue.self) }
    // XCTFail(_:file:line:) of swift-corelibs-xctest and Apple's XCTest overlay.
    self.xcTestFail = _TestPlatform.symbol(
      named: "$s6XCTest7XCTFail_4file4lineySS_s12StaticStringVSutF"
    )
    .map { unsafeBitCast($0, to: XCTFail.self) }
  }
}
