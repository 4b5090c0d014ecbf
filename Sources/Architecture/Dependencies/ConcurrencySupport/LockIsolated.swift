#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A mutable value protected by a lock, shareable between tasks: the way tests of effects
/// record what a dependency was called with (as in swift-dependencies).
///
/// ```swift
/// let savedTitles = LockIsolated<[String]>([])
/// let store = TestStore(initialState: Feature.State()) {
///   Feature()
/// } withDependencies: {
///   $0.database.save = { item in savedTitles.withValue { $0.append(item.title) } }
/// }
/// await store.send(.saveButtonTapped)
/// #expect(savedTitles.value == ["Milk"])
/// ```
///
/// The lock is recursive: a `withValue` closure may read the value again (it sees the value from
/// before the change the closure is making).
@dynamicMemberLookup
public final class LockIsolated<Value>: @unchecked Sendable {
  // @unchecked: `_value` is only read or written while `mutex` is held (every accessor below
  // takes it), so accesses from different threads are serialized.
  private var _value: Value
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  /// Isolates a value.
  ///
  /// - Parameter value: The initial value.
  public init(_ value: @autoclosure @Sendable () throws -> Value) rethrows {
    self._value = try value()
    self.mutex = .allocate(capacity: 1)
    self.mutex.initialize(to: pthread_mutex_t())
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
    let result = pthread_mutex_init(self.mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
    precondition(result == 0, "pthread_mutex_init failed: \(result)")
  }

  deinit {
    pthread_mutex_destroy(self.mutex)
    self.mutex.deinitialize(count: 1)
    self.mutex.deallocate()
  }

  /// Reads a property of the value, under the lock.
  public subscript<Subject: Sendable>(dynamicMember keyPath: KeyPath<Value, Subject>) -> Subject {
    self.locked { self._value[keyPath: keyPath] }
  }

  /// Reads or changes the value in one step, under the lock.
  ///
  /// ```swift
  /// count.withValue { $0 += 1 }
  /// ```
  ///
  /// The closure changes a copy, stored back when it returns: a read of this value from inside
  /// the closure (the lock is recursive) sees the value from before the change.
  ///
  /// - Parameter operation: Gets the value in place.
  /// - Returns: What `operation` returns.
  public func withValue<T: Sendable>(_ operation: (inout Value) throws -> T) rethrows -> T {
    try self.locked {
      var value = self._value
      defer { self._value = value }
      return try operation(&value)
    }
  }

  /// Replaces the value.
  ///
  /// > Tip: to change the value based on its current value, use ``withValue(_:)``, which holds
  /// > the lock for the whole change.
  ///
  /// - Parameter newValue: The new value.
  public func setValue(_ newValue: @autoclosure @Sendable () throws -> Value) rethrows {
    try self.locked { self._value = try newValue() }
  }

  /// Runs `body` holding the lock. `body` accesses `_value` itself, each access instantaneous,
  /// so that a nested call (the lock is recursive) never overlaps an access in progress.
  private func locked<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(self.mutex)
    defer { pthread_mutex_unlock(self.mutex) }
    return try body()
  }
}

extension LockIsolated where Value: Sendable {
  /// The value.
  public var value: Value {
    self.locked { self._value }
  }
}

extension LockIsolated: Equatable where Value: Equatable {
  /// Whether the two values are equal.
  public static func == (lhs: LockIsolated, rhs: LockIsolated) -> Bool {
    if lhs === rhs { return true }
    // One lock at a time: two threads comparing `a == b` and `b == a` cannot deadlock.
    let lhsValue = lhs.locked { lhs._value }
    return rhs.locked { rhs._value == lhsValue }
  }
}

extension LockIsolated: Hashable where Value: Hashable {
  /// Hashes the value.
  public func hash(into hasher: inout Hasher) {
    self.locked { hasher.combine(self._value) }
  }
}
