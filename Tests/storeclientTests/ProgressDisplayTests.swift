import Testing

@testable import storeclient

/// The bench's live line is redrawn in place, so it must fit the terminal at any width.
@Suite struct ProgressDisplayTests {
  static let running = BenchRun.Progress(elapsedSeconds: 12.34, confirmed: 1_234_567, errors: 0)
  static let failing = BenchRun.Progress(elapsedSeconds: 12.34, confirmed: 1_234_567, errors: 3)

  @Test(arguments: [200, 120, 80, 75, 60, 40, 30, 20, 8, 2])
  func theLineFitsTheTerminal(columns: Int) {
    for progress in [Self.running, Self.failing] {
      let line = ProgressDisplay.line(progress, fraction: 0.42, columns: columns)
      #expect(line.count < columns || (columns <= 2 && line.count <= 1), "\(columns): \(line)")
      #expect(columns < 5 || line.contains("42%"), "\(columns): \(line)")
      #expect(!line.contains("\n"))
    }
  }

  @Test func aWideTerminalGetsTheFullBarAndEveryFigure() {
    let line = ProgressDisplay.line(Self.running, fraction: 0.5, columns: 120)
    #expect(line == "[" + String(repeating: "█", count: 15) + String(repeating: "·", count: 15)
      + "] 50%  12.3 s  1,234,567 acknowledged  100,045 actions/s  errors 0")
  }

  @Test func aNarrowTerminalGetsAShorterBarThenFewerFigures() {
    // 80 columns: a narrower bar, every figure.
    let eighty = ProgressDisplay.line(Self.running, fraction: 0.5, columns: 80)
    #expect(eighty.hasPrefix("[█") && eighty.hasSuffix("100,045 actions/s  errors 0"), "\(eighty)")
    // 40 columns: no room for a bar beside every figure; the time goes first.
    let forty = ProgressDisplay.line(Self.running, fraction: 0.5, columns: 40)
    #expect(!forty.contains(" s  ") && forty.contains("1,234,567 acknowledged"), "\(forty)")
    // Errors, once there are any, stay when everything else but the percentage has gone.
    let narrow = ProgressDisplay.line(Self.failing, fraction: 0.5, columns: 20)
    #expect(narrow == "50%  errors 3", "\(narrow)")
  }
}
