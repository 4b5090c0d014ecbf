extension Store {
  /// The store's state, first as it is now, then after actions change it.
  ///
  /// ```swift
  /// for await state in store.stateChanges() {
  ///   render(state)
  /// }
  /// ```
  ///
  /// Pull-based and coalescing: each iteration reads the newest state, so a slow observer sees
  /// the latest value rather than a backlog, and the send path only bumps a counter. When
  /// `State` is `Equatable`, consecutive equal states are skipped. Iteration ends when the
  /// iterating task is cancelled.
  ///
  /// Each state is a copy the store hands over and no longer touches, so `State` need not be
  /// `Sendable` (as in TCA, it must then be a value type that holds no class instance it
  /// mutates in place).
  ///
  /// - Returns: An async sequence of states.
  nonisolated public func stateChanges() -> some AsyncSequence<State, Never> {
    self.core.stateChanges()
  }
}

extension _Core {
  /// The sequence behind both stores' `stateChanges()`: each step hops to the store tree's
  /// executor (``_StoreRoot/isolation``) to read the state and wait for the next change.
  nonisolated func stateChanges() -> StoreStateChanges<State> {
    StoreStateChanges<State>(
      next: { [self] version in
        await _nextState(of: self, after: version, isolation: self.root.isolation)
      },
      isEqual: _equalityFunction(State.self)
    )
  }
}

/// Returns the current state and version of `core`, waiting first until the version differs
/// from `version` (if given). `nil` when the waiting task is cancelled. Runs on the store tree's
/// executor (`isolation`).
///
/// The state crosses to the iterating task in `_UncheckedSendable`: it is a copy made on the
/// store's executor, which keeps no access to it.
func _nextState<State, Action>(
  of core: _Core<State, Action>, after version: UInt64?, isolation: isolated any Actor
) async -> _UncheckedSendable<(State, UInt64)>? {
  let root = core.root
  if let version, root.version == version {
    let id = root.makeID()
    await withTaskCancellationHandler {
      await _waitForChange(of: root, after: version, id: id, isolation: isolation)
    } onCancel: {
      Task { await _cancelStateWaiter(of: root, id: id, isolation: isolation) }
    }
    if Task.isCancelled { return nil }
  }
  return _UncheckedSendable((core.state, root.version))
}

/// Suspends until the root's version moves past `version` (at once if it already has: other
/// jobs may have run on the executor since the caller checked).
private func _waitForChange(
  of root: _StoreRoot, after version: UInt64, id: UInt64, isolation: isolated any Actor
) async {
  guard root.version == version, !Task.isCancelled else { return }
  await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
    root.stateWaiters[id] = continuation
  }
}

private func _cancelStateWaiter(of root: _StoreRoot, id: UInt64, isolation: isolated any Actor) {
  root.stateWaiters.removeValue(forKey: id)?.resume()
}

/// The sequence returned by ``Store/stateChanges()``.
struct StoreStateChanges<State>: AsyncSequence, Sendable {
  typealias Element = State
  typealias Failure = Never

  let next: @Sendable (UInt64?) async -> _UncheckedSendable<(State, UInt64)>?
  let isEqual: (@Sendable (State, State) -> Bool)?

  func makeAsyncIterator() -> Iterator {
    Iterator(next: self.next, isEqual: self.isEqual)
  }

  struct Iterator: AsyncIteratorProtocol {
    let next: @Sendable (UInt64?) async -> _UncheckedSendable<(State, UInt64)>?
    let isEqual: (@Sendable (State, State) -> Bool)?
    var version: UInt64?
    var last: State?

    mutating func next() async -> State? {
      await self.next(isolation: nil)
    }

    mutating func next(isolation actor: isolated (any Actor)?) async -> State? {
      while true {
        guard let (state, version) = await self.next(self.version)?.value else { return nil }
        self.version = version
        if let isEqual = self.isEqual, let last = self.last, isEqual(last, state) { continue }
        if self.isEqual != nil { self.last = state }
        return state
      }
    }
  }
}

/// `==` for `T` when it is `Equatable` at run time (checked once, not on the send path).
func _equalityFunction<T>(_ type: T.Type) -> (@Sendable (T, T) -> Bool)? {
  guard type is any Equatable.Type else { return nil }
  return { lhs, rhs in
    guard let lhs = lhs as? any Equatable else { return false }
    return _isEqual(lhs, rhs)
  }
}

func _isEqual<E: Equatable>(_ lhs: E, _ rhs: Any) -> Bool {
  (rhs as? E) == lhs
}
