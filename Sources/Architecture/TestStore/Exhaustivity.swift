/// How strictly a ``TestStore`` checks a feature: everything (the default), or only what a test
/// asserts.
///
/// ```swift
/// let store = TestStore(initialState: App.State()) { App() }
/// store.exhaustivity = .off
/// await store.send(.login(.submitButtonTapped))
/// await store.receive(\.login.delegate.didLogin) {
///   $0.selectedTab = .activity   // only the fields this test cares about
/// }
/// ```
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, received action and in-flight effect must be asserted.
  case on

  /// Only what the test asserts is checked: a `send`/`receive` closure is applied to the actual
  /// state (so unmentioned fields may change freely), unasserted received actions are skipped,
  /// and effects still running at the end are cancelled rather than reported.
  ///
  /// - Parameter showSkippedAssertions: Whether to print what an exhaustive test would have had
  ///   to assert (skipped actions, state changes, effects) to standard error, as notes.
  case off(showSkippedAssertions: Bool)

  /// Non-exhaustive testing that does not show skipped assertions.
  public static let off = Self.off(showSkippedAssertions: false)
}
