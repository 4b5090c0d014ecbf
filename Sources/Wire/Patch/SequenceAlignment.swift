/// Finds elements two sequences keep in common, in order: the anchors of an edit script.
///
/// Each anchor is a pair `(old, new)` of indices whose elements correspond; indices increase
/// in both components. Everything between consecutive anchors is removed from the old sequence
/// or inserted from the new one.
enum SequenceAlignment {
  /// An anchor: an old index and the new index of the element it corresponds to.
  typealias Anchor = (old: Int, new: Int)

  /// The longest common subsequence by Myers' O((n+m)·D) algorithm, or `nil` if more than
  /// `maxEdits` insertions and deletions are needed, so that a large difference costs bounded
  /// time and memory (O(maxEdits²) for the trace).
  ///
  /// - Parameters:
  ///   - oldCount: The length of the old sequence.
  ///   - newCount: The length of the new sequence.
  ///   - maxEdits: The most insertions plus deletions to search for.
  ///   - equal: Whether old element `i` equals new element `j`.
  static func myers(
    oldCount n: Int,
    newCount m: Int,
    maxEdits: Int,
    equal: (Int, Int) -> Bool
  ) -> [Anchor]? {
    let limit = min(n + m, maxEdits)
    // `frontier[offset + k]` is the furthest x reached on diagonal k = x - y.
    let offset = limit + 1
    var frontier = [Int](repeating: 0, count: 2 * limit + 3)
    // `trace[d]` is the frontier before step d, diagonals -d...d + 1 only.
    var trace: [[Int]] = []
    for d in 0...limit {
      trace.append(Array(frontier[(offset - d)...(offset + d + 1)]))
      for k in stride(from: -d, through: d, by: 2) {
        var x: Int
        if k == -d || (k != d && frontier[offset + k - 1] < frontier[offset + k + 1]) {
          x = frontier[offset + k + 1]  // step down: an insertion
        } else {
          x = frontier[offset + k - 1] + 1  // step right: a deletion
        }
        var y = x - k
        while x < n, y < m, equal(x, y) {
          x += 1
          y += 1
        }
        frontier[offset + k] = x
        if x >= n, y >= m {
          return Self.backtrack(trace: trace, editCount: d, n: n, m: m)
        }
      }
    }
    return nil
  }

  private static func backtrack(trace: [[Int]], editCount: Int, n: Int, m: Int) -> [Anchor] {
    var anchors: [Anchor] = []
    var x = n
    var y = m
    for d in stride(from: editCount, through: 0, by: -1) {
      let row = trace[d]
      // `row[d + k]` holds diagonal k for k in -d...d + 1.
      func at(_ k: Int) -> Int { row[d + k] }
      let k = x - y
      let previousK = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1
      let previousX = d == 0 ? 0 : at(previousK)
      let previousY = d == 0 ? 0 : previousX - previousK
      // The snake: equal elements after the step.
      let snakeStartX = d == 0 ? 0 : (previousK == k + 1 ? previousX : previousX + 1)
      while x > snakeStartX {
        x -= 1
        y -= 1
        anchors.append((x, y))
      }
      x = previousX
      y = previousY
    }
    anchors.reverse()
    return anchors
  }

  /// The longest chain of `pairs` increasing in both components, where `pairs` is sorted by
  /// increasing, distinct `old` indices and the `new` indices are distinct too: the longest
  /// common subsequence of two sequences of unique keys, in O(k log k).
  static func longestIncreasingChain(_ pairs: [Anchor]) -> [Anchor] {
    // Patience sorting: `tails[l]` is the pair index ending the best chain of length l + 1.
    var tails: [Int] = []
    var previous = [Int](repeating: -1, count: pairs.count)
    for (index, pair) in pairs.enumerated() {
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if pairs[tails[middle]].new < pair.new { low = middle + 1 } else { high = middle }
      }
      if low > 0 { previous[index] = tails[low - 1] }
      if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var chain: [Anchor] = []
    var index = tails.last ?? -1
    while index >= 0 {
      chain.append(pairs[index])
      index = previous[index]
    }
    chain.reverse()
    return chain
  }
}
