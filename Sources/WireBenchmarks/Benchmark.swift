/// Helpers shared by the benchmark sections.
enum Benchmark {
  /// How many timed runs each measurement takes; the median is reported.
  static let runs = 5

  /// The median over ``runs`` runs of the nanoseconds one call of `body` takes, each run
  /// calling it `iterations` times after one warm-up call.
  static func nanoseconds(iterations: Int, _ body: () -> Void) -> Double {
    body()
    let clock = ContinuousClock()
    var samples: [Double] = []
    for _ in 0..<Self.runs {
      let start = clock.now
      for _ in 0..<iterations { body() }
      let elapsed = start.duration(to: clock.now)
      let nanoseconds =
        Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
      samples.append(nanoseconds / Double(iterations))
    }
    return samples.sorted()[samples.count / 2]
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
