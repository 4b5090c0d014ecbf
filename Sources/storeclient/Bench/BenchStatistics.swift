/// The arithmetic of the bench report: percentiles and send → patch latencies.
enum BenchStatistics {
  /// The `percentile`-th percentile of `sorted` (nearest rank: the smallest value with at
  /// least `percentile` % of the values at or below it); `nil` when empty.
  ///
  /// - Parameters:
  ///   - percentile: 0 < p ≤ 100.
  ///   - sorted: Values in ascending order.
  static func percentile(_ percentile: Double, of sorted: [UInt64]) -> UInt64? {
    guard !sorted.isEmpty else { return nil }
    let rank = Int((percentile / 100 * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
  }

  /// The latency from each action's send to the first patch at a watcher that includes it —
  /// a patch with `rev` at or after the action's revision (patches may coalesce several
  /// actions).
  ///
  /// - Parameters:
  ///   - actions: Each acknowledged action's revision and send time (ns), in any order.
  ///   - patches: One watcher's patches: revision and receive time (ns), in arrival order
  ///     (revisions increase).
  ///   - after: Only actions after this revision count (the watcher's snapshot).
  /// - Returns: One latency (ns) per action the watcher saw.
  static func patchLatencies(
    actions: [(rev: Int64, sent: UInt64)], patches: [(rev: Int64, received: UInt64)],
    after: Int64 = .min
  ) -> [UInt64] {
    let sortedActions = actions.sorted { $0.rev < $1.rev }
    var result: [UInt64] = []
    result.reserveCapacity(sortedActions.count)
    var next = 0
    for action in sortedActions where action.rev > after {
      while next < patches.count && patches[next].rev < action.rev { next += 1 }
      guard next < patches.count else { break }
      let received = patches[next].received
      result.append(received > action.sent ? received - action.sent : 0)
    }
    return result
  }
}
