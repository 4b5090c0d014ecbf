extension Task where Success == Never, Failure == Never {
  /// Suspends the current task many times in a row, giving other tasks on the cooperative pool a
  /// chance to run (as swift-concurrency-extras' `megaYield`, which TCA exports).
  ///
  /// Tests that must let an effect reach a suspension point use it; prefer a `TestClock` or an
  /// awaited `receive` where possible, since yielding is a heuristic and not a guarantee.
  ///
  /// - Parameter count: How many times to yield.
  public static func megaYield(count: Int = 20) async {
    for _ in 0..<count {
      await Task<Void, Never>.detached(priority: .background) { await Task.yield() }.value
    }
  }
}
