import ArgumentParsing
import Remote

/// The `storeclient` command: global options, subcommand dispatch, help and exit codes.
enum StoreClient {
  /// The tool's version.
  static let version = "1.0.0"

  /// The subcommands, in the order help lists them.
  static let commands: [any ClientCommand.Type] = [
    ScopesCommand.self, GetCommand.self, WatchCommand.self, SendCommand.self, LogCommand.self,
    DiffCommand.self, PingCommand.self, BenchCommand.self, InspectCommand.self,
  ]

  /// The root command's interface.
  static var spec: CommandSpec {
    CommandSpec(
      name: "storeclient",
      abstract: "Drive, watch and script a storehost daemon over its Unix socket.",
      options: [
        CommonOptions.socket.hiddenFromUsage(),
        .flag("version", help: "Show the version.", hiddenFromUsage: true),
      ],
      subcommands: commands.map { ($0.spec.name.split(separator: " ").last.map(String.init) ?? "", $0.spec.abstract) })
  }

  /// Runs the tool with `arguments` (without the program name) and returns the exit code.
  static func main(_ arguments: [String], console: Console) async -> ExitCode {
    var socketPath: String?
    var index = 0
    // Global options come before the subcommand.
    while index < arguments.count, arguments[index].hasPrefix("-"), arguments[index] != "-" {
      let argument = arguments[index]
      index += 1
      switch argument {
      case "-h", "--help":
        console.print(spec.help)
        return .success
      case "--version":
        console.print(version)
        return .success
      case "--socket":
        guard index < arguments.count else {
          return usageFailure(spec, UsageError("Missing value for '--socket <path>'"), console)
        }
        socketPath = arguments[index]
        index += 1
      case let other where other.hasPrefix("--socket="):
        socketPath = String(other.dropFirst("--socket=".count))
      default:
        return usageFailure(spec, UsageError("Unknown option '\(argument)'"), console)
      }
    }
    guard index < arguments.count else {
      console.print(spec.help)
      return .success
    }
    let name = arguments[index]
    let rest = Array(arguments[(index + 1)...])
    if name == "help" {
      return help(rest, console: console)
    }
    guard let command = command(named: name) else {
      return usageFailure(spec, UsageError("Unexpected argument '\(name)'"), console)
    }
    return await run(command, rest, socketPath: socketPath, console: console)
  }

  private static func command(named name: String) -> (any ClientCommand.Type)? {
    commands.first { $0.spec.name == "storeclient \(name)" }
  }

  private static func help(_ arguments: [String], console: Console) -> ExitCode {
    guard let name = arguments.first else {
      console.print(spec.help)
      return .success
    }
    guard let command = command(named: name), arguments.count == 1 else {
      let bad = command(named: name) == nil ? name : arguments[1]
      return usageFailure(spec, UsageError("Unexpected argument '\(bad)'"), console)
    }
    console.print(command.spec.help)
    return .success
  }

  private static func run(
    _ command: any ClientCommand.Type, _ arguments: [String], socketPath: String?,
    console: Console
  ) async -> ExitCode {
    let instance: any ClientCommand
    do {
      let parsed = try command.spec.parse(arguments)
      if parsed.wantsHelp {
        console.print(command.spec.help)
        return .success
      }
      instance = try command.init(
        parsed, socketPath: parsed.value("socket") ?? socketPath ?? SocketPath.default)
    } catch {
      return usageFailure(command.spec, error, console)
    }
    do {
      try await instance.run(console: console)
      return .success
    } catch {
      console.note("Error: \(error.message)")
      return error.exitCode
    }
  }

  private static func usageFailure(
    _ spec: CommandSpec, _ error: UsageError, _ console: Console
  ) -> ExitCode {
    var text = spec.errorText(error)
    if text.hasSuffix("\n") { text.removeLast() }
    console.note(text)
    return .usage
  }
}

extension OptionSpec {
  /// The same option, left out of the usage line.
  func hiddenFromUsage() -> OptionSpec {
    var copy = self
    copy.isHiddenFromUsage = true
    return copy
  }
}
