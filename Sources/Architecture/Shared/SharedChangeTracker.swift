/// How shared values are read: live, or as a test store sees them while it checks an
/// assertion.
enum _SharedView {
  /// The value as it is.
  case live
  /// The value the test expects: as of the last assertion, changed by the assertion's closure.
  /// `after` is the index of the reduce being asserted (see `actual`).
  case expected(_SharedChangeTracker, after: Int)
  /// The value right after the test store's reduce number `after` (counting from 1): later
  /// changes, made since by effects or later actions, are left out, so that an assertion sees
  /// the state its action produced.
  case actual(_SharedChangeTracker, after: Int)

  /// The view of the current task: `.live` unless a test store is checking an assertion.
  static var current: Self { _SharedTesting.view }
}

/// The task-local view of shared values, set by a test store around its assertions.
enum _SharedTesting {
  @TaskLocal static var view: _SharedView = .live

  /// Runs `body` reading the actual values of an assertion in progress (for the "actual" side of
  /// a diff); the same view otherwise.
  static func actualSide<R>(_ body: () throws -> R) rethrows -> R {
    guard case .expected(let tracker, let index) = self.view else { return try body() }
    return try self.$view.withValue(.actual(tracker, after: index), operation: body)
  }
}

/// Records the changes made to shared values while a test store runs its feature, so that the
/// test can assert them exhaustively although `Shared` is a reference.
///
/// Every change made with `withLock` by the feature (its reducers and effects run with the test
/// store's dependencies, which hold this tracker) is recorded with the index of the reduce it
/// belongs to: the reduce in progress, or the next one for a change an effect makes between two
/// reduces. An assertion on reduce `n` then compares
///
/// - the *expected* value: the value as of the last assertion, changed by the test's closure
///   (`$0.$count.withLock { $0 = 1 }` changes the expectation, not the live value), against
/// - the *actual* value: the value right after reduce `n`,
///
/// and commits: the value after `n` becomes the base of the next assertion. Changes left
/// uncommitted when the test store ends are reported.
///
/// `@unchecked Sendable`: all mutable state is in `changes`, only touched inside its lock. The
/// values it holds are copies of shared values, written by whoever changes a shared value and
/// read by the test; neither side mutates a copy the other holds.
final class _SharedChangeTracker: @unchecked Sendable {
  private struct Change {
    let box: any _AnySharedBox
    /// The value as of the last assertion.
    var base: Any
    /// The values it took since, each with the index of the reduce it belongs to.
    var history: [(index: Int, value: Any)] = []
    /// The test's expectation, while an assertion is being checked.
    var expected: Any?

    func value(after index: Int) -> Any {
      self.history.last(where: { $0.index <= index })?.value ?? self.base
    }
  }

  private struct State {
    var changes: [ObjectIdentifier: Change] = [:]
    var reduceCount = 0
  }

  private let state = _SharedLock(State())

  /// Counts a reduce of the test store; returns its index (from 1).
  func didReduce() -> Int {
    self.state.withLock { state in
      state.reduceCount += 1
      return state.reduceCount
    }
  }

  /// The number of reduces so far.
  var reduceCount: Int { self.state.withLock { $0.reduceCount } }

  /// Records a change made by the feature.
  func didChange(_ box: any _AnySharedBox, from before: Any, to after: Any) {
    self.state.withLock { state in
      let id = ObjectIdentifier(box)
      var change = state.changes[id] ?? Change(box: box, base: before)
      change.history.append((state.reduceCount + 1, after))
      state.changes[id] = change
    }
  }

  /// The expected value of a box, if the tracker knows better than the box.
  func expectedValue(of box: any _AnySharedBox) -> Any? {
    self.state.withLock { state in
      guard let change = state.changes[ObjectIdentifier(box)] else { return nil }
      return change.expected ?? change.base
    }
  }

  /// Sets the expected value of a box (the test's closure changed it).
  func setExpectedValue(_ value: Any, of box: any _AnySharedBox) {
    self.state.withLock { state in
      let id = ObjectIdentifier(box)
      var change = state.changes[id] ?? Change(box: box, base: box.anyValue)
      change.expected = value
      state.changes[id] = change
    }
  }

  /// The value of a box right after reduce `index`, if the tracker knows better than the box.
  func value(of box: any _AnySharedBox, after index: Int) -> Any? {
    self.state.withLock { state in
      state.changes[ObjectIdentifier(box)]?.value(after: index)
    }
  }

  /// Whether any shared value changed up to reduce `index` since the last commit.
  func hasChanges(upTo index: Int) -> Bool {
    self.state.withLock { state in
      state.changes.values.contains { change in
        change.history.contains { $0.index <= index }
      }
    }
  }

  /// Accepts the values as of reduce `index` as the new base, and drops the expectations.
  func commit(upTo index: Int) {
    self.state.withLock { state in
      for (id, var change) in state.changes {
        change.base = change.value(after: index)
        change.history.removeAll { $0.index <= index }
        change.expected = nil
        state.changes[id] = change.history.isEmpty ? nil : change
      }
    }
  }

  /// The changes not committed: the reference, its value as of the last assertion, and now.
  func uncommittedChanges() -> [(name: String, before: Any, after: Any)] {
    self.state.withLock { state in
      state.changes.values.compactMap { change in
        guard let last = change.history.last else { return nil }
        return (change.box.debugName, change.base, last.value)
      }
    }
  }
}

/// Where the feature's code finds the test store's tracker: a dependency that only a test store
/// sets.
enum _SharedChangeTrackerKey: DependencyKey {
  static let liveValue: _SharedChangeTracker? = nil
  static let testValue: _SharedChangeTracker? = nil
}
