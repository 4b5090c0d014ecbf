/// An action type with a case for writing fields of the state: `case binding(BindingAction<State>)`.
///
/// Conform the feature's action to it and add ``BindingReducer`` to the body:
///
/// ```swift
/// enum Action: BindableAction {
///   case binding(BindingAction<State>)
///   case saveButtonTapped
/// }
/// ```
///
/// The `binding` case satisfies ``binding(_:)`` by itself. ``binding`` has a default
/// implementation that finds the case by reflection (about a microsecond per action reaching
/// ``BindingReducer``); a feature on a hot path can implement it with a `switch` instead:
///
/// ```swift
/// var binding: BindingAction<State>? {
///   if case .binding(let action) = self { action } else { nil }
/// }
/// ```
public protocol BindableAction {
  /// The state the binding actions write.
  associatedtype State

  /// Embeds a binding action (the enum's `binding` case).
  ///
  /// - Parameter action: The binding action.
  /// - Returns: The feature's action.
  static func binding(_ action: BindingAction<State>) -> Self

  /// The binding action this action carries, if it is the `binding` case.
  var binding: BindingAction<State>? { get }
}

extension BindableAction {
  /// Finds the `binding` case by reflection: the action's case is named `binding` and carries a
  /// ``BindingAction`` of `State`.
  public var binding: BindingAction<State>? {
    guard let child = Mirror(reflecting: self).children.first, child.label == "binding" else {
      return nil
    }
    return child.value as? BindingAction<State>
  }

  /// A binding action that sets a field, embedded in the feature's action.
  ///
  /// ```swift
  /// await store.send(.set(\.displayName, "Blob")) { $0.displayName = "Blob" }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The field.
  ///   - value: Its new value.
  /// - Returns: `.binding(.set(keyPath, value))`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<State, Value> & Sendable,
    _ value: Value
  ) -> Self {
    self.binding(.set(keyPath, value))
  }
}
