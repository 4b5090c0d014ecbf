/// Reports a test failure to whichever test framework runs the current test.
///
/// The Architecture library never links XCTest or Testing (the host daemon links it), so it
/// finds them at run time, as swift-issue-reporting does. A test target needs nothing but the
/// `Architecture` product: no support library, no linker flag.
///
/// 0. A failure the test expects (``XCTExpectFailure(_:enabled:strict:issueMatcher:fileID:filePath:line:column:)``)
///    is printed as an expected failure and goes no further.
/// 1. Inside a Swift Testing test (`Test.current` is set), the failure is recorded with Swift
///    Testing's own `Issue.record(_:sourceLocation:)`, at the given source location, so it
///    shows at the caller's line and `withKnownIssue` can match it (see ``_SwiftTesting``).
/// 2. Otherwise, when XCTest is loaded, through `XCTFail(_:file:line:)` (see ``_XCTest``).
/// 3. Otherwise it is printed to standard error.
///
/// - Parameters:
///   - message: The failure message.
///   - fileID: The `#fileID` of the call site the failure is about.
///   - filePath: The `#filePath` of that call site.
///   - line: Its line.
///   - column: Its column.
///   - owner: The test the failure belongs to (see `_ExpectedFailures`).
func _reportIssue(
  _ message: String,
  fileID: StaticString,
  filePath: StaticString,
  line: UInt,
  column: UInt,
  owner: UInt64 = _IssueOwner.current
) {
  #if !canImport(ObjectiveC)
    let issue = XCTIssue(
      type: .assertionFailure, compactDescription: message, detailedDescription: message,
      sourceCodeContext: XCTSourceCodeContext(
        location: XCTSourceCodeLocation(filePath: "\(filePath)", lineNumber: Int(line))))
    if _ExpectedFailures.absorb(issue, owner: owner) {
      _TestPlatform.writeToStandardError("\(fileID):\(line): expected failure: \(message)\n")
      return
    }
  #endif
  if let swiftTesting = _SwiftTesting.shared, swiftTesting.isRunningTest() {
    // Swift Testing's `SourceLocation` traps on a line or column below 1 (a location that is
    // not known is reported on the first line).
    swiftTesting.recordIssue(
      message, fileID: "\(fileID)", filePath: "\(filePath)", line: max(Int(line), 1),
      column: max(Int(column), 1))
    return
  }
  if let fail = _XCTest.fail {
    fail(message, filePath, line)
    return
  }
  _TestPlatform.writeToStandardError("\(fileID):\(line): error: \(message)\n")
}

// MARK: - Swift Testing

/// Swift Testing, reached through its public ABI without importing or linking it.
///
/// Testing is built with library evolution (the toolchain ships its `.swiftinterface`, not a
/// binary module), so its public functions keep their mangled names and calling conventions,
/// and its structs are resilient: outside the module, a `Comment`, `SourceLocation`, `Issue` or
/// `Test` is always passed and returned by address, and is sized, copied and destroyed through
/// its type metadata. The bridge therefore needs no copy of any of their layouts:
///
/// - the types' metadata come from the runtime by mangled name (`_typeByName`), and are opened
///   as the generic parameters of ``Bridge``;
/// - each entry point, found with `dlsym` by its mangled name, is cast in ``Bridge`` to a
///   function type written with those generic parameters. A value of generic type is passed and
///   returned by address too, so each cast names exactly the signature the symbol was compiled
///   with (the reasons are spelled out at each cast).
///
/// The mangled names, checked with `nm -D` on the toolchain's `libTesting.so` (Swift 6.3) and
/// present since Swift Testing's first release:
///
/// | Symbol | Demangled |
/// | --- | --- |
/// | `$s7Testing4TestV7currentACSgvgZ` | `static Test.current.getter : Test?` |
/// | `$s7Testing7CommentV8rawValueACSS_tcfC` | `Comment.init(rawValue: String)` |
/// | `$s7Testing14SourceLocationV6fileID0D4Path4line6columnACSS_SSS2itcfC` | `SourceLocation.init(fileID:filePath:line:column:)` |
/// | `$s7Testing5IssueV6record_14sourceLocationAcA7CommentVSg_AA06SourceE0VtFZ` | `static Issue.record(_: Comment?, sourceLocation: SourceLocation) -> Issue` |
enum _SwiftTesting {
  /// What the issue reporter needs from Swift Testing.
  protocol Recorder: Sendable {
    /// Whether the calling task runs inside a Swift Testing test.
    func isRunningTest() -> Bool

    /// Records an issue (a test failure) with `message` at a source location.
    func recordIssue(_ message: String, fileID: String, filePath: String, line: Int, column: Int)
  }

  /// Swift Testing's entry points, or `nil` when the process has not loaded it (any program
  /// that is not a test, like the host daemon). Looked up once.
  static let shared: (any Recorder)? = Self.lookUp()

  private static func lookUp() -> (any Recorder)? {
    guard
      let comment = _typeByName("7Testing7CommentV"),
      let sourceLocation = _typeByName("7Testing14SourceLocationV"),
      let issue = _typeByName("7Testing5IssueV"),
      let test = _typeByName("7Testing4TestV"),
      let current = _TestPlatform.symbol(named: "$s7Testing4TestV7currentACSgvgZ"),
      let makeComment = _TestPlatform.symbol(named: "$s7Testing7CommentV8rawValueACSS_tcfC"),
      let makeSourceLocation = _TestPlatform.symbol(
        named: "$s7Testing14SourceLocationV6fileID0D4Path4line6columnACSS_SSS2itcfC"),
      let record = _TestPlatform.symbol(
        named: "$s7Testing5IssueV6record_14sourceLocationAcA7CommentVSg_AA06SourceE0VtFZ")
    else { return nil }
    let symbols = Symbols(
      current: current, makeComment: makeComment, makeSourceLocation: makeSourceLocation,
      record: record)
    // Opens the four metatypes as the bridge's generic parameters.
    func open<C, L, I, T>(_: C.Type, _: L.Type, _: I.Type, _: T.Type) -> any Recorder {
      Bridge<C, L, I, T>(symbols)
    }
    return open(comment, sourceLocation, issue, test)
  }

  /// The addresses of the entry points, before they are given their types.
  struct Symbols {
    let current: UnsafeMutableRawPointer
    let makeComment: UnsafeMutableRawPointer
    let makeSourceLocation: UnsafeMutableRawPointer
    let record: UnsafeMutableRawPointer
  }

  /// Swift Testing's entry points, typed with its own types as generic parameters: `Comment`,
  /// `SourceLocation`, `Issue` and `Test`, opened from their metadata.
  ///
  /// Why each cast matches the symbol's real signature (Swift calling convention):
  /// - A struct's metatype is thin, so the `self` of its static members and initializers is
  ///   passed as nothing at all: a thin function of the other parameters is the whole call.
  /// - Each resilient type is passed and returned by address from outside Testing; so is a
  ///   value of generic type, and `Optional` of either is address-only alike, with the same
  ///   layout (an enum's layout is computed from its payload's metadata by the same rules in
  ///   the compiler and the runtime).
  /// - `String` and `Int` are the standard library's own types, passed the same way by both.
  /// - Initializers take their arguments owned (`consuming`); other functions borrow theirs
  ///   (the default for a function type's parameters).
  /// - A returned `Issue` or `Test?` becomes this code's value, destroyed through its metadata
  ///   like any generic value.
  final class Bridge<Comment, SourceLocation, Issue, Test>: Recorder, @unchecked Sendable {
    // @unchecked: every stored property is a `let` holding a thin function pointer, which
    // captures nothing, so the bridge is immutable and shares no state.

    /// `static Test.current.getter : Test?`
    typealias Current = @convention(thin) () -> Test?
    /// `Comment.init(rawValue: String)`
    typealias MakeComment = @convention(thin) (consuming String) -> Comment
    /// `SourceLocation.init(fileID: String, filePath: String, line: Int, column: Int)`
    typealias MakeSourceLocation =
      @convention(thin) (consuming String, consuming String, Int, Int) -> SourceLocation
    /// `static Issue.record(_: Comment?, sourceLocation: SourceLocation) -> Issue`
    typealias Record = @convention(thin) (Comment?, SourceLocation) -> Issue

    let current: Current
    let makeComment: MakeComment
    let makeSourceLocation: MakeSourceLocation
    let record: Record

    init(_ symbols: Symbols) {
      // Each symbol is the function its mangled name spells (the table in `_SwiftTesting`'s
      // documentation), and each type above is that function's signature by the rules listed
      // in this class's documentation; a thin function is one code pointer, as is the address.
      self.current = unsafeBitCast(symbols.current, to: Current.self)
      self.makeComment = unsafeBitCast(symbols.makeComment, to: MakeComment.self)
      self.makeSourceLocation = unsafeBitCast(
        symbols.makeSourceLocation, to: MakeSourceLocation.self)
      self.record = unsafeBitCast(symbols.record, to: Record.self)
    }

    func isRunningTest() -> Bool {
      self.current() != nil
    }

    func recordIssue(
      _ message: String, fileID: String, filePath: String, line: Int, column: Int
    ) {
      // `SourceLocation.init` requires a line and a column of at least 1.
      let location = self.makeSourceLocation(fileID, filePath, max(line, 1), max(column, 1))
      _ = self.record(self.makeComment(message), location)
    }
  }
}

// MARK: - XCTest

/// XCTest's `XCTFail`, found at run time.
enum _XCTest {
  /// `XCTest.XCTFail(_: String, file: StaticString, line: UInt) -> ()`, the same symbol in
  /// swift-corelibs-xctest (checked with `nm -D` on the toolchain's `libXCTest.so`) and in
  /// Apple's XCTest overlay; `nil` when XCTest is not loaded.
  ///
  /// The cast is safe: the symbol is that function, and this is its signature. Its parameters
  /// are standard library types, passed alike whether or not XCTest was built with library
  /// evolution; it is a global function, so there is no `self`; and a thin function is one code
  /// pointer, as is the address.
  static let fail: (@convention(thin) (String, StaticString, UInt) -> Void)? = _TestPlatform.symbol(
    named: "$s6XCTest7XCTFail_4file4lineySS_s12StaticStringVSutF"
  )
  .map { unsafeBitCast($0, to: (@convention(thin) (String, StaticString, UInt) -> Void).self) }
}
