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

  /// Creates a send function from a closure that receives each action on the main actor, as
  /// TCA's: useful to run an effect's work by hand in a test.
  ///
  /// ```swift
  /// var values: [Int] = []
  /// await work(Send { values.append($0) })
  /// ```
  ///
  /// - Parameter send: Receives each sent action.
  public init(send: @escaping @MainActor @Sendable (Action) -> Void) {
    self.send = { action in
      // The action is handed over (`sending`), so it may cross to the main actor.
      let action = _UncheckedSendable(action)
      await MainActor.run { send(action.value) }
    }
  }

  /// A send function whose closure does its own hopping (the store's: onto its executor).
  init(_isolated send: @escaping @Sendable (sending Action) async -> Void) {
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
