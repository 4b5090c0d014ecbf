import Architecture
import Wire

/// A named scope of a root store that a host serves to other processes.
///
/// Declare a host's scopes next to its root reducer, one line each; the compiler checks that
/// every key path and case path fits the root feature:
///
/// ```swift
/// let scopes: [HostedScope<AppFeature.State, AppFeature.Action>] = [
///   .scope("counter", state: \.counter, action: \.counter, description: "The counter"),
///   .scope("todos", state: \.todos, action: \.todos),
///   .element("todos/{id}", of: \.todos.todos, action: \.todos.todos),
///   .optional("shop/cart", state: \.shop.cart, action: \.shop.cart),
///   .readOnly("shop/products", state: \.shop.productList.products),
/// ]
/// ```
///
/// A pattern is a `/`-separated path; each `{id}` segment matches one element of an
/// identified collection by its id (see ``ScopeIdentifier``). A writable scope names the child
/// action type that `send` decodes, which the host embeds into the root action exactly as an
/// in-process `Store.scope` would.
public struct HostedScope<State, Action> {
  /// The pattern clients address, e.g. `todos/{id}`.
  public let pattern: String
  /// Whether clients may `send` actions to the scope.
  public let isWritable: Bool
  /// A one-line human description, listed by `scopes`.
  public let description: String?

  @usableFromInline let segments: [PatternSegment]
  /// Binds the `{id}` segments of a concrete scope name; `nil` when one cannot be an id.
  @usableFromInline let bind: ([String]) -> BoundScope<State, Action>?

  /// Declares a scope from closures, for shapes the key-path forms don't cover.
  ///
  /// - Parameters:
  ///   - pattern: The scope pattern; its `{id}` segments are passed to both closures in order.
  ///   - description: A one-line description for `scopes`.
  ///   - state: The child state for the given ids, or `nil` when it does not currently exist.
  ///   - action: Embeds a decoded child action into the root action; `nil` for read-only.
  @inlinable
  public init<ChildState: Encodable & Equatable, ChildAction: Decodable>(
    _ pattern: String,
    description: String? = nil,
    state: @escaping (_ root: State, _ ids: [String]) -> ChildState?,
    action: ((_ child: ChildAction, _ ids: [String]) -> Action)?
  ) {
    self.init(pattern: pattern, description: description, writable: action != nil) { ids in
      BoundScope(
        state: { root in state(root, ids).map { TypedScopeState($0) } },
        embed: action.map { embed in
          { json in embed(try decodeAction(ChildAction.self, from: json), ids) }
        },
        exists: { root in state(root, ids) != nil }
      )
    }
  }

  @usableFromInline
  init(
    pattern: String, description: String?, writable: Bool,
    bind: @escaping ([String]) -> BoundScope<State, Action>?
  ) {
    self.pattern = pattern
    self.description = description
    self.isWritable = writable
    self.segments = PatternSegment.parse(pattern)
    self.bind = bind
    precondition(!pattern.isEmpty, "A hosted scope needs a non-empty pattern")
  }

  /// The number of `{id}` segments in the pattern.
  var idCount: Int { segments.reduce(0) { $0 + ($1 == .id ? 1 : 0) } }
}

// MARK: - Declaring scopes

extension HostedScope {
  /// A writable scope over a child of the root state.
  @inlinable
  public static func scope<ChildState: Encodable & Equatable, ChildAction: Decodable>(
    _ pattern: String,
    state: KeyPath<State, ChildState>,
    action: CaseKeyPath<Action, ChildAction>,
    description: String? = nil
  ) -> Self {
    let casePath = AnyCasePath(action)
    return Self(pattern: pattern, description: description, writable: true) { _ in
      BoundScope(
        state: { TypedScopeState($0[keyPath: state]) },
        embed: { casePath.embed(try decodeAction(ChildAction.self, from: $0)) }
      )
    }.checked(ids: 0)
  }

  /// A read-only scope over a child of the root state.
  @inlinable
  public static func readOnly<ChildState: Encodable & Equatable>(
    _ pattern: String,
    state: KeyPath<State, ChildState>,
    description: String? = nil
  ) -> Self {
    Self(pattern: pattern, description: description, writable: false) { _ in
      BoundScope(state: { TypedScopeState($0[keyPath: state]) }, embed: nil)
    }.checked(ids: 0)
  }

  /// A writable scope over an optional child: unavailable while it is `nil`, and its
  /// subscriptions end with `scope_gone` when it becomes `nil`.
  @inlinable
  public static func optional<ChildState: Encodable & Equatable, ChildAction: Decodable>(
    _ pattern: String,
    state: KeyPath<State, ChildState?>,
    action: CaseKeyPath<Action, ChildAction>,
    description: String? = nil
  ) -> Self {
    let casePath = AnyCasePath(action)
    return Self(pattern: pattern, description: description, writable: true) { _ in
      BoundScope(
        state: { $0[keyPath: state].map { TypedScopeState($0) } },
        embed: { casePath.embed(try decodeAction(ChildAction.self, from: $0)) },
        exists: { $0[keyPath: state] != nil }
      )
    }.checked(ids: 0)
  }

  /// A read-only scope over an optional child.
  @inlinable
  public static func readOnly<ChildState: Encodable & Equatable>(
    _ pattern: String,
    state: KeyPath<State, ChildState?>,
    description: String? = nil
  ) -> Self {
    Self(pattern: pattern, description: description, writable: false) { _ in
      BoundScope(state: { $0[keyPath: state].map { TypedScopeState($0) } }, embed: nil)
    }.checked(ids: 0)
  }

  /// A writable scope over one element of an identified collection, addressed by id
  /// (pattern with one `{id}` segment, e.g. `todos/{id}`). Actions are embedded through the
  /// collection's `IdentifiedAction`, as `forEach` routes them.
  @inlinable
  public static func element<
    ID: ScopeIdentifier, Element: Encodable & Equatable, ElementAction: Decodable
  >(
    _ pattern: String,
    of collection: KeyPath<State, IdentifiedArray<ID, Element>>,
    action: CaseKeyPath<Action, IdentifiedAction<ID, ElementAction>>,
    description: String? = nil
  ) -> Self {
    let casePath = AnyCasePath(action)
    return Self(pattern: pattern, description: description, writable: true) { ids in
      guard let id = ID(scopeSegment: ids[0]) else { return nil }
      return BoundScope(
        state: { $0[keyPath: collection][id: id].map { TypedScopeState($0) } },
        embed: {
          casePath.embed(.element(id: id, action: try decodeAction(ElementAction.self, from: $0)))
        },
        exists: { $0[keyPath: collection].index(id: id) != nil }
      )
    }.checked(ids: 1)
  }

  /// A read-only scope over one element of an identified collection.
  @inlinable
  public static func readOnlyElement<ID: ScopeIdentifier, Element: Encodable & Equatable>(
    _ pattern: String,
    of collection: KeyPath<State, IdentifiedArray<ID, Element>>,
    description: String? = nil
  ) -> Self {
    Self(pattern: pattern, description: description, writable: false) { ids in
      guard let id = ID(scopeSegment: ids[0]) else { return nil }
      return BoundScope(
        state: { $0[keyPath: collection][id: id].map { TypedScopeState($0) } }, embed: nil)
    }.checked(ids: 1)
  }

  /// A writable scope over a child of one element of an identified collection, e.g.
  /// `shop/products/{id}/addToCart`.
  @inlinable
  public static func element<
    ID: ScopeIdentifier, Element, ElementAction,
    ChildState: Encodable & Equatable, ChildAction: Decodable
  >(
    _ pattern: String,
    of collection: KeyPath<State, IdentifiedArray<ID, Element>>,
    action: CaseKeyPath<Action, IdentifiedAction<ID, ElementAction>>,
    state child: KeyPath<Element, ChildState>,
    action childAction: CaseKeyPath<ElementAction, ChildAction>,
    description: String? = nil
  ) -> Self {
    let casePath = AnyCasePath(action)
    let childPath = AnyCasePath(childAction)
    return Self(pattern: pattern, description: description, writable: true) { ids in
      guard let id = ID(scopeSegment: ids[0]) else { return nil }
      return BoundScope(
        state: { root in
          root[keyPath: collection][id: id].map { TypedScopeState($0[keyPath: child]) }
        },
        embed: {
          let decoded = try decodeAction(ChildAction.self, from: $0)
          return casePath.embed(.element(id: id, action: childPath.embed(decoded)))
        },
        exists: { $0[keyPath: collection].index(id: id) != nil }
      )
    }.checked(ids: 1)
  }

  @usableFromInline
  func checked(ids expected: Int) -> Self {
    precondition(
      idCount == expected,
      "Scope pattern '\(pattern)' has \(idCount) {id} segment(s); this declaration needs \(expected)"
    )
    return self
  }
}

// MARK: - Internals

/// One segment of a scope pattern.
@usableFromInline
enum PatternSegment: Equatable {
  case literal(String)
  case id

  static func parse(_ pattern: String) -> [PatternSegment] {
    pattern.split(separator: "/", omittingEmptySubsequences: false).map {
      $0 == "{id}" ? .id : .literal(String($0))
    }
  }
}

/// A scope with its `{id}` segments bound: how to read its state and embed its actions.
@usableFromInline
struct BoundScope<State, Action> {
  /// The scope's current state, or `nil` when it does not exist.
  @usableFromInline let state: (State) -> (any ScopeState)?
  /// Decodes and embeds an action; `nil` for read-only scopes.
  @usableFromInline let embed: ((JSON) throws -> Action)?
  /// Whether the scope exists in a root state, without building its state (checked before
  /// every `send`); `nil` when it always does.
  @usableFromInline var exists: ((State) -> Bool)? = nil

  @usableFromInline
  init(
    state: @escaping (State) -> (any ScopeState)?, embed: ((JSON) throws -> Action)?,
    exists: ((State) -> Bool)? = nil
  ) {
    self.state = state
    self.embed = embed
    self.exists = exists
  }
}

/// A child state captured for change detection and encoding.
@usableFromInline
protocol ScopeState {
  /// Whether `other` holds the same value (cheap for unchanged copy-on-write storage).
  func isEqual(to other: any ScopeState) -> Bool
  /// The JSON form, with the shapes of Foundation's `JSONEncoder`.
  func json() throws -> JSON
}

@usableFromInline
struct TypedScopeState<Value: Encodable & Equatable>: ScopeState {
  @usableFromInline let value: Value
  @usableFromInline init(_ value: Value) { self.value = value }

  @usableFromInline
  func isEqual(to other: any ScopeState) -> Bool {
    guard let other = other as? Self else { return false }
    return value == other.value
  }

  @usableFromInline
  func json() throws -> JSON { try JSONValueEncoder().encode(value) }
}

/// Why an action did not decode, phrased for a `bad_action` message.
@usableFromInline
struct ActionDecodingFailure: Error {
  @usableFromInline let message: String
}

@usableFromInline
func decodeAction<A: Decodable>(_ type: A.Type, from json: JSON) throws -> A {
  do {
    return try JSONValueDecoder().decode(A.self, from: json)
  } catch {
    // `action.todo.id: expected string`, or `action: unknown case 'explode'` at the root.
    let message = error.path.isEmpty ? "action: \(error.reason)" : "action.\(error)"
    throw ActionDecodingFailure(message: message)
  }
}
