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
  public var usage: String {
    var parts = [name]
    if !subcommands.isEmpty && arguments.isEmpty { parts.append("<subcommand>") }
    for option in options where !option.isHiddenFromUsage {
      parts.append("[\(option.usageFragment)]")
    }
    for argument in arguments {
      let core = "<\(argument.name)>" + (argument.isRepeating ? " ..." : "")
      parts.append(argument.isOptional ? "[\(core)]" : core)
    }
    return parts.joined(separator: " ")
  }

  /// The whole `--help` text.
  public var help: String {
    var lines = ["OVERVIEW: \(abstract)", ""]
    if let discussion {
      for paragraph in discussion.split(separator: "\n", omittingEmptySubsequences: false) {
        lines += Self.wrap(String(paragraph), width: 80, indent: 0)
      }
      lines.append("")
    }
    lines += ["USAGE: \(usage)", ""]
    func row(_ left: String, _ right: String) -> String {
      let column = String(repeating: " ", count: 26)
      let wrapped = Self.wrap(right, width: 80 - 26, indent: 0).joined(separator: "\n" + column)
      let padded =
        left.count < 24
        ? left + String(repeating: " ", count: 24 - left.count) : left + "\n" + column
      return "  " + padded + wrapped
    }
    if !arguments.isEmpty {
      lines.append("ARGUMENTS:")
      for argument in arguments { lines.append(row("<\(argument.name)>", argument.help)) }
      lines.append("")
    }
    lines.append("OPTIONS:")
    for option in options {
      var help = option.help
      if let defaultValue = option.defaultDescription { help += " (default: \(defaultValue))" }
      lines.append(row(option.helpFragment, help))
    }
    lines.append(row("-h, --help", "Show help information."))
    if !subcommands.isEmpty {
      lines += ["", "SUBCOMMANDS:"]
      for sub in subcommands { lines.append(row(sub.name, sub.abstract)) }
      lines += ["", "  See '\(name) help <subcommand>' for detailed help."]
    }
    return lines.joined(separator: "\n")
  }
}

extension CommandSpec {
  /// Breaks text into lines of at most `width` columns at spaces (a longer word stays whole).
  static func wrap(_ text: String, width: Int, indent: Int) -> [String] {
    guard text.count > width else { return [text] }
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      if !line.isEmpty && line.count + 1 + word.count > width {
        lines.append(line)
        line = String(repeating: " ", count: indent) + word
      } else {
        line += (line.isEmpty ? "" : " ") + word
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
