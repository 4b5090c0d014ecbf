import ArgumentParsing
import Remote

/// A `storeclient` subcommand: its interface, how it reads its arguments, and what it does.
protocol ClientCommand: Sendable {
  /// The interface, for parsing and `--help`.
  static var spec: CommandSpec { get }

  /// Whether the command may reach a host on another machine (`--host`, `STOREHOST_HOST`).
  static var reachesOtherMachines: Bool { get }

  /// Reads and validates the parsed arguments.
  ///
  /// - Parameters:
  ///   - arguments: The arguments, parsed against ``spec``.
  ///   - endpoint: The host to talk to (`--socket`, `--host`, `--host-user`, given before or
  ///     after the subcommand, the environment, or the default socket).
  /// - Throws: A ``UsageError`` for a value that is not acceptable.
  init(_ arguments: ParsedArguments, endpoint: HostEndpoint) throws(UsageError)

  /// Runs the command.
  ///
  /// - Parameter console: Where output goes.
  /// - Throws: A ``CommandFailure`` with its message and exit code.
  func run(console: Console) async throws(CommandFailure)
}

extension ClientCommand {
  /// Whether the command may reach a host on another machine (`--host`, `STOREHOST_HOST`);
  /// `true` unless a command says otherwise.
  static var reachesOtherMachines: Bool { true }

  /// Reads the arguments for the host at a socket on this machine.
  ///
  /// - Parameters:
  ///   - arguments: The arguments, parsed against ``spec``.
  ///   - socketPath: The socket path.
  /// - Throws: A ``UsageError`` for a value that is not acceptable.
  init(_ arguments: ParsedArguments, socketPath: String) throws(UsageError) {
    try self.init(arguments, endpoint: .local(socketPath))
  }
}

/// Options shared by every subcommand.
enum CommonOptions {
  /// The options that say where the host is: `--socket`, `--host`, `--host-user`,
  /// `--remote-storeclient` (only `--socket` shows in usage lines).
  static var endpoint: [OptionSpec] { EndpointOptions.all }

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
