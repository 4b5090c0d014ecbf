#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Helpers shared by the benchmark sections.
///
/// Times are the calling thread's CPU time, not wall time: the benchmark machines are shared,
/// and CPU time is less disturbed by other processes competing for the cores. Each figure is
/// the median of ``runs`` runs, with the best run alongside as a hint of the noise.
enum Benchmark {
  /// How many timed runs each measurement takes.
  static let runs = 5

  /// Nanoseconds per call: the median and the best of the runs.
  struct Sample {
    var median: Double
    var best: Double
  }

  /// Times `body`: ``runs`` runs of `iterations` calls each, after one warm-up call;
  /// `afterEachRun` runs after each run's clock has stopped (and after the warm-up).
  static func measure(
    iterations: Int, afterEachRun: () -> Void = {}, _ body: () -> Void
  ) -> Sample {
    body()
    afterEachRun()
    var samples: [Double] = []
    for _ in 0..<Self.runs {
      let start = Self.threadCPUNanoseconds()
      for _ in 0..<iterations { body() }
      samples.append(Double(Self.threadCPUNanoseconds() - start) / Double(iterations))
      afterEachRun()
    }
    samples.sort()
    return Sample(median: samples[samples.count / 2], best: samples[0])
  }

  /// Two paths timed alternately, each figure in nanoseconds per call.
  struct Comparison {
    /// The median of `a`'s runs.
    var a: Double
    /// The median of `b`'s runs.
    var b: Double
    /// The median over the rounds of each round's `a / b`: both sides of a round ran back to
    /// back, so a change in the machine's load between rounds cancels out.
    var ratio: Double
  }

  /// Times `a` and `b` alternately for `rounds` rounds (after one warm-up call of each), so
  /// that both see the same machine; each round runs `a` `iterations.a` times, then `b`
  /// `iterations.b` times. `afterA` runs after each run of `a`, outside the timing.
  static func compare(
    rounds: Int = 21, iterations: (a: Int, b: Int), _ a: () -> Void, _ b: () -> Void,
    afterA: () -> Void = {}
  ) -> Comparison {
    a()
    afterA()
    b()
    var aSamples: [Double] = []
    var bSamples: [Double] = []
    var ratios: [Double] = []
    for _ in 0..<rounds {
      let aStart = Self.threadCPUNanoseconds()
      for _ in 0..<iterations.a { a() }
      let aTime = Double(Self.threadCPUNanoseconds() - aStart) / Double(iterations.a)
      afterA()
      let bStart = Self.threadCPUNanoseconds()
      for _ in 0..<iterations.b { b() }
      let bTime = Double(Self.threadCPUNanoseconds() - bStart) / Double(iterations.b)
      aSamples.append(aTime)
      bSamples.append(bTime)
      ratios.append(aTime / bTime)
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    return Comparison(a: median(aSamples), b: median(bSamples), ratio: median(ratios))
  }

  /// CPU time consumed by the calling thread so far.
  static func threadCPUNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
  }

  /// Prints a per-call time, in ns below 100 µs and in ms above.
  static func reportTime(_ label: String, _ sample: Sample) {
    if sample.median >= 100_000 {
      Self.report(label, sample.median / 1e6, sample.best / 1e6, "ms")
    } else {
      Self.report(label, sample.median, sample.best, "ns")
    }
  }

  /// Prints the throughput of processing `bytes` bytes per call, in MB/s.
  static func reportThroughput(_ label: String, bytes: Int, _ sample: Sample) {
    let megabytes = Double(bytes) / 1e6
    Self.report(label, megabytes / (sample.median / 1e9), megabytes / (sample.best / 1e9), "MB/s")
  }

  private static func report(_ label: String, _ median: Double, _ best: Double, _ unit: String) {
    let padded = label + String(repeating: " ", count: max(0, 54 - label.count))
    print("\(padded) \(Self.figure(median)) \(unit)   (best \(Self.figure(best)))")
  }

  private static func figure(_ value: Double) -> String {
    let text = value >= 100 ? String(Int(value.rounded())) : String(Double(Int(value * 10)) / 10)
    return String(repeating: " ", count: max(0, 7 - text.count)) + text
  }
}

/// Keeps the optimizer from discarding a benchmark's result.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}
