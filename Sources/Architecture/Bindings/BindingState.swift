/// A property a view may write through a binding, as TCA's `@BindingState`: its actions are the
/// `BindingAction`s a ``BindingReducer`` applies.
///
/// ```swift
/// struct State: Equatable {
///   @BindingState var text = ""
/// }
/// enum Action: BindableAction {
///   case binding(BindingAction<State>)
/// }
/// // a write from the view, or from a test:
/// await store.send(.binding(.set(\.$text, "Hello")))
/// // and matched in the reducer by its key path:
/// case .binding(\.$text): …
/// ```
///
/// It is the wrapped value for equality, hashing, encoding and dumps (a test store's diffs show
/// `text: "Hello"`).
@dynamicMemberLookup
@propertyWrapper
public struct BindingState<Value> {
  /// The value.
  public var wrappedValue: Value

  /// Wraps a value.
  ///
  /// - Parameter wrappedValue: The value.
  public init(wrappedValue: Value) {
    self.wrappedValue = wrappedValue
  }

  /// The binding state itself, for `\.$text` key paths.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  /// A key path into the value, for a binding to part of it.
  public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Subject {
    get { self.wrappedValue[keyPath: keyPath] }
    set { self.wrappedValue[keyPath: keyPath] = newValue }
  }
}

extension BindingState: Equatable where Value: Equatable {}
extension BindingState: Hashable where Value: Hashable {}
extension BindingState: Sendable where Value: Sendable {}

extension BindingState: Encodable where Value: Encodable {
  /// Encodes the value.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(self.wrappedValue)
  }
}

extension BindingState: Decodable where Value: Decodable {
  /// Decodes the value.
  public init(from decoder: any Decoder) throws {
    self.init(wrappedValue: try decoder.singleValueContainer().decode(Value.self))
  }
}

extension BindingState: CustomReflectable {
  /// Reflects as the value.
  public var customMirror: Mirror {
    Mirror(reflecting: self.wrappedValue)
  }
}

extension BindingState: CustomStringConvertible {
  /// The value's description.
  public var description: String {
    String(describing: self.wrappedValue)
  }
}

extension BindingAction {
  /// A binding action that sets a `@BindingState` property (`\.$text`), as TCA's.
  ///
  /// - Parameters:
  ///   - keyPath: The key path to the property's binding state.
  ///   - value: The new value.
  /// - Returns: The action.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, BindingState<Value>> & Sendable,
    _ value: Value
  ) -> Self {
    Self(bindingState: keyPath, value: value)
  }

  /// Whether a binding action sets the `@BindingState` property at `keyPath`, for `switch`:
  /// `case .binding(\.$text):`.
  public static func ~= <Value>(
    keyPath: WritableKeyPath<Root, BindingState<Value>>,
    bindingAction: Self
  ) -> Bool {
    bindingAction.keyPath == keyPath
  }
}

extension BindingAction.AllCasePaths {
  /// The case path of the binding action that sets a `@BindingState` property:
  /// `\.binding.$text` in a `BindableAction`'s case key paths.
  public subscript<Value: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<Root, BindingState<Value>> & Sendable
  ) -> AnyCasePath<BindingAction, Value> {
    AnyCasePath(
      embed: { .set(keyPath, $0) },
      extract: { $0.keyPath == keyPath ? $0.value as? Value : nil })
  }
}
