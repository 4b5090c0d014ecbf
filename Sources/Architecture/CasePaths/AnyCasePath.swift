/// A pair of functions that embed a value in an enum case and extract it back out.
///
/// The key-path counterpart for enums: `embed` builds the root from a payload, `extract` returns
/// the payload when the root is that case and `nil` otherwise.
///
/// ```swift
/// let counter = AnyCasePath<Action, Counter.Action>(Action.counter) {
///   if case let .counter(v) = $0 { v } else { nil }
/// }
/// counter.extract(from: .counter(.increment))  // .increment
/// ```
public struct AnyCasePath<Root, Value>: Sendable {
  @usableFromInline
  let _embed: @Sendable (Value) -> Root
  @usableFromInline
  let _extract: @Sendable (Root) -> Value?

  /// Creates a case path from an embed and an extract function.
  ///
  /// - Parameters:
  ///   - embed: Builds the root from a payload, usually the case constructor (`Action.counter`).
  ///   - extract: Returns the payload if the root is this case, else `nil`.
  public init(
    embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?
  ) {
    self._embed = embed
    self._extract = extract
  }

  /// Creates a case path from a case constructor and a trailing extract closure.
  ///
  /// The short form for one line of an `AllCasePaths` struct:
  ///
  /// ```swift
  /// var counter: AnyCasePath<Action, Counter.Action> {
  ///   .init(Action.counter) { if case let .counter(v) = $0 { v } else { nil } }
  /// }
  /// ```
  public init(
    _ embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?
  ) {
    self._embed = embed
    self._extract = extract
  }

  /// Evaluates a case key path once and keeps its embed and extract functions.
  ///
  /// - Parameter keyPath: A key path such as `\.counter` or `\.todos[id: id]`.
  public init(_ keyPath: CaseKeyPath<Root, Value>) {
    let member = Case<Root>()[keyPath: keyPath]
    guard let rooted = member._path as? _RootedCasePath<Root, Value> else {
      // Every `Case<Root>` built from `Case<Root>()` is rooted at `Root`; a key path is the only
      // way to reach a member, so this cannot fail for a key path of this type.
      preconditionFailure("CaseKeyPath \(keyPath) is not rooted at \(Root.self)")
    }
    self = rooted.path
  }

  /// Embeds a payload in the root.
  ///
  /// - Parameter value: The payload.
  /// - Returns: The root value for this case.
  @inlinable
  public func embed(_ value: Value) -> Root {
    self._embed(value)
  }

  /// Extracts the payload of this case.
  ///
  /// - Parameter root: A root value.
  /// - Returns: The payload when `root` is this case, otherwise `nil`.
  @inlinable
  public func extract(from root: Root) -> Value? {
    self._extract(root)
  }

  /// Composes this case path with one into the payload.
  ///
  /// - Parameter path: A case path from `Value` into one of its cases.
  /// - Returns: A case path from `Root` straight into the nested payload.
  public func appending<AppendedValue>(
    path: AnyCasePath<Value, AppendedValue>
  ) -> AnyCasePath<Root, AppendedValue> {
    let embed = self._embed
    let extract = self._extract
    return AnyCasePath<Root, AppendedValue>(
      embed: { embed(path._embed($0)) },
      extract: { extract($0).flatMap(path._extract) }
    )
  }
}

extension AnyCasePath where Value == Void {
  /// Creates a case path for a case without a payload.
  ///
  /// ```swift
  /// var reset: AnyCasePath<Action, Void> {
  ///   .init(.reset) { if case .reset = $0 { true } else { false } }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - root: The case value.
  ///   - matches: Whether a root value is this case.
  public init(
    _ root: @autoclosure @escaping @Sendable () -> Root,
    extract matches: @escaping @Sendable (Root) -> Bool
  ) {
    self._embed = { _ in root() }
    self._extract = { matches($0) ? () : nil }
  }
}

extension AnyCasePath where Root == Value {
  /// The case path that embeds and extracts a value as itself.
  public init() {
    self._embed = { $0 }
    self._extract = { $0 }
  }
}
