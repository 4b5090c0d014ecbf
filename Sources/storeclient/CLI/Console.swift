import ArgumentParsing

/// Where the tool's output goes: whole lines, each written at once.
struct Console: Sendable {
  /// Whether standard output is a terminal (pretty JSON, progress bars).
  var outputIsTerminal: Bool
  /// Whether standard error is a terminal.
  var errorIsTerminal: Bool
  /// The width of the terminal on standard error (`COLUMNS` when set), for lines redrawn in
  /// place: one wider than the terminal wraps, and each redraw leaves a line behind.
  var errorColumns: Int = TerminalWidth.standard

  /// The process's own standard output and error.
  static let standard = Console(
    outputIsTerminal: Platform.isTerminal(Platform.standardOutput),
    errorIsTerminal: Platform.isTerminal(Platform.standardError),
    errorColumns: TerminalWidth.current(
      columns: TerminalWidth.terminalColumns(of: Platform.standardError).map(String.init)))

  /// Prints a line on standard output.
  func print(_ line: String) {
    Platform.writeText(line + "\n", to: Platform.standardOutput)
  }

  /// Prints a line on standard error.
  func note(_ line: String) {
    Platform.writeText(line + "\n", to: Platform.standardError)
  }

  /// Writes text on standard error as is (for progress bars redrawn with `\r`).
  func noteRaw(_ text: String) {
    Platform.writeText(text, to: Platform.standardError)
  }
}
