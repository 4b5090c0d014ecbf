/// Arguments parsed against a ``CommandSpec``.
public struct ParsedArguments: Sendable {
  /// Values of options, by long name; repeated options keep every value in order.
  public var values: [String: [String]] = [:]
  /// Flags that were given, by long name.
  public var flags: Set<String> = []
  /// Positional values, in order.
  public var positionals: [String] = []
  /// Whether `-h`/`--help` was given.
  public var wantsHelp = false

  /// The last value given for an option.
  public func value(_ name: String) -> String? { values[name]?.last }

  /// Whether a flag was given.
  public func flag(_ name: String) -> Bool { flags.contains(name) }

  /// Parses an option's value as an integer in a range, or explains what is wrong.
  public func integer(_ name: String, in range: ClosedRange<Int>, radix: Int = 10) throws(UsageError) -> Int? {
    guard let text = value(name) else { return nil }
    guard let number = Int(text, radix: radix), range.contains(number) else {
      let kind = radix == 8 ? "an octal number" : "an integer"
      throw UsageError("The value '\(text)' is invalid for '--\(name)': expected \(kind) from \(String(range.lowerBound, radix: radix)) to \(String(range.upperBound, radix: radix))")
    }
    return number
  }
}

extension ParsedArguments {
  /// The value of option `name` as a number of bytes, or `nil` when it was not given: a plain
  /// integer, or one followed by `K`, `M` or `G` (KiB, MiB, GiB; `KiB`, `MiB`, `GiB` and a
  /// trailing `B` are accepted too), within `range`.
  public func byteCount(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
    guard let text = value(name) else { return nil }
    guard let bytes = Self.bytes(text), range.contains(bytes) else {
      throw UsageError(
        "The value '\(text)' is invalid for '--\(name)': expected a number of bytes from "
          + "\(range.lowerBound) to \(range.upperBound), optionally with K, M or G (e.g. 64M)")
    }
    return bytes
  }

  /// `text` read as bytes with an optional binary suffix; `nil` when it is not such a number or
  /// does not fit.
  static func bytes(_ text: String) -> Int? {
    var digits = Substring(text)
    var unit = 1
    for (suffixes, scale) in [(["GiB", "GB", "G"], 1 << 30), (["MiB", "MB", "M"], 1 << 20), (["KiB", "KB", "K"], 1 << 10)] {
      if let suffix = suffixes.first(where: { digits.uppercased().hasSuffix($0.uppercased()) }) {
        digits = digits.dropLast(suffix.count)
        unit = scale
        break
      }
    }
    if unit == 1, digits.uppercased().hasSuffix("B") { digits = digits.dropLast() }
    guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let number = Int(digits) else {
      return nil
    }
    let (bytes, overflow) = number.multipliedReportingOverflow(by: unit)
    return overflow ? nil : bytes
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { self >= "0" && self <= "9" }
}

/// A mistake in how a command was invoked: printed as `Error: …`, the usage line and a pointer
/// to `--help`, with exit code 64 (`EX_USAGE`).
public struct UsageError: Error, Sendable, CustomStringConvertible {
  /// What was wrong, in swift-argument-parser's wording.
  public var message: String

  /// Describes a usage mistake.
  public init(_ message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}

extension CommandSpec {
  /// Parses `arguments` (without the program and subcommand names).
  ///
  /// Accepts `--name value`, `--name=value`, `-x value`, flags, `--` to end options, and `-` as
  /// a positional value (conventionally standard input).
  public func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var index = 0
    var onlyPositionals = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      if argument == "-h" || argument == "--help" {
        parsed.wantsHelp = true
        continue
      }
      var name: String
      var inlineValue: String?
      let spec: OptionSpec?
      if argument.hasPrefix("--") {
        name = String(argument.dropFirst(2))
        if let equals = name.firstIndex(of: "=") {
          inlineValue = String(name[name.index(after: equals)...])
          name = String(name[..<equals])
        }
        spec = options.first { $0.name == name }
      } else {
        let letter = argument.dropFirst().first
        spec = argument.count == 2 ? options.first { $0.short == letter } : nil
        name = spec?.name ?? String(argument.dropFirst())
      }
      guard let spec else {
        throw UsageError("Unknown option '\(argument)'")
      }
      if spec.valueName != nil {
        if let inlineValue {
          parsed.values[spec.name, default: []].append(inlineValue)
        } else if index < arguments.count, !arguments[index].hasPrefix("--") || arguments[index] == "-" {
          parsed.values[spec.name, default: []].append(arguments[index])
          index += 1
        } else {
          throw UsageError("Missing value for '\(spec.usageFragment)'")
        }
      } else {
        guard inlineValue == nil else {
          throw UsageError("The flag '--\(spec.name)' does not take a value")
        }
        parsed.flags.insert(spec.name)
      }
    }
    if parsed.wantsHelp { return parsed }
    let required = self.arguments.filter { !$0.isOptional }
    if parsed.positionals.count < required.count {
      throw UsageError("Missing expected argument '<\(required[parsed.positionals.count].name)>'")
    }
    if !(self.arguments.last?.isRepeating ?? false), parsed.positionals.count > self.arguments.count {
      throw UsageError("Unexpected argument '\(parsed.positionals[self.arguments.count])'")
    }
    return parsed
  }

  /// The text printed on stderr for a usage error, its usage line wrapped for the terminal on
  /// standard error (``TerminalWidth/forStandardError()``).
  public func errorText(_ error: UsageError) -> String {
    self.errorText(error, width: TerminalWidth.forStandardError())
  }

  /// The text printed on stderr for a usage error, the usage line wrapped to `width` columns
  /// under the command's name, as in `--help`.
  ///
  /// - Parameters:
  ///   - error: The usage error.
  ///   - width: The width to wrap the usage line to (at least 40 is laid out).
  /// - Returns: `Error: …`, the usage, and where to read more, each on its own line(s).
  public func errorText(_ error: UsageError, width: Int) -> String {
    var parts = usageParts
    parts[0] = "Usage: " + parts[0]
    let usage = Self.fill(
      words: parts, width: max(width, Self.narrowestLayout), hangingIndent: "Usage: ".count + name.count + 1)
    return "Error: \(error.message)\n" + usage.joined(separator: "\n")
      + "\n  See '\(name) --help' for more information.\n"
  }
}
