/// Sends actions back into the store from a running effect.
///
/// ```swift
/// return .run { send in
///   for await tick in ticks { await send(.timerTick) }
/// }
/// ```
///
/// Each call is reduced by the store before it returns, so actions sent one after another by an
/// effect are reduced in that order. After the effect's task is cancelled, calls do nothing.
public struct Send<Action>: Sendable {
  let send: @Sendable (sending Action) async -> Void

  /// Creates a send function from a closure (useful in tests of effect code).
  ///
  /// - Parameter send: Receives each sent action.
  public init(send: @escaping @Sendable (sending Action) async -> Void) {
    self.send = send
  }

  /// Sends an action back into the store, unless the current task is cancelled.
  ///
  /// - Parameter action: The action.
  public func callAsFunction(_ action: sending Action) async {
    guard !Task.isCancelled else { return }
    await self.send(action)
  }
}
