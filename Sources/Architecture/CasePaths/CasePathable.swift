/// A type, usually an enum, whose cases can be named by key paths without macros.
///
/// TCA's `@CasePathable` macro writes the `AllCasePaths` struct for you; here you write it by hand,
/// one short line per case, and then use key-path syntax everywhere a case is needed:
///
/// ```swift
/// enum Action: CasePathable {
///   case counter(Counter.Action)
///   case reset
///
///   struct AllCasePaths {
///     var counter: AnyCasePath<Action, Counter.Action> {
///       .init(Action.counter) { if case let .counter(v) = $0 { v } else { nil } }
///     }
///     var reset: AnyCasePath<Action, Void> {
///       .init(.reset) { if case .reset = $0 { true } else { false } }
///     }
///   }
///   static var allCasePaths: AllCasePaths { AllCasePaths() }
/// }
///
/// Scope(state: \.counter, action: \.counter) { Counter() }
/// ```
///
/// The key path `\.counter` is a ``CaseKeyPath`` (a key path from ``Case`` of the root to
/// ``Case`` of the payload). Reducers evaluate it once, when they are built, and afterwards only
/// call the two closures of the resulting ``AnyCasePath``.
public protocol CasePathable {
  /// A struct with one computed property per case, each an ``AnyCasePath`` into that case.
  associatedtype AllCasePaths
  /// The case paths of this type.
  static var allCasePaths: AllCasePaths { get }
}

/// A key path that names an enum case: `\Action.Cases.counter` is written `\.counter` at call
/// sites that expect a `CaseKeyPath<Action, Counter.Action>`.
public typealias CaseKeyPath<Root, Value> = KeyPath<Case<Root>, Case<Value>>
