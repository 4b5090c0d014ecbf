import Synchronization

/// Whether a host has stopped, readable and awaitable without calling into its core.
///
/// The core runs on its event loop, and a stopped host's loop is gone: a call into the core
/// made after ``StoreHost/shutdown(reason:)`` would never run. So waiting for the stop, and
/// deciding which of several `shutdown` calls does the work, happen here instead.
final class StopLatch: Sendable {
  private struct State {
    var isClaimed = false
    var isStopped = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Mutex(State())

  /// Whether this caller is the first to stop the host: `true` once, `false` for the others,
  /// which wait for ``wait()`` instead.
  func claim() -> Bool {
    self.state.withLock { state in
      defer { state.isClaimed = true }
      return !state.isClaimed
    }
  }

  /// Records the stop and wakes every waiter.
  func open() {
    let waiters = self.state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.isStopped = true
      state.isClaimed = true
      defer { state.waiters.removeAll() }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Whether the host has stopped.
  var isOpen: Bool { self.state.withLock(\.isStopped) }

  /// Suspends until ``open()`` (at once if it has run).
  func wait() async {
    await withCheckedContinuation { continuation in
      let stopped = self.state.withLock { state -> Bool in
        if state.isStopped { return true }
        state.waiters.append(continuation)
        return false
      }
      if stopped { continuation.resume() }
    }
  }
}
