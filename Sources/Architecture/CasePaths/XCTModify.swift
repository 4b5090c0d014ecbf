/// Asserts that an optional holds a value and changes it in place, as swift-case-paths'
/// `XCTModify` (re-exported by TCA): in a test store's expectation, change presented state
/// without spelling it whole.
///
/// ```swift
/// await store.send(.child(.presented(.incrementButtonTapped))) {
///   XCTModify(&$0.child) { $0.count = 1 }
/// }
/// ```
///
/// A `nil` value fails the test, and so does a closure that leaves the value unchanged while the
/// test store is exhaustive (it would assert nothing).
///
/// - Parameters:
///   - optional: The optional, changed in place.
///   - message: A description of the failure.
///   - body: Changes the wrapped value.
///   - filePath: The caller's file.
///   - line: The caller's line.
public func XCTModify<Wrapped>(
  _ optional: inout Wrapped?,
  _ message: @autoclosure () -> String = "",
  _ body: (inout Wrapped) throws -> Void,
  file filePath: StaticString = #filePath,
  line: UInt = #line
) {
  _modify(
    &optional, AnyCasePath(embed: { $0 }, extract: { $0 }), message(), body, filePath: filePath,
    line: line)
}

/// Asserts that an enum value is in a case and changes its payload in place, as
/// swift-case-paths' `XCTModify`.
///
/// ```swift
/// await store.send(.destination(.presented(.edit(.titleChanged("Groceries"))))) {
///   XCTModify(&$0.destination, case: \.some.edit) { $0.title = "Groceries" }
/// }
/// ```
///
/// - Parameters:
///   - enum: The enum value, changed in place.
///   - keyPath: The case.
///   - message: A description of the failure.
///   - body: Changes the payload.
///   - filePath: The caller's file.
///   - line: The caller's line.
public func XCTModify<Enum, Case>(
  _ enum: inout Enum,
  case keyPath: CaseKeyPath<Enum, Case>,
  _ message: @autoclosure () -> String = "",
  _ body: (inout Case) throws -> Void,
  file filePath: StaticString = #filePath,
  line: UInt = #line
) {
  _modify(&`enum`, AnyCasePath(keyPath), message(), body, filePath: filePath, line: line)
}

/// Whether ``XCTModify(_:_:_:file:line:)`` asks its closure to change something: not inside a
/// non-exhaustive test store's expectation, which describes the state as it is.
enum _XCTModifyContext {
  @TaskLocal static var isExhaustive = true
}

private func _modify<Enum, Case>(
  _ enum: inout Enum,
  _ path: AnyCasePath<Enum, Case>,
  _ message: String,
  _ body: (inout Case) throws -> Void,
  filePath: StaticString,
  line: UInt
) {
  func fail(_ text: String) {
    _reportIssue(text, fileID: filePath, filePath: filePath, line: line, column: 0)
  }
  guard var value = path.extract(from: `enum`) else {
    fail(
      """
      XCTModify: Expected to extract value of type "\(_dumpTypeName(Case.self))" from \
      "\(_dumpTypeName(Enum.self))"\(message.isEmpty ? "" : " - " + message) …

        Actual:
          \(`enum`)
      """)
    return
  }
  let before = value
  do {
    try body(&value)
  } catch {
    fail("Threw error: \(error)")
    return
  }
  if _XCTModifyContext.isExhaustive, let equal = _anyEqual(before, value), equal {
    fail(
      """
      XCTModify: Expected "\(_dumpTypeName(Case.self))" value to be modified but it was \
      unchanged.
      """)
  }
  `enum` = path.embed(value)
}

/// `==` of two values of the same type when it is `Equatable`, else `nil`.
func _anyEqual(_ lhs: Any, _ rhs: Any) -> Bool? {
  guard let lhs = lhs as? any Equatable else { return nil }
  return _isEqual(lhs, rhs)
}
