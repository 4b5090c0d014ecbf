extension Effect {
  /// Delays this effect until `dueTime` has passed on the scheduler without another effect
  /// under the same id, as TCA's scheduler-based `debounce`.
  ///
  /// ```swift
  /// case .queryChanged(let query):
  ///   state.query = query
  ///   return .run { send in await send(.search(query)) }
  ///     .debounce(id: CancelID.search, for: 0.3, scheduler: self.mainQueue)
  /// ```
  ///
  /// The same operator as ``debounce(id:for:clock:)``, on the scheduler's time.
  ///
  /// - Parameters:
  ///   - id: The debounce's id; a new effect under it cancels the waiting one.
  ///   - dueTime: How long to wait.
  ///   - scheduler: The scheduler to wait on.
  ///   - options: Ignored (the schedulers here take none).
  /// - Returns: The debounced effect.
  public func debounce<ID: Hashable & Sendable, S: Scheduler & Sendable>(
    id: ID,
    for dueTime: S.SchedulerTimeType.Stride,
    scheduler: S,
    options: S.SchedulerOptions? = nil
  ) -> Self {
    self.debounce(id: id, for: dueTime.duration, clock: _SchedulerClock(scheduler))
  }
}
