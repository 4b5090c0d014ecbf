/// A command's interface, written down once and used both to parse arguments and to print help
/// in swift-argument-parser's format (`OVERVIEW:`, `USAGE:`, `ARGUMENTS:`, `OPTIONS:`,
/// `SUBCOMMANDS:`).
public struct CommandSpec: Sendable {
  /// The full command name as typed, e.g. `storeclient send`.
  public var name: String
  /// One sentence saying what the command does.
  public var abstract: String
  /// Optional paragraphs printed after the overview.
  public var discussion: String?
  /// Positional arguments, in order.
  public var arguments: [ArgumentSpec]
  /// Options and flags.
  public var options: [OptionSpec]
  /// Subcommands: name and abstract.
  public var subcommands: [(name: String, abstract: String)]

  /// Describes a command.
  public init(
    name: String, abstract: String, discussion: String? = nil, arguments: [ArgumentSpec] = [],
    options: [OptionSpec] = [], subcommands: [(name: String, abstract: String)] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments
    self.options = options
    self.subcommands = subcommands
  }

  /// The usage line without the `USAGE:` label, e.g. `storeclient get [--compact] <scope>`.
  ///
  /// As in swift-argument-parser, every option is named while there are at most twelve of
  /// them; past that the optional ones are summed up as `[<options>]`, so that the line still
  /// shows what must be typed.
  public var usage: String { usageParts.joined(separator: " ") }

  /// The usage line's parts, each of which stays on one line when the line wraps.
  var usageParts: [String] {
    var parts = [name]
    if !subcommands.isEmpty && arguments.isEmpty { parts.append("<subcommand>") }
    let shown = options.filter { !$0.isHiddenFromUsage }
    if shown.count > Self.mostOptionsNamedInUsage {
      parts.append("[<options>]")
    } else {
      for option in shown { parts.append("[\(option.usageFragment)]") }
    }
    for argument in arguments {
      let core = "<\(argument.name)>" + (argument.isRepeating ? " ..." : "")
      parts.append(argument.isOptional ? "[\(core)]" : core)
    }
    return parts
  }

  /// How many options the usage line names before it sums them up as `[<options>]`.
  static let mostOptionsNamedInUsage = 12

  /// The whole `--help` text, laid out for the terminal's width (``TerminalWidth/current(columns:)``).
  public var help: String { help(width: TerminalWidth.current()) }

  /// The whole `--help` text, laid out for a terminal `width` columns wide (at least 40):
  /// paragraphs of the overview are filled to the width, the usage line wraps under the
  /// command's name, and descriptions of options and arguments start in column 27 — on the next
  /// line when the option's names reach into that column, as swift-argument-parser does.
  ///
  /// - Parameter width: The terminal's width in columns (see ``TerminalWidth``).
  public func help(width: Int) -> String {
    let width = max(width, Self.narrowestLayout)
    var lines = Self.fill("OVERVIEW: \(abstract)", width: width, hangingIndent: 0)
    lines.append("")
    if let discussion {
      for paragraph in Self.paragraphs(discussion) {
        for line in paragraph { lines += Self.fill(line, width: width, hangingIndent: 0) }
        lines.append("")
      }
    }
    let usageIndent = "USAGE: ".count + name.count + 1
    var usageParts = usageParts
    usageParts[0] = "USAGE: " + usageParts[0]
    lines += Self.fill(words: usageParts, width: width, hangingIndent: usageIndent)
    lines.append("")
    let column = Self.descriptionColumn
    func rows(_ left: String, _ right: String) -> [String] {
      let text = Self.fill(right, width: width - column, hangingIndent: 0)
      let indent = String(repeating: " ", count: column)
      let label = "  " + left
      var result: [String]
      if label.count <= column - 2 {
        result = [label + String(repeating: " ", count: column - label.count) + text[0]]
      } else {
        result = [label, indent + text[0]]
      }
      result += text.dropFirst().map { indent + $0 }
      return result
    }
    if !arguments.isEmpty {
      lines.append("ARGUMENTS:")
      for argument in arguments { lines += rows("<\(argument.name)>", argument.help) }
      lines.append("")
    }
    lines.append("OPTIONS:")
    for option in options {
      var help = option.help
      if let defaultValue = option.defaultDescription { help += " (default: \(defaultValue))" }
      lines += rows(option.helpFragment, help)
    }
    lines += rows("-h, --help", "Show help information.")
    if !subcommands.isEmpty {
      lines += ["", "SUBCOMMANDS:"]
      for sub in subcommands { lines += rows(sub.name, sub.abstract) }
      lines.append("")
      lines += Self.fill("  See '\(name) help <subcommand>' for detailed help.", width: width, hangingIndent: 2)
    }
    return lines.joined(separator: "\n")
  }

  /// The column (0-based) where descriptions start: swift-argument-parser's 26.
  static let descriptionColumn = 26
  /// The narrowest width laid out; narrower terminals get this layout and wrap it themselves.
  static let narrowestLayout = 40
}

extension CommandSpec {
  /// Splits text written in source (hard-wrapped lines, blank lines between paragraphs) into
  /// paragraphs of logical lines: the lines of a paragraph are joined into one, except lines
  /// that start with a space or a list marker (`- `), which stay lines of their own.
  static func paragraphs(_ text: String) -> [[String]] {
    var paragraphs: [[String]] = []
    var current: [String] = []
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let line = String(raw)
      if line.allSatisfy({ $0 == " " }) {
        if !current.isEmpty { paragraphs.append(current) }
        current = []
      } else if current.isEmpty || line.hasPrefix(" ") || line.hasPrefix("- ") {
        current.append(line)
      } else {
        current[current.count - 1] += " " + line
      }
    }
    if !current.isEmpty { paragraphs.append(current) }
    return paragraphs
  }

  /// Fills text into lines of at most `width` columns, breaking at spaces (a longer word stays
  /// whole); runs of spaces between words become one, leading spaces are kept, and lines after
  /// the first are indented by `hangingIndent`.
  static func fill(_ text: String, width: Int, hangingIndent: Int) -> [String] {
    let leading = String(text.prefix { $0 == " " })
    var words = text.split(separator: " ").map(String.init)
    guard !words.isEmpty else { return [leading] }
    words[0] = leading + words[0]
    return fill(words: words, width: width, hangingIndent: hangingIndent)
  }

  /// Fills words (pieces never broken, spaces and all) into lines of at most `width` columns,
  /// one space apart; lines after the first are indented by `hangingIndent`.
  static func fill(words: [String], width: Int, hangingIndent: Int) -> [String] {
    guard var line = words.first else { return [""] }
    let indent = String(repeating: " ", count: hangingIndent)
    var lines: [String] = []
    for word in words.dropFirst() {
      if line.count + 1 + word.count > width {
        lines.append(line)
        line = indent + word
      } else {
        line += " " + word
      }
    }
    lines.append(line)
    return lines
  }
}

/// A positional argument.
public struct ArgumentSpec: Sendable {
  /// The placeholder shown as `<name>`.
  public var name: String
  /// What it means.
  public var help: String
  /// Whether it may be left out.
  public var isOptional: Bool
  /// Whether it takes every remaining positional value.
  public var isRepeating: Bool

  /// Describes a positional argument.
  public init(_ name: String, help: String, optional: Bool = false, repeating: Bool = false) {
    self.name = name
    self.help = help
    self.isOptional = optional
    self.isRepeating = repeating
  }
}

/// An option that takes a value (`--socket <path>`) or a flag (`--compact`).
public struct OptionSpec: Sendable {
  /// The long name without dashes, e.g. `socket`.
  public var name: String
  /// A one-letter short name, if any.
  public var short: Character?
  /// The value placeholder; `nil` for a flag.
  public var valueName: String?
  /// What it does.
  public var help: String
  /// The default, as shown in help.
  public var defaultDescription: String?
  /// Whether the usage line leaves it out (for rarely used options).
  public var isHiddenFromUsage: Bool

  /// Describes an option taking a value.
  public static func option(
    _ name: String, short: Character? = nil, value: String, help: String, default defaultDescription: String? = nil,
    hiddenFromUsage: Bool = false
  ) -> OptionSpec {
    OptionSpec(
      name: name, short: short, valueName: value, help: help, defaultDescription: defaultDescription,
      isHiddenFromUsage: hiddenFromUsage)
  }

  /// Describes a flag.
  public static func flag(_ name: String, short: Character? = nil, help: String, hiddenFromUsage: Bool = false) -> OptionSpec {
    OptionSpec(
      name: name, short: short, valueName: nil, help: help, defaultDescription: nil,
      isHiddenFromUsage: hiddenFromUsage)
  }

  var usageFragment: String {
    valueName.map { "--\(name) <\($0)>" } ?? "--\(name)"
  }

  var helpFragment: String {
    let names = (short.map { "-\($0), " } ?? "") + "--\(name)"
    return valueName.map { "\(names) <\($0)>" } ?? names
  }
}
