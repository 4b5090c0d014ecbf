/// A clock whose time only moves when a test says so, so that timer effects test instantly and
/// deterministically.
///
/// ```swift
/// let clock = TestClock()
/// let store = Store(initialState: Feature.State()) { Feature() } withDependencies: {
///   $0.clock = clock
/// }
/// await store.send(.toggleTimerButtonTapped)
/// await clock.advance(by: .seconds(1))   // the timer ticks once
/// ```
///
/// Sleepers resume in deadline order (ties in the order they started sleeping), each with the
/// clock's `now` set to its deadline. Cancelling a sleeping task makes its `sleep` throw
/// `CancellationError` at once.
///
/// ## Waiting for resumed work
///
/// After resuming a sleeper, ``advance(by:)`` waits for what the sleeper does next (a timer
/// sends its tick and sleeps again) before it resumes the next one. For the effects of a
/// ``TestStore`` that wait is exact: they run on the test store's serial executor, and the
/// clock waits until that executor is idle. For other tasks (a plain ``Store``'s effects, or a
/// task the test starts itself) Swift cannot tell when they are idle, so the clock yields to
/// them for a while, as swift-clocks' test clock does.
public final class TestClock<Duration: DurationProtocol & Hashable>: Clock, Sendable {

  /// A point in a test clock's time: an offset from its start.
  public struct Instant: InstantProtocol, Sendable, Hashable {
    /// The time since the clock's start.
    public var offset: Duration

    /// An instant at an offset from the clock's start.
    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Self {
      Self(offset: self.offset + duration)
    }

    /// The duration from this instant to another.
    public func duration(to other: Self) -> Duration {
      other.offset - self.offset
    }

    /// Orders instants.
    public static func < (lhs: Self, rhs: Self) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: UnsafeContinuation<Void, any Error>
    /// The test store executor the sleeping task resumes on, if it runs on one.
    let executor: _TestStoreExecutorThread?
  }

  private struct WeakExecutor {
    weak var thread: _TestStoreExecutorThread?
  }

  private struct State {
    var now: Instant
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
    /// The test store executors whose tasks have slept on this clock.
    var executors: [ObjectIdentifier: WeakExecutor] = [:]
    /// Whether a task outside any test store executor has slept on this clock.
    var hasForeignSleepers = false
  }

  private let state: _Lock<State>

  /// The smallest step of the clock.
  public let minimumResolution: Duration = .zero

  /// Creates a test clock.
  ///
  /// - Parameter now: The starting instant.
  public init(now: Instant) {
    self.state = _Lock(State(now: now))
  }

  /// The current instant.
  public var now: Instant {
    self.state.withLock { $0.now }
  }

  /// The number of tasks sleeping on this clock.
  public var sleeperCount: Int {
    self.state.withLock { $0.sleepers.count }
  }

  /// Suspends until the clock is advanced (or run) to `deadline`.
  ///
  /// A deadline equal to ``now`` — `sleep(for: .zero)` — suspends too, until the clock is next
  /// advanced (even by zero) or run, as swift-clocks' test clock does; a deadline already in the
  /// past returns at once.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = self.state.withLock { state -> UInt64? in
      guard deadline >= state.now else { return nil }
      defer { state.nextID += 1 }
      return state.nextID
    }
    guard let id else { return }
    // A task sleeping here from a test store's executor thread resumes on that executor: the
    // effects' task executor, or the store's actor.
    let executor = _TestStoreExecutorThread.current
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { continuation in
        self.state.withLock { state in
          state.sleepers.append(
            Sleeper(id: id, deadline: deadline, continuation: continuation, executor: executor))
          if let executor {
            state.executors[ObjectIdentifier(executor)] = WeakExecutor(thread: executor)
          } else {
            state.hasForeignSleepers = true
          }
        }
        if Task.isCancelled { self.cancelSleeper(id) }
      }
    } onCancel: {
      self.cancelSleeper(id)
    }
  }

  private func cancelSleeper(_ id: UInt64) {
    let sleeper = self.state.withLock { state -> Sleeper? in
      guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
      return state.sleepers.remove(at: index)
    }
    sleeper?.continuation.resume(throwing: CancellationError())
  }

  /// Advances the clock by a duration, resuming the sleepers whose deadlines pass, in order.
  ///
  /// Between resumptions it waits for the resumed work to run and sleep again (a repeating
  /// timer ticks once per period inside one long `advance`; see "Waiting for resumed work").
  ///
  /// - Parameter duration: How far to move time.
  public func advance(by duration: Duration = .zero) async {
    await self.advance(to: self.now.advanced(by: duration))
  }

  /// Advances the clock to an instant (see ``advance(by:)``).
  public func advance(to deadline: Instant) async {
    await self.settle()
    while true {
      let next = self.state.withLock { state -> Sleeper? in
        guard
          let index = state.sleepers.indices.min(by: {
            (state.sleepers[$0].deadline, state.sleepers[$0].id)
              < (state.sleepers[$1].deadline, state.sleepers[$1].id)
          }),
          state.sleepers[index].deadline <= deadline
        else {
          if deadline > state.now { state.now = deadline }
          return nil
        }
        let sleeper = state.sleepers.remove(at: index)
        if sleeper.deadline > state.now { state.now = sleeper.deadline }
        return sleeper
      }
      guard let next else { return }
      let remaining = self.sleeperCount
      next.continuation.resume()
      if next.executor != nil {
        await self.waitForTestStoreExecutors()
      } else {
        await self.settle(untilMoreThan: remaining)
      }
    }
  }

  /// Advances the clock until nothing sleeps on it any more, or by `limit` at most.
  ///
  /// - Parameter limit: How far to advance at most, against runaway timers.
  public func run(limit: Duration) async {
    let end = self.now.advanced(by: limit)
    await self.settle()
    while let next = self.state.withLock({ $0.sleepers.map(\.deadline).min() }), next <= end {
      await self.advance(to: next)
    }
  }
}

extension TestClock where Duration == Swift.Duration {
  /// Creates a test clock of `Swift.Duration` starting at offset zero: what `TestClock()`
  /// means, as in swift-clocks.
  public convenience init() {
    self.init(now: Instant())
  }

  /// Advances the clock until nothing sleeps on it any more, or by one day at most (against
  /// runaway timers).
  public func run() async {
    await self.run(limit: .seconds(60 * 60 * 24))
  }
}

extension TestClock {
  /// Lets the tasks that are about to sleep on this clock reach their `sleep` before it moves.
  ///
  /// Exact for tasks on test store executors: it waits until every executor whose tasks have
  /// slept here is idle. If other tasks have slept here, or none has yet, it also yields to them
  /// (``settle(untilMoreThan:)``).
  func settle() async {
    let isForeign = self.state.withLock { $0.hasForeignSleepers || $0.executors.isEmpty }
    await self.waitForTestStoreExecutors()
    if isForeign { await self.settle(untilMoreThan: .max) }
  }

  /// Waits until every live test store executor whose tasks have slept on this clock is idle at
  /// once (work on one may wake work on another).
  func waitForTestStoreExecutors() async {
    while true {
      let executors = self.state.withLock { state -> [_TestStoreExecutorThread] in
        state.executors = state.executors.filter { $0.value.thread != nil }
        return state.executors.values.compactMap(\.thread)
      }
      var wereIdle = true
      for executor in executors {
        if await !executor.waitUntilIdle() { wereIdle = false }
      }
      if wereIdle { return }
    }
  }

  /// Yields to tasks outside test store executors until they are about to sleep here (a
  /// heuristic, as swift-clocks': Swift cannot tell when such tasks are idle). Settles until the
  /// number of sleepers has been stable for a while, or, after resuming a sleeper, until it
  /// sleeps again.
  ///
  /// - Parameter target: Stop as soon as more than this many tasks sleep (a resumed timer has
  ///   gone back to sleep).
  func settle(untilMoreThan target: Int) async {
    let start = ContinuousClock.now
    var last = self.sleeperCount
    var stableRounds = 0
    while true {
      await _settle(4)
      let count = self.sleeperCount
      if count > target { return }
      stableRounds = count == last ? stableRounds + 1 : 0
      last = count
      let elapsed = ContinuousClock.now - start
      if stableRounds >= 5, elapsed >= .milliseconds(20) { return }
      if elapsed >= .seconds(1) { return }
    }
  }
}

/// Lets other tasks run until they suspend again: round trips through the global executor, as
/// TCA's `megaYield`. A heuristic (Swift has no "wait until idle"), only used for tasks that do
/// not run on a test store's executor.
func _settle(_ count: Int = 40) async {
  for _ in 0..<count {
    await Task.detached(priority: .background) { await Task.yield() }.value
  }
}
