/// The live progress of a bench: a bar redrawn in place on a terminal, a line per second
/// otherwise (both on standard error).
///
/// A line redrawn with `\r` must fit the terminal: one that wraps leaves a line behind at every
/// redraw. So the line is fitted to the width — the bar narrows first, then the figures that
/// matter least give way — as `redis-benchmark` and `cargo` keep theirs to one row.
struct ProgressDisplay: Sendable {
  var options: BenchOptions
  var console: Console

  /// How often to update.
  var period: Duration { self.console.errorIsTerminal ? .milliseconds(200) : .seconds(1) }

  func show(_ progress: BenchRun.Progress) {
    guard self.console.errorIsTerminal else {
      self.console.note("bench: " + Self.figures(progress).map(\.text).joined(separator: "  "))
      return
    }
    let line = Self.line(progress, fraction: fraction(progress), columns: self.console.errorColumns)
    self.console.noteRaw("\r\u{1B}[K" + line)
  }

  func clear() {
    if self.console.errorIsTerminal { self.console.noteRaw("\r\u{1B}[K") }
  }

  /// How far the run is, from 0 to 1.
  func fraction(_ progress: BenchRun.Progress) -> Double {
    switch self.options.length {
    case .actions(let count): Double(progress.confirmed) / Double(max(1, count * self.options.clients))
    case .duration(let seconds): progress.elapsedSeconds / seconds
    }
  }

  /// The figures in the order shown, each with how much it matters (higher stays longer):
  /// time, acknowledged actions, the rate, and errors (which outrank everything once any).
  static func figures(_ progress: BenchRun.Progress) -> [(text: String, rank: Int)] {
    let rate = progress.elapsedSeconds > 0 ? Double(progress.confirmed) / progress.elapsedSeconds : 0
    return [
      ("\(Durations.fixed(progress.elapsedSeconds, 1)) s", 0),
      ("\(Durations.grouped(progress.confirmed)) acknowledged", 3),
      ("\(Durations.grouped(Int(rate))) actions/s", 2),
      ("errors \(progress.errors)", progress.errors > 0 ? 4 : 1),
    ]
  }

  /// The progress line for a terminal `columns` wide, at most `columns - 1` characters (the
  /// last column is left free: writing into it puts some terminals in a pending wrap).
  ///
  /// The widest form is a 30-cell bar, the percentage and every figure; narrower terminals get
  /// a bar of down to 10 cells, then no bar, then fewer figures (the time first, a non-zero
  /// error count last), and at last the percentage alone.
  static func line(_ progress: BenchRun.Progress, fraction: Double, columns: Int) -> String {
    let limit = max(1, columns - 1)
    let percent = "\(Int(min(1, max(0, fraction)) * 100))%"
    var figures = figures(progress)
    func bar(_ cells: Int) -> String {
      let filled = min(cells, max(0, Int((fraction * Double(cells)).rounded(.down))))
      return "[" + String(repeating: "█", count: filled) + String(repeating: "·", count: cells - filled) + "] "
    }
    while true {
      let text = ([percent] + figures.map(\.text)).joined(separator: "  ")
      // The bar takes what is left, between 10 and 30 cells ("[", "] " around them).
      let room = limit - text.count - 3
      if room >= 10 { return bar(min(30, room)) + text }
      if text.count <= limit { return text }
      guard let least = figures.indices.min(by: { figures[$0].rank < figures[$1].rank }) else {
        return String(percent.prefix(limit))
      }
      figures.remove(at: least)
    }
  }
}
