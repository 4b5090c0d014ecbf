/// A value that the compiler cannot prove `Sendable` but that the caller knows is safe to hand
/// to another task (as in swift-concurrency-extras, which TCA exports).
///
/// ```swift
/// let formatter = UncheckedSendable(DateFormatter())
/// return .run { send in await send(.formatted(formatter.value.string(from: date))) }
/// ```
///
/// > Important: Wrapping a value asserts that it is never mutated from two tasks at once; the
/// > wrapper itself does nothing to make that true.
@dynamicMemberLookup
@propertyWrapper
public struct UncheckedSendable<Value>: @unchecked Sendable {
  // @unchecked: by contract (see the type's documentation) the wrapped value is only ever used
  // from one task at a time; this is the purpose of the type.

  /// The wrapped value.
  public var value: Value

  /// Wraps a value.
  ///
  /// - Parameter value: The value.
  public init(_ value: Value) {
    self.value = value
  }

  /// Wraps a value, as a property wrapper.
  public init(wrappedValue: Value) {
    self.value = wrappedValue
  }

  /// The wrapped value.
  public var wrappedValue: Value {
    get { self.value }
    _modify { yield &self.value }
  }

  /// The wrapper itself.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  /// A property of the wrapped value.
  public subscript<Subject>(dynamicMember keyPath: KeyPath<Value, Subject>) -> Subject {
    self.value[keyPath: keyPath]
  }

  /// A writable property of the wrapped value.
  public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Subject {
    get { self.value[keyPath: keyPath] }
    set { self.value[keyPath: keyPath] = newValue }
  }
}

extension UncheckedSendable: Equatable where Value: Equatable {}
extension UncheckedSendable: Hashable where Value: Hashable {}
