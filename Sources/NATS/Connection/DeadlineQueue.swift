/// Deadlines by instant (a binary min-heap), so that thousands of requests in flight cost one
/// loop timer, armed for the earliest, instead of one each. Entries are not removed when their
/// request completes: the owner skips those it no longer knows when they come due.
struct DeadlineQueue {
  private var heap: [(deadline: ContinuousClock.Instant, token: UInt64)] = []

  var isEmpty: Bool { self.heap.isEmpty }
  var count: Int { self.heap.count }

  /// The earliest deadline.
  var earliest: ContinuousClock.Instant? { self.heap.first?.deadline }

  mutating func insert(_ deadline: ContinuousClock.Instant, token: UInt64) {
    self.heap.append((deadline, token))
    var child = self.heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard self.heap[child].deadline < self.heap[parent].deadline else { break }
      self.heap.swapAt(child, parent)
      child = parent
    }
  }

  /// Removes and returns the earliest entry if it is due at `now`.
  mutating func popDue(at now: ContinuousClock.Instant) -> (deadline: ContinuousClock.Instant, token: UInt64)? {
    guard let first = self.heap.first, first.deadline <= now else { return nil }
    let last = self.heap.removeLast()
    if !self.heap.isEmpty {
      self.heap[0] = last
      var parent = 0
      while true {
        let left = 2 * parent + 1
        let right = left + 1
        var smallest = parent
        if left < self.heap.count, self.heap[left].deadline < self.heap[smallest].deadline { smallest = left }
        if right < self.heap.count, self.heap[right].deadline < self.heap[smallest].deadline { smallest = right }
        if smallest == parent { break }
        self.heap.swapAt(parent, smallest)
        parent = smallest
      }
    }
    return first
  }

  mutating func removeAll() { self.heap.removeAll() }
}
