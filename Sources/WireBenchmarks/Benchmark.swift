#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Helpers shared by the benchmark sections.
///
/// Times are the calling thread's CPU time, not wall time: the benchmark machines are shared,
/// and CPU time is far less disturbed by other processes competing for the cores.
enum Benchmark {
  /// How many timed runs each measurement takes; the median is reported.
  static let runs = 5

  /// The median over ``runs`` runs of the nanoseconds one call of `body` takes, each run
  /// calling it `iterations` times after one warm-up call.
  static func nanoseconds(iterations: Int, _ body: () -> Void) -> Double {
    body()
    var samples: [Double] = []
    for _ in 0..<Self.runs {
      let start = Self.threadCPUNanoseconds()
      for _ in 0..<iterations { body() }
      samples.append(Double(Self.threadCPUNanoseconds() - start) / Double(iterations))
    }
    return samples.sorted()[samples.count / 2]
  }

  /// CPU time consumed by the calling thread so far.
  static func threadCPUNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
  }

  /// Prints one result line: a label, a figure and its unit.
  static func report(_ label: String, _ value: Double, _ unit: String, note: String = "") {
    let figure = value >= 100 ? String(Int(value.rounded())) : String(Double(Int(value * 10)) / 10)
    let padded = label + String(repeating: " ", count: max(0, 52 - label.count))
    print("\(padded) \(String(repeating: " ", count: max(0, 10 - figure.count)))\(figure) \(unit)"
      + (note.isEmpty ? "" : "  \(note)"))
  }
}

/// Keeps the optimizer from discarding a benchmark's result.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}
