/// A type-erased hashable, sendable value: `AnyHashable` for values that cross tasks, such as
/// the id of a reusable component's effects (as in swift-concurrency-extras, which TCA exports).
///
/// ```swift
/// struct State: Equatable {
///   let id: AnyHashableSendable
/// }
/// return .run { … }.cancellable(id: state.id)
/// ```
///
/// Literals make one directly: `DownloadComponent.State(id: 1, …)`.
public struct AnyHashableSendable: Hashable, Sendable {
  /// The wrapped value.
  public let base: any Hashable & Sendable

  /// Wraps a value.
  ///
  /// - Parameter base: The value.
  public init(_ base: some Hashable & Sendable) {
    // A wrapped AnyHashableSendable is not wrapped again, so that equality sees the value.
    if let base = base as? AnyHashableSendable {
      self = base
    } else {
      self.base = base
    }
  }

  /// Whether the two wrapped values are equal (values of different types never are, except as
  /// `AnyHashable` bridges them, e.g. numbers).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    AnyHashable(lhs.base) == AnyHashable(rhs.base)
  }

  /// Hashes the wrapped value.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(AnyHashable(self.base))
  }
}

extension AnyHashableSendable: CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// The wrapped value's description.
  public var description: String { String(describing: self.base) }

  /// The wrapped value's debug description.
  public var debugDescription: String {
    "AnyHashableSendable(\(String(reflecting: self.base)))"
  }

  /// Reflects as the wrapped value, so that test failures show it.
  public var customMirror: Mirror { Mirror(reflecting: self.base) }
}

extension AnyHashableSendable: ExpressibleByBooleanLiteral {
  /// Wraps a `Bool`.
  public init(booleanLiteral value: Bool) { self.init(value) }
}

extension AnyHashableSendable: ExpressibleByIntegerLiteral {
  /// Wraps an `Int`.
  public init(integerLiteral value: Int) { self.init(value) }
}

extension AnyHashableSendable: ExpressibleByFloatLiteral {
  /// Wraps a `Double`.
  public init(floatLiteral value: Double) { self.init(value) }
}

extension AnyHashableSendable: ExpressibleByStringLiteral {
  /// Wraps a `String`.
  public init(stringLiteral value: String) { self.init(value) }
}
