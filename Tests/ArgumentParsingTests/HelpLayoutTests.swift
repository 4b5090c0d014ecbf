import ArgumentParsing
import Testing

/// Help is laid out as swift-argument-parser lays it out, at any terminal width: paragraphs
/// filled to the width, the usage line wrapped under the command's name (or summed up past
/// twelve options), descriptions in one column.
@Suite struct HelpLayoutTests {
  /// A command like storehost: a discussion hard-wrapped in source, long option names and
  /// more options than a usage line names.
  static let daemon = CommandSpec(
    name: "daemon",
    abstract: "Serve a store to other processes over a Unix socket.",
    discussion: """
      Runs in the foreground until SIGTERM or SIGINT, then says bye to every client, removes
      the socket file and exits 0.

      Logs one line per event on stderr.
      - one list item
      - another
      """,
    options: (1...13).map { index in
      .option(
        index == 3 ? "a-rather-long-option-name" : "option\(index)", value: "value",
        help: "What option \(index) does, told at a length that needs more than one line of help.")
    } + [.flag("version", help: "Show the version.", hiddenFromUsage: true)])

  static let small = CommandSpec(
    name: "tool run",
    abstract: "Run.",
    arguments: [ArgumentSpec("scope", help: "The scope.")],
    options: (1...6).map { .option("option-number-\($0)", value: "value", help: "Option \($0).") })

  @Test(arguments: [80, 50])
  func noLineIsWiderThanTheTerminal(width: Int) {
    for spec in [Self.daemon, Self.small] {
      for line in spec.help(width: width).split(separator: "\n") {
        #expect(line.count <= width || !line.trimmingPrefixSpaces.contains(" "), "\(line)")
      }
    }
  }

  @Test(arguments: [80, 50])
  func paragraphsAreFilledNotBrokenWhereTheSourceWrapped(width: Int) {
    let help = Self.daemon.help(width: width)
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // The source breaks after "removes": filled text never leaves it alone on a line.
    #expect(!lines.contains("removes"))
    #expect(help.contains("removes the socket") || help.contains("removes\nthe socket"))
    let filled = lines.firstIndex { $0.hasPrefix("Runs in the foreground") }!
    #expect(lines[filled].count > width - 12, "a filled line uses the width: \(lines[filled])")
    // Paragraphs stay apart, list items stay lines of their own.
    #expect(help.contains("exits 0.\n\nLogs one line per event on stderr.\n- one list item\n- another\n"))
  }

  @Test(arguments: [80, 50])
  func descriptionsStartInOneColumn(width: Int) {
    let help = Self.daemon.help(width: width)
    let options = help.split(separator: "OPTIONS:\n")[1].split(separator: "\n")
    for line in options {
      if line.hasPrefix("  -") {
        // Names and description on one line, or names alone when they reach column 24.
        if line.count > 26 && !line.hasPrefix("  --a-rather-long-option-name") {
          #expect(line.dropFirst(26).first != " ", "description in column 27: \(line)")
          #expect(line.prefix(26).hasSuffix(" "), "\(line)")
        }
      } else {
        #expect(line.hasPrefix(String(repeating: " ", count: 26)), "continuation: \(line)")
        #expect(line.dropFirst(26).first != " ", "continuation in column 27: \(line)")
      }
    }
    #expect(help.contains("  --a-rather-long-option-name <value>\n" + String(repeating: " ", count: 26) + "What option 3"))
  }

  @Test func usageNamesEveryOptionUpToTwelveAndWrapsUnderTheName() {
    let help = Self.small.help(width: 80)
    #expect(help.contains("""
      USAGE: tool run [--option-number-1 <value>] [--option-number-2 <value>]
                      [--option-number-3 <value>] [--option-number-4 <value>]
                      [--option-number-5 <value>] [--option-number-6 <value>] <scope>
      """))
    #expect(Self.daemon.usage == "daemon [<options>]")
  }
}

@Suite struct TerminalWidthTests {
  @Test func columnsWinsThenTheTerminalThenEighty() {
    #expect(TerminalWidth.current(columns: "50") == 50)
    // Not a number, or not positive: the terminal's width, or 80 when output is not a terminal.
    let fallback = TerminalWidth.terminalColumns(of: 1) ?? 80
    #expect(TerminalWidth.current(columns: "wide") == fallback)
    #expect(TerminalWidth.current(columns: "0") == fallback)
    // A descriptor that is not a terminal has no width.
    #expect(TerminalWidth.terminalColumns(of: -1) == nil)
  }
}

extension Substring {
  fileprivate var trimmingPrefixSpaces: Substring { drop { $0 == " " } }
}
