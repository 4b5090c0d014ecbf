/// A value shared by several features (and persisted, with a key), as TCA's `@Shared`.
///
/// Features hold shared state in their `State` like any other field; unlike other fields it is
/// a reference, so a change made by one feature is seen by every feature holding it:
///
/// ```swift
/// struct State: Equatable {
///   @Shared(.inMemory("count")) var count = 0                       // shared app-wide
///   @Shared(.fileStorage(.syncUpsURL)) var syncUps: [SyncUp] = []   // and saved to a file
///   @Shared var signUp: SignUpData                                  // handed in by a parent
/// }
///
/// case .incrementButtonTapped:
///   state.$count.withLock { $0 += 1 }
///   return .none
///
/// case .nextButtonTapped:
///   state.path.append(.phone(PhoneNumber.State(phone: state.$signUp.phoneNumber)))
/// ```
///
/// This follows swift-sharing 2 (the `Sharing` library TCA 1.17+ uses): the value is read with
/// the plain property and changed with ``withLock(_:fileID:filePath:line:column:)`` (the
/// setter is unavailable), `$count` is the reference itself, `$signUp.phoneNumber` derives a
/// shared part, `Shared(value:)` creates a reference that no key persists, and
/// `Shared($optional)` unwraps a shared optional.
///
/// ## Keys
///
/// A key (``SharedKey``) names where the value lives: ``InMemoryKey`` (`.inMemory("name")`) for
/// the life of the app, ``FileStorageKey`` (`.fileStorage(url)`) in a JSON file. Every
/// `@Shared` with the same key in one sharing scope (the app; in tests, the test) is the same
/// reference; its initial value is only used if the storage has none.
///
/// ## Testing
///
/// A ``TestStore`` asserts shared state exhaustively, as TCA's does, although it is a
/// reference: its feature's changes are recorded, and the closure of an assertion describes the
/// expected value without touching the live one.
///
/// ```swift
/// await store.send(.incrementButtonTapped) {
///   $0.$count.withLock { $0 = 1 }
/// }
/// ```
///
/// A change an effect makes outside any action is asserted with ``TestStore/assert(_:fileID:file:line:column:)``;
/// one never asserted fails the test when the test store ends. A test's own `@Shared` with the
/// same key as its feature's is the same reference (declare it before the test store to give
/// the feature an initial value). In tests, `.fileStorage` keys read and write in-memory files
/// of the test unless `defaultFileStorage` is overridden.
@propertyWrapper
@dynamicMemberLookup
public struct Shared<Value> {
  let storage: _SharedStorage<Value>

  init(storage: _SharedStorage<Value>) {
    self.storage = storage
  }

  /// A reference to a value that no key persists, to hand to features that share it.
  ///
  /// ```swift
  /// let store = TestStore(initialState: Feature.State(count: Shared(value: 0))) { Feature() }
  /// ```
  ///
  /// - Parameter value: The initial value.
  public init(value: Value) {
    self.init(storage: _SharedBox(value: value, debugName: "Shared<\(Value.self)>"))
  }

  /// The same reference, for a `@Shared` parameter or property initialized from a `Shared`.
  ///
  /// - Parameter projectedValue: The reference.
  public init(projectedValue: Shared<Value>) {
    self = projectedValue
  }

  /// The shared value of an optional, while it is not `nil`.
  ///
  /// ```swift
  /// guard let syncUp = Shared(state.$syncUps[id: id]) else { return .none }
  /// ```
  ///
  /// After the optional becomes `nil`, the unwrapped reference keeps its last value and its
  /// changes no longer reach the optional.
  ///
  /// - Parameter base: A shared optional.
  public init?(_ base: Shared<Value?>) {
    guard let value = base.wrappedValue else { return nil }
    self.init(storage: _SharedUnwrappedStorage(base: base.storage, value: value))
  }

  /// The current value. Change it with ``withLock(_:fileID:filePath:line:column:)``.
  public var wrappedValue: Value {
    get { self.storage.read(_SharedView.current) }
    @available(
      *, unavailable,
      message: "Use '$shared.withLock' to modify a shared value with exclusive access."
    )
    nonmutating set { self.withLock { $0 = newValue } }
  }

  /// The reference itself: `$count`, to hand to another feature or to change with
  /// ``withLock(_:fileID:filePath:line:column:)``.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  /// Changes the value with exclusive access: no other change interleaves with `operation`.
  ///
  /// ```swift
  /// state.$syncUps.withLock { $0.append(syncUp) }
  /// ```
  ///
  /// A persisted value is saved after the change (the key may coalesce saves).
  ///
  /// - Parameters:
  ///   - operation: Changes the value.
  ///   - fileID: The caller's file (kept for TCA's signature).
  ///   - filePath: The caller's file path (kept for TCA's signature).
  ///   - line: The caller's line (kept for TCA's signature).
  ///   - column: The caller's column (kept for TCA's signature).
  /// - Returns: What `operation` returns.
  @discardableResult
  public func withLock<R>(
    _ operation: (inout Value) throws -> R,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) rethrows -> R {
    try self.storage.modify(_SharedView.current, operation)
  }

  /// A shared part of the value: `$signUp.phoneNumber` is a `Shared<String>` whose changes are
  /// changes of `signUp`.
  ///
  /// - Parameter keyPath: The part.
  /// - Returns: A reference to it.
  public subscript<Member>(
    dynamicMember keyPath: WritableKeyPath<Value, Member>
  ) -> Shared<Member> {
    Shared<Member>(storage: _SharedKeyPathStorage(base: self.storage, keyPath: keyPath))
  }

  /// Loads the value again from its key (a no-op for a value no key persists).
  ///
  /// - Throws: The key's load error.
  public func load() async throws {
    try await self.storage.reload()
  }

  /// Saves the value with its key now, without waiting for a coalesced save (a no-op for a
  /// value no key persists).
  ///
  /// - Throws: The key's save error.
  public func save() async throws {
    try await self.storage.saveNow()
  }

  /// The error of the key's last load, if it failed (the value is then its default, or the last
  /// one loaded).
  public var loadError: (any Error)? { self.storage.loadError }

  /// The error of the key's last save, if it failed.
  public var saveError: (any Error)? { self.storage.saveError }
}

extension Shared {
  /// The shared element of an identified array with an id, `nil` when there is none:
  /// `$syncUps[id: id]`, to unwrap with `Shared(_:)`.
  ///
  /// - Parameter id: The element's id.
  /// - Returns: A reference to the optional element.
  public subscript<ID: Hashable & Sendable, Element>(
    id id: ID
  ) -> Shared<Element?> where Value == IdentifiedArray<ID, Element> {
    self[dynamicMember: \IdentifiedArray<ID, Element>.[id: id]]
  }
}

/// A `Shared` is a reference to a storage whose value is only read and written under a lock
/// (see `_SharedBox`); with a `Sendable` value, it is `Sendable`.
extension Shared: Sendable where Value: Sendable {}

extension Shared: Equatable where Value: Equatable {
  /// Compares the values.
  ///
  /// While a test store checks an assertion, comparing a reference with itself compares the
  /// expected value (the left side) with the actual one (the right side): this is how
  /// `expected == actual` states holding the same reference can differ.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    let view = _SharedView.current
    if case .expected(let tracker, let index) = view,
      lhs.storage.identity == rhs.storage.identity
    {
      return lhs.storage.read(view) == rhs.storage.read(.actual(tracker, after: index))
    }
    return lhs.storage.read(view) == rhs.storage.read(view)
  }
}

extension Shared: Identifiable where Value: Identifiable {
  /// The value's id.
  public var id: Value.ID { self.wrappedValue.id }
}

extension Shared: CustomStringConvertible, CustomReflectable {
  /// The value, as test failures print it.
  public var description: String {
    _dumpLines(self.wrappedValue).joined(separator: "\n")
  }

  /// Reflects as the value, so that test failures show it in place of the reference.
  public var customMirror: Mirror {
    Mirror(reflecting: self.wrappedValue)
  }
}
