/// The failures a test said it expects (``XCTExpectFailure(_:enabled:strict:issueMatcher:fileID:filePath:line:column:)``),
/// and which test each expectation belongs to.
///
/// Every failure the library reports goes through ``absorb(_:owner:)`` first: an expectation
/// that matches it takes it (the failure is printed as an expected failure and fails nothing).
/// Expectations are a stack, as XCTest's: the most recent one is asked first.
///
/// ## Which test a failure belongs to
///
/// A blockless expectation lasts until the end of its test. XCTest on Linux does not tell a
/// library when a test ends, so the library tells tests apart by their tasks: XCTest runs each
/// async test in a task of its own (a synchronous test runs outside any task), and Swift Testing
/// each test. The *owner* of a failure is that task (by its runtime id, which is never reused);
/// a failure a test store reports belongs to the test that created the store, wherever it is
/// reported from (its effects, another task). An expectation only takes its own test's failures,
/// and the expectations of a test that is over are dropped when the next one makes one.
enum _ExpectedFailures {
  /// One expectation.
  ///
  /// `@unchecked Sendable`: its stored properties are immutable except `matched`, which is only
  /// touched under `stack`'s lock; the matcher closure is the test's, called from whichever
  /// thread reports a failure, as XCTest calls it from the thread that records one.
  final class Expectation: @unchecked Sendable {
    let reason: String?
    let strict: Bool
    let matcher: ((XCTIssue) -> Bool)?
    /// The test it belongs to; `nil` for a block's expectation, which takes every failure
    /// reported while its block runs.
    let owner: UInt64?
    let location: _SourceLocation
    var matched = 0

    init(
      reason: String?, strict: Bool, matcher: ((XCTIssue) -> Bool)?, owner: UInt64?,
      location: _SourceLocation
    ) {
      self.reason = reason
      self.strict = strict
      self.matcher = matcher
      self.owner = owner
      self.location = location
    }
  }

  private static let stack = _Lock<[Expectation]>([])

  /// Pushes the expectation of a block, for the duration of the block.
  static func push(_ expectation: Expectation) {
    self.stack.withLock { $0.append(expectation) }
  }

  /// Removes a block's expectation once its block has run.
  static func pop(_ expectation: Expectation) {
    self.stack.withLock { stack in stack.removeAll { $0 === expectation } }
  }

  /// Adds an expectation for the rest of its owner's test, dropping those of earlier tests.
  static func expectUntilEndOfTest(_ expectation: Expectation) {
    let dropped = self.stack.withLock { stack -> [Expectation] in
      let stale = stack.filter { $0.owner != nil && $0.owner != expectation.owner }
      stack.removeAll { $0.owner != nil && $0.owner != expectation.owner }
      stack.append(expectation)
      return stale
    }
    for stale in dropped where stale.strict && stale.matched == 0 {
      // The test it belonged to is over, so this is no failure of the test running now; say so.
      _TestPlatform.writeToStandardError(
        "\(stale.location.fileID):\(stale.location.line): warning: XCTExpectFailure"
          + "\(stale.reason.map { " (\($0))" } ?? ""): no matching failure was recorded by the"
          + " end of its test.\n")
    }
  }

  /// Gives a failure to the most recent expectation that takes it; returns whether one did.
  static func absorb(_ issue: XCTIssue, owner: UInt64) -> Bool {
    // The matchers run outside the lock: a matcher is test code, and may report failures.
    let candidates = self.stack.withLock { stack in
      stack.reversed().filter { $0.owner == nil || $0.owner == owner }
    }
    for expectation in candidates where expectation.matcher?(issue) ?? true {
      self.stack.withLock { _ in expectation.matched += 1 }
      return true
    }
    return false
  }

  /// Whether a block's expectation was met.
  static func wasMatched(_ expectation: Expectation) -> Bool {
    self.stack.withLock { _ in expectation.matched > 0 }
  }
}

/// The test the code running now belongs to (see ``_ExpectedFailures``): the test that created
/// the test store whose `send` (or effect) this is, else the current task, else `0` for code
/// outside any task (a synchronous XCTest test).
enum _IssueOwner {
  static var current: UInt64 {
    if let location = _TestStoreContext.sendLocation { return location.owner }
    return self.currentTask ?? 0
  }

  /// The runtime's id of the current task: unique for the life of the process (a task's
  /// address may be reused once it is freed; its id never is).
  static var currentTask: UInt64? {
    withUnsafeCurrentTask { task in
      guard let task else { return nil }
      // `UnsafeCurrentTask` holds one reference, the task, which is a job of the runtime
      // (`AsyncTask` derives from `Job`): the same single pointer `UnownedJob` holds, so the
      // bit cast is a no-op that neither retains nor releases. The task is running (it is the
      // current one), so the pointer is valid for the call.
      return _taskID(unsafeBitCast(task, to: UnownedJob.self))
    }
  }
}

/// The Swift runtime's `uint64_t swift_task_getJobTaskId(Job *)` (exported by
/// libswift_Concurrency and declared in its public `Concurrency.h`), as the standard library
/// itself declares it: for a task, the task's 64-bit id.
@_silgen_name("swift_task_getJobTaskId")
func _taskID(_ job: UnownedJob) -> UInt64
