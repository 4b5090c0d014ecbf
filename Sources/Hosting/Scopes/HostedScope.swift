@_spi(ChangeTracking) import Architecture
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
  /// The action type `send` decodes (`nil` for a read-only scope): its shape is listed in
  /// `scopes` and names the valid cases in `bad_action` messages.
  @usableFromInline let actionType: (any Decodable.Type)?
  /// The first few ids of the collection an `{id}` segment picks from, as scope segments, and
  /// how many there are — for messages about a scope name that names no element (`nil` for a
  /// pattern without `{id}`).
  @usableFromInline var elementIDs: ((State) -> (sample: [String], count: Int))?

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
    self.init(
      pattern: pattern, description: description, writable: action != nil,
      actionType: action == nil ? nil : ChildAction.self
    ) { ids in
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
    actionType: (any Decodable.Type)? = nil,
    elementIDs: ((State) -> (sample: [String], count: Int))? = nil,
    bind: @escaping ([String]) -> BoundScope<State, Action>?
  ) {
    self.pattern = pattern
    self.description = description
    self.isWritable = writable
    self.segments = PatternSegment.parse(pattern)
    self.bind = bind
    self.actionType = actionType
    self.elementIDs = elementIDs
    precondition(!pattern.isEmpty, "A hosted scope needs a non-empty pattern")
  }

  /// The number of `{id}` segments in the pattern.
  var idCount: Int { segments.reduce(0) { $0 + ($1 == .id ? 1 : 0) } }

  /// Why the scope `name`, which matches this pattern, names no element of its collection,
  /// and what to write instead: `'todos/{id}' is a pattern, not a scope: put the id of one
  /// element in place of {id}, as in 'todos/0B9E…'; todos has 3 elements: …`.
  ///
  /// - Parameters:
  ///   - name: The scope name a client gave.
  ///   - isMalformed: Whether an `{id}` segment could not be an id at all (rather than naming
  ///     an element that is not there).
  ///   - root: The root state now, for the ids to list.
  func noElementMessage(_ name: String, isMalformed: Bool, root: State) -> String {
    var message: String
    let given = zip(self.segments, name.split(separator: "/", omittingEmptySubsequences: false))
      .first { $0.0 == .id }.map { String($0.1) } ?? name
    if name.contains("{id}") {
      message = "'\(name)' is a pattern, not a scope: put the id of one element in place of {id}"
    } else if isMalformed {
      message = "'\(name)' names no element: '\(given)' cannot be an id of '\(pattern)'"
    } else {
      message = "'\(name)' does not exist right now: no element has the id '\(given)'"
    }
    guard let (sample, count) = self.elementIDs?(root) else { return message }
    if count == 0 { return message + "; there are no elements now" }
    let example = self.pattern.replacingFirstID(with: sample[0])
    let more = count > sample.count ? " and \(count - sample.count) more" : ""
    let ids = sample.map { "'\($0)'" }.joined(separator: ", ")
    return message + ", as in '\(example)' (\(count) element\(count == 1 ? "" : "s") now: \(ids)\(more))"
  }

  /// The shape of the JSON `send` takes (computed once per action type), or `nil` for a
  /// read-only scope.
  var actionShape: JSONShape? {
    func shape<A: Decodable>(_ type: A.Type) -> JSONShape { JSONShape.of(type) }
    return self.actionType.map { shape($0) }
  }
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
    return Self(
      pattern: pattern, description: description, writable: true, actionType: ChildAction.self
    ) { _ in
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
    return Self(
      pattern: pattern, description: description, writable: true, actionType: ChildAction.self
    ) { _ in
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
    return Self(
      pattern: pattern, description: description, writable: true,
      actionType: ElementAction.self, elementIDs: elementIDs(collection)
    ) { ids in
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
    Self(
      pattern: pattern, description: description, writable: false,
      elementIDs: elementIDs(collection)
    ) { ids in
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
    return Self(
      pattern: pattern, description: description, writable: true,
      actionType: ChildAction.self, elementIDs: elementIDs(collection)
    ) { ids in
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

  /// The first ids of a collection, as `{id}` segments name them, and their number.
  @inlinable
  static func elementIDs<ID: ScopeIdentifier, Element>(
    _ collection: KeyPath<State, IdentifiedArray<ID, Element>>
  ) -> (State) -> (sample: [String], count: Int) {
    { root in
      let ids = root[keyPath: collection].ids
      return (ids.prefix(3).map(\.scopeSegment), ids.count)
    }
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

extension String {
  /// The pattern with its first `{id}` segment replaced by `id`.
  fileprivate func replacingFirstID(with id: String) -> String {
    var segments = self.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    if let index = segments.firstIndex(of: "{id}") { segments[index] = id }
    return segments.joined(separator: "/")
  }
}

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
  /// The JSON form with its identified arrays left out and collected (see ``TrackedJSON``):
  /// O(the state outside them).
  func trackedJSON() throws -> TrackedJSON
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

  @usableFromInline
  func trackedJSON() throws -> TrackedJSON {
    let finder = CollectionFinder()
    var encoder = JSONValueEncoder()
    encoder.userInfo[.identifiedArrayEncodingObserver] = finder
    let skeleton = try encoder.encode(value)
    return TrackedJSON(skeleton: skeleton, collections: finder.found)
  }
}

/// Why an action did not decode, phrased for a `bad_action` message.
@usableFromInline
struct ActionDecodingFailure: Error {
  @usableFromInline let message: String
  /// Whether the message lists the cases of an enum the action failed at.
  @usableFromInline var listsCases = false
}

@usableFromInline
func decodeAction<A: Decodable>(_ type: A.Type, from json: JSON) throws -> A {
  do {
    return try JSONValueDecoder().decode(A.self, from: json)
  } catch {
    // `action.todo.id: expected string`, or `action: unknown case 'explode'` at the root; at an
    // enum, the valid cases follow (the nearest first when the name given is close to one).
    var message = error.path.isEmpty ? "action: \(error.reason)" : "action.\(error)"
    let hint = JSONShape.of(A.self).caseHint(for: error, in: json)
    if let hint { message += "; " + hint }
    throw ActionDecodingFailure(message: message, listsCases: hint != nil)
  }
}
