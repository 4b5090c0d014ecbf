import Architecture
import Wire

/// What a host that keeps a history starts with: the log of its records (which the recorder
/// appends to) and the builder of past states. Made by ``make(configuration:initialState:revision:loop:recorder:reducer:dependencies:)``
/// once, at start — out of line, so that ``StoreHost/start(app:initialState:reducer:scopes:configuration:withDependencies:)``,
/// which is inlinable, names nothing of the history but this type.
@usableFromInline
final class HistoryParts<State: Sendable, Action: Sendable> {
  let log: HistoryLog<State, Action>
  let builder: PastStateBuilder<State, Action>

  private init(log: HistoryLog<State, Action>, builder: PastStateBuilder<State, Action>) {
    self.log = log
    self.builder = builder
  }

  /// The history of a host, or `nil` when its configuration keeps none (`historyLimit` 0).
  ///
  /// - Parameters:
  ///   - configuration: The host's configuration (its `historyLimit`).
  ///   - initialState: The root state before the first action.
  ///   - revision: The root revision it is at.
  ///   - loop: The host's event loop, where rebuilt states are delivered.
  ///   - recorder: The host's recorder, which will append every reduced action to the log.
  ///   - reducer: Makes the app's reducer (the replayer gets its own instance).
  ///   - dependencies: The root store's dependencies, recording wrappers included.
  @usableFromInline
  static func make<R: Reducer>(
    configuration: HostConfiguration, initialState: State, revision: Int64, loop: EventLoop,
    recorder: ReductionRecorder<Action>, reducer: @escaping @Sendable () -> R,
    dependencies: DependencyValues
  ) -> HistoryParts? where R.State == State, R.Action == Action {
    guard configuration.historyLimit > 0 else { return nil }
    let log = HistoryLog<State, Action>(
      capacity: configuration.historyLimit, byteLimit: configuration.historyMemoryLimit,
      initialState: initialState, revision: revision)
    recorder.record(into: log.log, actions: log.actions)
    let builder = PastStateBuilder(
      loop: loop, replayer: Replayer(reducer: reducer, dependencies: dependencies))
    return HistoryParts(log: log, builder: builder)
  }
}
