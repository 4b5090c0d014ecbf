extension Effect {
  // MARK: - Cancellation

  /// Makes this effect cancellable by an id, optionally cancelling effects already running
  /// under that id first.
  ///
  /// ```swift
  /// case .searchQueryChanged(let query):
  ///   return .run { send in await send(.results(try await api.search(query))) }
  ///     .cancellable(id: CancelID.search, cancelInFlight: true)
  /// ```
  ///
  /// Ids are scoped to the store (cancelling in one store never touches another store's
  /// effects) and to the `forEach`/`ifLet` element the effect came from.
  ///
  /// - Parameters:
  ///   - id: Any hashable, sendable value.
  ///   - cancelInFlight: Whether to cancel effects with this id that are already running.
  /// - Returns: The cancellable effect.
  public func cancellable<ID: Hashable & Sendable>(id: ID, cancelInFlight: Bool = false) -> Self {
    if self.isNone && !cancelInFlight { return self }
    return Self(
      operation: .cancellable(_CancelID(id), cancelInFlight: cancelInFlight, self._operation))
  }

  /// An effect that cancels the running effects with an id. Cancellation is prompt: their
  /// tasks are cancelled when this effect starts, and their `send` calls no longer reach the
  /// store.
  ///
  /// - Parameter id: The id given to ``cancellable(id:cancelInFlight:)``.
  /// - Returns: The cancelling effect.
  public static func cancel<ID: Hashable & Sendable>(id: ID) -> Self {
    Self(operation: .cancel(_CancelID(id)))
  }

  /// Delays this effect until no other effect with the same id has started for `duration`.
  ///
  /// ```swift
  /// return .run { send in await send(.search(query)) }
  ///   .debounce(id: CancelID.search, for: .milliseconds(300), clock: self.clock)
  /// ```
  ///
  /// - Parameters:
  ///   - id: The debounce id: a new debounced effect with it cancels the pending one.
  ///   - duration: The quiet period.
  ///   - clock: The clock to wait on (a `TestClock` in tests).
  /// - Returns: The debounced effect.
  public func debounce<ID: Hashable & Sendable>(
    id: ID,
    for duration: Duration,
    clock: any Clock<Duration>
  ) -> Self {
    if self.isNone { return self }
    return Self(operation: .debounce(_CancelID(id), duration, clock, self._operation))
  }

  /// Tags this effect with a navigation id and rewrites the ids inside it to be relative to it.
  func _scoped(in navigationID: _CancelID) -> Self {
    if self.isNone { return self }
    return Self(
      operation: .cancellable(
        navigationID, cancelInFlight: false, self._operation.scoped(in: navigationID)))
  }
}
