/// An action that writes one field of a feature's state: what a form control sends in TCA
/// (`TextField("Name", text: $store.name)` sends `.binding(.set(\.name, "Blob"))`).
///
/// There is no SwiftUI here, so nothing creates these actions for you; a client, a test or a
/// remote peer sends them explicitly, and ``BindingReducer`` applies them:
///
/// ```swift
/// struct Settings: Reducer {
///   struct State: Equatable {
///     var displayName = ""
///     var notificationsOn = false
///   }
///   enum Action: BindableAction, CasePathable {
///     case binding(BindingAction<State>)
///     case saveButtonTapped
///
///     struct AllCasePaths {
///       var binding: AnyCasePath<Action, BindingAction<State>> {
///         .init(Action.binding) { if case .binding(let v) = $0 { v } else { nil } }
///       }
///     }
///     static var allCasePaths: AllCasePaths { AllCasePaths() }
///   }
///   var body: some ReducerOf<Self> {
///     BindingReducer()
///     Reduce { state, action in
///       switch action {
///       case .binding(\.displayName):
///         state.displayName = String(state.displayName.prefix(16))
///         return .none
///       case .binding, .saveButtonTapped:
///         return .none
///       }
///     }
///   }
/// }
///
/// // In a test, as in TCA:
/// await store.send(\.binding.displayName, "Blob") { $0.displayName = "Blob" }
/// await store.send(.binding(.set(\.notificationsOn, true))) { $0.notificationsOn = true }
/// ```
///
/// Two binding actions are equal when they write the same key path with equal values. A
/// binding action's case key path is the field's key path: `\.binding.displayName` embeds
/// `.set(\.displayName, value)` and extracts the value of a binding of that field.
public struct BindingAction<Root>: CasePathable, @unchecked Sendable {
  // @unchecked Sendable: every property is a `let`. `keyPath` is an immutable key path whose
  // captured subscript arguments, if any, were required `Sendable` by the initializers
  // (`WritableKeyPath<Root, Value> & Sendable`); `value` is `Sendable`; the closures are
  // `@Sendable`. `Root` itself is never stored.

  /// The key path of the field this action writes.
  public let keyPath: PartialKeyPath<Root>
  /// The value written.
  let value: any Sendable
  let apply: @Sendable (inout Root) -> Void
  let isEqualValue: @Sendable (any Sendable) -> Bool
  let valueDump: @Sendable () -> String

  init<Value: Equatable & Sendable>(
    keyPath: WritableKeyPath<Root, Value> & Sendable, value: Value
  ) {
    self.keyPath = keyPath
    self.value = value
    self.apply = { $0[keyPath: keyPath] = value }
    self.isEqualValue = { ($0 as? Value) == value }
    self.valueDump = { _dumpLines(value).joined(separator: "\n") }
  }

  /// An action that sets a `@BindingState` property; its key path is the binding state's
  /// (`\.$text`), which is what `~=` and the case paths compare.
  init<Value: Equatable & Sendable>(
    bindingState keyPath: WritableKeyPath<Root, BindingState<Value>> & Sendable, value: Value
  ) {
    self.keyPath = keyPath
    self.value = value
    self.apply = { $0[keyPath: keyPath].wrappedValue = value }
    self.isEqualValue = { ($0 as? Value) == value }
    self.valueDump = { _dumpLines(value).joined(separator: "\n") }
  }

  /// An action that sets a field of the state to a value.
  ///
  /// ```swift
  /// await store.send(.binding(.set(\.displayName, "Blob"))) { $0.displayName = "Blob" }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The field.
  ///   - value: Its new value.
  /// - Returns: The binding action.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, Value> & Sendable,
    _ value: Value
  ) -> Self {
    Self(keyPath: keyPath, value: value)
  }

  /// Writes the value into a state.
  ///
  /// - Parameter state: The state to change.
  public func set(_ state: inout Root) {
    self.apply(&state)
  }

  /// Whether a binding action writes a given field, for `switch` patterns.
  ///
  /// ```swift
  /// case .binding(\.displayName):
  ///   // runs after BindingReducer has written the new display name
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The field.
  ///   - bindingAction: The action.
  /// - Returns: `true` when the action writes that field.
  public static func ~= <Value>(
    keyPath: WritableKeyPath<Root, Value>,
    bindingAction: Self
  ) -> Bool {
    bindingAction.keyPath == keyPath
  }

  /// The case paths of a binding action: one per writable, equatable field of `Root`, through
  /// dynamic member lookup (`\.binding.displayName`).
  @dynamicMemberLookup
  public struct AllCasePaths: Sendable {
    /// The case path of the binding actions that write one field.
    ///
    /// - Parameter keyPath: The field.
    /// - Returns: A case path that embeds a value as `.set(keyPath, value)` and extracts the
    ///   value of an action that writes that field.
    public subscript<Value: Equatable & Sendable>(
      dynamicMember keyPath: WritableKeyPath<Root, Value> & Sendable
    ) -> AnyCasePath<BindingAction, Value> {
      AnyCasePath(
        embed: { .set(keyPath, $0) },
        extract: { $0.keyPath == keyPath ? $0.value as? Value : nil })
    }
  }

  /// The case paths of binding actions.
  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension BindingAction: Equatable {
  /// Whether two actions write the same field with equal values.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath == rhs.keyPath && lhs.isEqualValue(rhs.value)
  }
}

extension BindingAction: CustomStringConvertible, CustomReflectable {
  /// `.set(\State.field, value)`, as test failures print it.
  public var description: String {
    ".set(\(self.keyPath), \(self.valueDump()))"
  }

  /// Reflects as its ``description``, so that test failures show the field and the value
  /// rather than the closures.
  public var customMirror: Mirror {
    Mirror(self, children: [:])
  }
}
