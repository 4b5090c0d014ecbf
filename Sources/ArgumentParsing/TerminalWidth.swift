// The module's only contact with the C library. Darwin first: Tests/DarwinStandIn type-checks
// the Darwin branch on Linux.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// The width, in columns, that help and progress output are laid out for.
public enum TerminalWidth {
  /// The width assumed when nothing says otherwise, as swift-argument-parser assumes.
  public static let standard = 80

  /// The width to lay out for: `COLUMNS` when it holds a positive number (a user's explicit
  /// choice, and what a test sets), else the width of the terminal on standard output, else
  /// ``standard``.
  ///
  /// - Parameter columns: A value to use instead of the `COLUMNS` variable's (for tests).
  public static func current(columns: String? = nil) -> Int {
    let variable = columns ?? getenv("COLUMNS").map { String(cString: $0) }
    if let variable, let value = Int(variable), value > 0 { return value }
    return terminalColumns(of: 1) ?? standard
  }

  /// The width to lay error messages out for: `COLUMNS` when set, else the width of the
  /// terminal on standard error, else ``standard``.
  public static func forStandardError() -> Int {
    if let variable = getenv("COLUMNS").map({ String(cString: $0) }), let value = Int(variable),
      value > 0
    {
      return value
    }
    return terminalColumns(of: 2) ?? standard
  }

  /// The width of the terminal on `descriptor`, or `nil` when it is not a terminal.
  public static func terminalColumns(of descriptor: Int32) -> Int? {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }
}
