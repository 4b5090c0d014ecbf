import ArgumentParsing
import Remote

/// A `storeclient` subcommand: its interface, how it reads its arguments, and what it does.
protocol ClientCommand: Sendable {
  /// The interface, for parsing and `--help`.
  static var spec: CommandSpec { get }

  /// Reads and validates the parsed arguments.
  ///
  /// - Parameters:
  ///   - arguments: The arguments, parsed against ``spec``.
  ///   - socketPath: The socket path (`--socket`, given before or after the subcommand, or the
  ///     default).
  /// - Throws: A ``UsageError`` for a value that is not acceptable.
  init(_ arguments: ParsedArguments, socketPath: String) throws(UsageError)

  /// Runs the command.
  ///
  /// - Parameter console: Where output goes.
  /// - Throws: A ``CommandFailure`` with its message and exit code.
  func run(console: Console) async throws(CommandFailure)
}

/// Options shared by every subcommand.
enum CommonOptions {
  /// `--socket <path>`, with the same default as `storehost`.
  static var socket: OptionSpec {
    .option(
      "socket", value: "path", help: "The socket file of the host to talk to.",
      default:
        "$STOREHOST_SOCKET, else $XDG_RUNTIME_DIR/storehost.sock, else /tmp/storehost-<uid>.sock")
  }

  /// The name sent to the host in `hello`.
  static let clientName = "storeclient/\(StoreClient.version)"
}

extension ParsedArguments {
  /// Parses an option's value as a decimal number of seconds in a range.
  func seconds(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
    try self.number(name, in: range, expected: "a number of seconds")
  }

  /// Parses an option's value as a decimal number in a range; `expected` says what it is.
  func number(
    _ name: String, in range: ClosedRange<Double>, expected: String = "a number"
  ) throws(UsageError) -> Double? {
    guard let text = self.value(name) else { return nil }
    guard let value = Double(text), value.isFinite, range.contains(value) else {
      throw UsageError(
        "The value '\(text)' is invalid for '--\(name)': expected \(expected) from "
          + "\(Self.trim(range.lowerBound)) to \(Self.trim(range.upperBound))")
    }
    return value
  }

  /// Parses an option's value as one of `choices`.
  func choice(_ name: String, valueName: String, in choices: [String]) throws(UsageError) -> String? {
    guard let text = self.value(name) else { return nil }
    guard choices.contains(text) else {
      let list = choices.map { "'\($0)'" }
      let expected =
        list.count == 2
        ? "\(list[0]) or \(list[1])"
        : list.dropLast().joined(separator: ", ") + " or " + list[list.count - 1]
      throw UsageError("The value '\(text)' is invalid for '--\(name) <\(valueName)>': expected \(expected)")
    }
    return text
  }

  private static func trim(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}
