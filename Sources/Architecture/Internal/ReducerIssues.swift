/// The programmer errors the composing reducers report (through `runtimeWarnings`: test
/// failures in tests, warnings live), worded as TCA words them: tests match on them.
enum _ReducerIssues {
  /// Indents every line of a text.
  static func indent(_ text: String, by count: Int) -> String {
    let padding = String(repeating: " ", count: count)
    return text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : padding + $0 }
      .joined(separator: "\n")
  }

  static func ifLetMissingChild(at location: _SourceLocation, action: Any) -> String {
    """
    An "ifLet" at "\(location.fileID):\(location.line)" received a child action when child state \
    was "nil".

      Action:
    \(Self.indent(_dumpString(action), by: 4))

    This is generally considered an application logic error, and can happen for a few reasons:

    A parent reducer set child state to "nil" before this reducer ran. This reducer must run \
    before any other reducer sets child state to "nil". This ensures that child reducers can \
    handle their actions while their state is still available.

    An in-flight effect emitted this action when child state was "nil". While it may be \
    perfectly reasonable to ignore this action, consider canceling the associated effect \
    before child state becomes "nil", especially if it is a long-living effect.

    This action was sent to the store while state was "nil". Make sure that actions for this \
    reducer can only be sent from a store when state is non-"nil". In SwiftUI \
    applications, use "IfLetStore".
    """
  }

  static func ifCaseLetOtherCase(
    at location: _SourceLocation, action: Any, state: Any, stateType: Any.Type
  ) -> String {
    """
    An "ifCaseLet" at "\(location.fileID):\(location.line)" received a child action when child \
    state was set to a different case.

      Action:
    \(Self.indent(_dumpString(action), by: 4))
      State:
    \(Self.indent(_dumpString(state), by: 4))

    This is generally considered an application logic error, and can happen for a few reasons:

    A parent reducer set "\(_dumpTypeName(stateType))" to a different case before this \
    reducer ran. This reducer must run before any other reducer sets child state to a \
    different case. This ensures that child reducers can handle their actions while their \
    state is still available.

    An in-flight effect emitted this action when child state was unavailable. While it may \
    be perfectly reasonable to ignore this action, consider canceling the associated effect \
    before child state changes to another case, especially if it is a long-living effect.

    This action was sent to the store while state was another case. Make sure that actions \
    for this reducer can only be sent from a store when state is set to the appropriate \
    case. In SwiftUI applications, use "SwitchStore".
    """
  }

  static func scopeOtherCase(
    at location: _SourceLocation, action: Any, state: Any, stateType: Any.Type
  ) -> String {
    """
    A "Scope" at "\(location.fileID):\(location.line)" received a child action when child state \
    was set to a different case.

      Action:
        \(_debugCaseOutput(action))
      State:
        \(_debugCaseOutput(state))

    This is generally considered an application logic error, and can happen for a few \
    reasons:

    A parent reducer set "\(_dumpTypeName(stateType))" to a different case before the \
    scoped reducer ran. Child reducers must run before any parent reducer sets child state \
    to a different case. This ensures that child reducers can handle their actions while \
    their state is still available. Consider using "Reducer.ifCaseLet" to embed this \
    child reducer in the parent reducer that change its state to ensure the child reducer \
    runs first.

    An in-flight effect emitted this action when child state was unavailable. While it may \
    be perfectly reasonable to ignore this action, consider canceling the associated effect \
    before child state changes to another case, especially if it is a long-living effect.

    This action was sent to the store while state was another case. Make sure that actions \
    for this reducer can only be sent from a store when state is set to the appropriate \
    case. In SwiftUI applications, use "SwitchStore".
    """
  }

  static func forEachMissingElement(at location: _SourceLocation, action: Any) -> String {
    """
    A "forEach" at "\(location.fileID):\(location.line)" received an action for a missing \
    element.

      Action:
        \(_debugCaseOutput(action))

    This is generally considered an application logic error, and can happen for a few reasons:

    A parent reducer removed an element with this ID before this reducer ran. This reducer \
    must run before any other reducer removes an element, which ensures that element reducers \
    can handle their actions while their state is still available.

    An in-flight effect emitted this action when state contained no element at this ID. \
    While it may be perfectly reasonable to ignore this action, consider canceling the \
    associated effect before an element is removed, especially if it is a long-living effect.

    This action was sent to the store while its state contained no element at this ID. To \
    fix this make sure that actions for this reducer can only be sent from a store when \
    its state contains an element at this id. In SwiftUI applications, use "ForEachStore".
    """
  }

  static func presentationWithoutState(at location: _SourceLocation, action: Any) -> String {
    """
    An "ifLet" at "\(location.fileID):\(location.line)" received a presentation action when \
    destination state was absent.

      Action:
        \(_debugCaseOutput(action))

    This is generally considered an application logic error, and can happen for a few \
    reasons:

    A parent reducer set destination state to "nil" before this reducer ran. This reducer \
    must run before any other reducer sets destination state to "nil". This ensures that \
    destination reducers can handle their actions while their state is still present.

    This action was sent to the store while destination state was "nil". Make sure that \
    actions for this reducer can only be sent from a store when state is present, or \
    from effects that start from this reducer.
    """
  }

  static func stackMissingElement(at location: _SourceLocation, action: Any) -> String {
    """
    A "forEach" at "\(location.fileID):\(location.line)" received an action for a missing \
    element.

      Action:
        \(_debugCaseOutput(action))

    This is generally considered an application logic error, and can happen for a few reasons:

    A parent reducer removed an element with this ID before this reducer ran. This reducer \
    must run before any other reducer removes an element, which ensures that element \
    reducers can handle their actions while their state is still available.

    An in-flight effect emitted this action when state contained no element at this ID. \
    While it may be perfectly reasonable to ignore this action, consider canceling the \
    associated effect before an element is removed, especially if it is a long-living effect.

    This action was sent to the store while its state contained no element at this ID. To \
    fix this make sure that actions for this reducer can only be sent from a store when \
    its state contains an element at this id. In SwiftUI applications, use \
    "NavigationStack.init(path:)" with a binding to a store.
    """
  }

  static func stackPopMissing(
    at location: _SourceLocation, id: StackElementID, ids: [StackElementID]
  ) -> String {
    """
    A "forEach" at "\(location.fileID):\(location.line)" received a "popFrom" action for a \
    missing element.

      ID:
        \(id)
      Path IDs:
        \(ids)
    """
  }

  static func stackPushExisting(
    at location: _SourceLocation, id: StackElementID, ids: [StackElementID]
  ) -> String {
    """
    A "forEach" at "\(location.fileID):\(location.line)" received a "push" action for an \
    element it already contains.

      ID:
        \(id)
      Path IDs:
        \(ids)
    """
  }

  static func unhandledEffectError(fileID: StaticString, line: UInt, error: any Error) -> String {
    """
    An "Effect.run" returned from "\(fileID):\(line)" threw an unhandled error.

    \(Self.indent(_dumpString(error), by: 4))

    All non-cancellation errors must be explicitly handled via the "catch" parameter \
    on "Effect.run", or via a "do" block.
    """
  }
}
