/// An action type that groups what its views send in one case, `case view(View)`, as TCA's
/// `@ViewAction` features do.
///
/// ```swift
/// enum Action: ViewAction, CasePathable {
///   case view(View)
///   case delegate(Delegate)
///   enum View { case onAppear, saveButtonTapped }
///   …
/// }
///
/// await store.send(.view(.onAppear))
/// await store.send(\.view.saveButtonTapped)   // with `view` in AllCasePaths
/// ```
///
/// The `view` case satisfies ``view(_:)`` by itself. There are no SwiftUI views here, so TCA's
/// `@ViewAction(for:)` macro and its `send(.onAppear)` shorthand in views have no counterpart:
/// send `.view(.onAppear)`.
public protocol ViewAction<ViewAction> {
  /// The actions views send.
  associatedtype ViewAction

  /// Embeds a view action (the enum's `view` case).
  ///
  /// - Parameter action: The view action.
  /// - Returns: The feature's action.
  static func view(_ action: ViewAction) -> Self
}
