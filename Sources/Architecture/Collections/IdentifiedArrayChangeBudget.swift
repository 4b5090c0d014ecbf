import Synchronization

/// The bytes that the change logs of many identified arrays may keep together: a host gives
/// one budget to every array whose changes it pushes to watchers, so that what those logs hold
/// for watchers that fell behind is bounded in bytes, not only in changes.
///
/// ```swift
/// let budget = IdentifiedArrayChangeBudget(limit: 64 << 20) { element in estimate(element) }
/// let cursor = todos.changeCursor(budget: budget)
/// ```
///
/// Each recorded change counts the bytes its element is estimated to hold (by the budget's
/// estimate, which sees elements of every array under it) plus its slot. When a change takes the total over ``limit``, the logs
/// holding the most drop their oldest changes until it is back under: their watchers that far
/// behind take the whole collection again. A log's bytes leave the budget with the log.
@_spi(ChangeTracking)
public final class IdentifiedArrayChangeBudget: Sendable {
  /// The most bytes the logs may keep together.
  public let limit: Int
  /// The bytes an element holds, estimated cheaply: it runs on every recorded insert and
  /// update, under the log's lock.
  let estimate: @Sendable (Any) -> Int
  private let held = Atomic<Int>(0)
  /// The logs counted here, weakly: a log leaves with its last array and cursor.
  private let logs = _Lock<Registry>(Registry())

  private struct Registry {
    var entries: [Entry] = []
    /// Past this many entries, the dead ones are swept out (amortized O(1) per registration).
    var sweepAt = 16
  }

  private struct Entry {
    weak var log: (any _IdentifiedArrayChangeTrimming)?
  }

  /// A budget of `limit` bytes, whose changes hold what `estimate` says of their elements.
  ///
  /// - Parameters:
  ///   - limit: The most bytes the logs under it may keep together.
  ///   - estimate: The bytes an element (of any array under the budget) holds, in line and on
  ///     the heap; cheap, since it runs on every recorded insert and update.
  public init(limit: Int, estimatingSizeWith estimate: @escaping @Sendable (Any) -> Int) {
    precondition(limit >= 0, "a change budget cannot be negative")
    self.limit = limit
    self.estimate = estimate
  }

  /// The bytes the logs under this budget keep now (estimated).
  public var heldBytes: Int { self.held.load(ordering: .relaxed) }

  /// The bytes the logs under this budget have let go of so far (estimated; it only grows):
  /// trimmed, no longer watched, or gone with their arrays.
  public var releasedBytes: Int { self.released.load(ordering: .relaxed) }
  private let released = Atomic<Int>(0)

  /// Counts `log` under this budget (once, when it joins).
  func register(_ log: any _IdentifiedArrayChangeTrimming) {
    self.logs.withLock { registry in
      if registry.entries.count >= registry.sweepAt {
        registry.entries.removeAll { $0.log == nil }
        registry.sweepAt = max(16, registry.entries.count * 2)
      }
      registry.entries.append(Entry(log: log))
    }
  }

  /// Adds `delta` bytes (negative when a log let changes go), and trims if that went over.
  ///
  /// Never called while a log's lock is held: trimming takes the logs' locks.
  func add(_ delta: Int) {
    let total = self.held.add(delta, ordering: .relaxed).newValue
    if delta < 0 { self.released.add(-delta, ordering: .relaxed) }
    if delta > 0 && total > self.limit { self.trim() }
  }

  /// Lets go of the changes no cursor can ask for any more — those before each log's oldest
  /// live cursor, all of a log whose cursors are gone — and returns the bytes freed.
  ///
  /// Logs notice this themselves at their next mutation; a host calls it now and then (once a
  /// second) so that what watchers that left were kept is freed even when nothing changes.
  @discardableResult
  public func releaseUnwatched() -> Int {
    let live = self.logs.withLock { registry in registry.entries.compactMap(\.log) }
    var freed = 0
    for log in live { freed += log.dropUnwatched() }
    if freed != 0 {
      self.held.subtract(freed, ordering: .relaxed)
      self.released.add(freed, ordering: .relaxed)
    }
    return freed
  }

  /// Drops the oldest changes of the logs holding the most until the total is under the limit.
  private func trim() {
    let live = self.logs.withLock { registry in registry.entries.compactMap(\.log) }
    let largestFirst = live.map { ($0, $0.heldBytes) }.sorted { $0.1 > $1.1 }
    for (log, _) in largestFirst {
      let excess = self.held.load(ordering: .relaxed) - self.limit
      guard excess > 0 else { return }
      let freed = log.dropOldest(freeing: excess)
      if freed != 0 {
        self.held.subtract(freed, ordering: .relaxed)
        self.released.add(freed, ordering: .relaxed)
      }
    }
  }
}

/// A change log as its budget trims it.
protocol _IdentifiedArrayChangeTrimming: AnyObject, Sendable {
  /// The bytes its changes hold (estimated).
  var heldBytes: Int { get }
  /// Drops its oldest changes until at least `bytes` are freed or none is left; returns the
  /// bytes freed. The caller accounts them.
  func dropOldest(freeing bytes: Int) -> Int
  /// Drops the changes before its oldest live cursor (all when none is left); returns the
  /// bytes freed. The caller accounts them.
  func dropUnwatched() -> Int
}
