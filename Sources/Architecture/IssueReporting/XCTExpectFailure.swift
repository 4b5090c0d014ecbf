import Foundation

#if !canImport(ObjectiveC)
  /// A test failure, as an expectation's issue matcher sees it: XCTest's `XCTIssue`, for the
  /// failures the library reports (swift-corelibs-xctest has no such type).
  ///
  /// ```swift
  /// XCTExpectFailure {
  ///   $0.compactDescription.hasSuffix("Expected state to change, but no change occurred.")
  /// }
  /// ```
  public struct XCTIssue: Sendable {
    /// The kind of a failure.
    public enum IssueType: Int, Sendable {
      /// An assertion failed (every failure the library reports).
      case assertionFailure = 0
      /// A test threw an error.
      case thrownError = 1
      /// An exception was not caught.
      case uncaughtException = 2
      /// A performance measurement regressed.
      case performanceRegression = 3
      /// A system error.
      case system = 4
      /// An expected failure did not occur.
      case unmatchedExpectedFailure = 5
    }

    /// The kind of failure.
    public var type: IssueType
    /// The failure's message.
    public var compactDescription: String
    /// The failure's message, in full.
    public var detailedDescription: String?
    /// Where the failure was reported.
    public var sourceCodeContext: XCTSourceCodeContext

    /// Creates an issue.
    ///
    /// - Parameters:
    ///   - type: The kind of failure.
    ///   - compactDescription: The failure's message.
    ///   - detailedDescription: The message in full.
    ///   - sourceCodeContext: Where it was reported.
    public init(
      type: IssueType,
      compactDescription: String,
      detailedDescription: String? = nil,
      sourceCodeContext: XCTSourceCodeContext = XCTSourceCodeContext()
    ) {
      self.type = type
      self.compactDescription = compactDescription
      self.detailedDescription = detailedDescription
      self.sourceCodeContext = sourceCodeContext
    }
  }

  /// Where a failure was reported, as XCTest's `XCTSourceCodeContext`.
  public struct XCTSourceCodeContext: Sendable {
    /// The file and line, when known.
    public var location: XCTSourceCodeLocation?

    /// Creates a context.
    ///
    /// - Parameter location: The file and line.
    public init(location: XCTSourceCodeLocation? = nil) {
      self.location = location
    }
  }

  /// A file and line, as XCTest's `XCTSourceCodeLocation`.
  public struct XCTSourceCodeLocation: Sendable {
    /// The file.
    public var fileURL: URL
    /// The line.
    public var lineNumber: Int

    /// Creates a location.
    ///
    /// - Parameters:
    ///   - filePath: The file's path.
    ///   - lineNumber: The line.
    public init(filePath: String, lineNumber: Int) {
      self.fileURL = URL(fileURLWithPath: filePath)
      self.lineNumber = lineNumber
    }
  }

  /// Declares that the test expects a failure from here until its end: XCTest's
  /// `XCTExpectFailure`, which swift-corelibs-xctest lacks, for the failures the library reports
  /// (a test store's, `reportIssue`, unimplemented dependencies, `XCTModify`).
  ///
  /// ```swift
  /// XCTExpectFailure {
  ///   $0.compactDescription.hasSuffix("A state change does not match expectation")
  /// }
  /// await store.send(.increment) { $0.count = 42 }
  /// ```
  ///
  /// A failure the expectation takes is printed as an expected failure and fails nothing; a
  /// failure it does not take (its matcher returns `false`) fails the test as usual. Several
  /// expectations form a stack: the most recent one is asked first.
  ///
  /// On Linux (and under Swift Testing anywhere) this is the library's, and it sees only the
  /// failures the library reports: an `XCTAssert…` that fails is XCTest's own and fails the
  /// test. XCTest on Linux does not tell a library when a test ends, so a strict expectation
  /// that nothing matched cannot fail its test at its end; it is reported on standard error
  /// when the next test makes an expectation. Use the block form
  /// (``XCTExpectFailure(_:enabled:strict:failingBlock:issueMatcher:fileID:filePath:line:column:)``)
  /// where strictness matters: a block's end is known.
  ///
  /// - Parameters:
  ///   - failureReason: Why the test expects a failure.
  ///   - enabled: Whether to expect one (`nil` or `true`: yes).
  ///   - strict: Whether a missing failure is itself a failure (`nil` or `true`: yes).
  ///   - issueMatcher: Which failures are the expected ones (`nil`: all).
  ///   - fileID: The caller's file.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func XCTExpectFailure(
    _ failureReason: String? = nil,
    enabled: Bool? = nil,
    strict: Bool? = nil,
    issueMatcher: ((XCTIssue) -> Bool)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard enabled ?? true else { return }
    _ExpectedFailures.expectUntilEndOfTest(
      _ExpectedFailures.Expectation(
        reason: failureReason, strict: strict ?? true, matcher: issueMatcher,
        owner: _IssueOwner.current,
        location: _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)))
  }

  /// Declares that a block of the test is expected to fail: XCTest's `XCTExpectFailure` with a
  /// failing block, for the failures the library reports while the block runs.
  ///
  /// ```swift
  /// XCTExpectFailure {
  ///   state.destination.modify(\.alert) { _ in }
  /// } issueMatcher: {
  ///   $0.compactDescription.contains("Can't modify")
  /// }
  /// ```
  ///
  /// With `strict` (the default), the block failing to fail is a failure, reported at this call.
  ///
  /// - Parameters:
  ///   - failureReason: Why the block is expected to fail.
  ///   - enabled: Whether to expect a failure (`nil` or `true`: yes).
  ///   - strict: Whether a missing failure is itself a failure (`nil` or `true`: yes).
  ///   - failingBlock: The code expected to fail.
  ///   - issueMatcher: Which failures are the expected ones (`nil`: all).
  ///   - fileID: The caller's file.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  /// - Returns: What `failingBlock` returns.
  public func XCTExpectFailure<R>(
    _ failureReason: String? = nil,
    enabled: Bool? = nil,
    strict: Bool? = nil,
    failingBlock: () throws -> R,
    issueMatcher: ((XCTIssue) -> Bool)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) rethrows -> R {
    guard enabled ?? true else { return try failingBlock() }
    let location = _SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let expectation = _ExpectedFailures.Expectation(
      reason: failureReason, strict: strict ?? true, matcher: issueMatcher, owner: nil,
      location: location)
    _ExpectedFailures.push(expectation)
    defer {
      _ExpectedFailures.pop(expectation)
      if expectation.strict && !_ExpectedFailures.wasMatched(expectation) {
        location.reportIssue(
          "Expected failure did not occur\(failureReason.map { ": \($0)" } ?? ".")")
      }
    }
    return try failingBlock()
  }
#endif
