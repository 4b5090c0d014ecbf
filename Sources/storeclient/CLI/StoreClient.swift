import ArgumentParsing
import Remote
import Wire

/// The `storeclient` command: global options, subcommand dispatch, help and exit codes.
enum StoreClient {
  /// The tool's version.
  static let version = PackageVersion.current

  /// The subcommands, in the order help lists them.
  static let commands: [any ClientCommand.Type] = [
    ScopesCommand.self, ActionsCommand.self, GetCommand.self, WatchCommand.self, SendCommand.self,
    LogCommand.self,
    DiffCommand.self, PingCommand.self, BenchCommand.self, InspectCommand.self, MetricsCommand.self,
    DialStdioCommand.self,
  ]

  /// The root command's interface.
  static var spec: CommandSpec {
    CommandSpec(
      name: "storeclient",
      abstract: "Drive, watch and script a storehost daemon over its Unix socket.",
      discussion: """
        A host on another machine is reached through ssh: --host ssh://[user@]machine[:port][/path] \
        (or STOREHOST_HOST) runs 'storeclient dial-stdio' there and speaks over ssh's pipes; \
        STOREHOST_SSH_COMMAND gives the ssh command and its options (e.g. 'ssh -F ~/.ssh/work'). \
        Every client checks who serves the socket: your own user, root, or a --host-user.
        """,
      options: EndpointOptions.all.map { $0.hiddenFromUsage() } + [
        .flag("version", help: "Show the version.", hiddenFromUsage: true)
      ],
      subcommands: commands.map { ($0.spec.name.split(separator: " ").last.map(String.init) ?? "", $0.spec.abstract) })
  }

  /// Runs the tool with `arguments` (without the program name) and returns the exit code.
  ///
  /// - Parameters:
  ///   - arguments: The arguments.
  ///   - console: Where output goes.
  ///   - environment: The environment variables that say where the host is (default: this
  ///     process's).
  static func main(
    _ arguments: [String], console: Console,
    environment: [String: String] = StoreClient.processEnvironment()
  ) async -> ExitCode {
    var globalArguments: [String] = []
    var index = 0
    // Global options come before the subcommand: the endpoint options, help and version.
    while index < arguments.count, arguments[index].hasPrefix("-"), arguments[index] != "-" {
      let argument = arguments[index]
      index += 1
      switch argument {
      case "-h", "--help":
        console.print(spec.help)
        return .success
      case "--version":
        console.print("storeclient \(version)")
        return .success
      default:
        globalArguments.append(argument)
        // An option's value is the next argument unless written `--name=value`.
        let takesValue = EndpointOptions.names.contains(String(argument.dropFirst(2)))
        if takesValue && index < arguments.count {
          globalArguments.append(arguments[index])
          index += 1
        }
      }
    }
    let global: ParsedArguments
    do {
      global = try CommandSpec(name: "storeclient", abstract: "", options: EndpointOptions.all)
        .parse(globalArguments)
    } catch {
      return usageFailure(spec, error, console)
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
      return usageFailure(spec, unknownCommand(name), console)
    }
    return await run(command, rest, global: global, environment: environment, console: console)
  }

  /// The environment variables ``main(_:console:environment:)`` reads, from this process.
  static func processEnvironment() -> [String: String] {
    var environment: [String: String] = [:]
    for name in EndpointOptions.environmentNames {
      if let value = Platform.environment(name) { environment[name] = value }
    }
    return environment
  }

  private static func command(named name: String) -> (any ClientCommand.Type)? {
    commands.first { $0.spec.name == "storeclient \(name)" }
  }

  /// The subcommands' names, in the order help lists them.
  static var commandNames: [String] {
    commands.map { String($0.spec.name.dropFirst("storeclient ".count)) }
  }

  /// The error for a word that names no command: the nearest one when it is close, and the list.
  static func unknownCommand(_ name: String) -> UsageError {
    let ordered = CaseSuggestions.ordered(commandNames, for: name)
    var message = "Unknown command '\(name)'"
    if let nearest = ordered.nearest { message += "; did you mean '\(nearest)'?" }
    return UsageError(message + "\nThe commands: \(commandNames.joined(separator: ", "))")
  }

  private static func help(_ arguments: [String], console: Console) -> ExitCode {
    guard let name = arguments.first else {
      console.print(spec.help)
      return .success
    }
    guard let command = command(named: name), arguments.count == 1 else {
      if command(named: name) == nil { return usageFailure(spec, unknownCommand(name), console) }
      return usageFailure(spec, UsageError("Unexpected argument '\(arguments[1])'"), console)
    }
    console.print(command.spec.help)
    return .success
  }

  private static func run(
    _ command: any ClientCommand.Type, _ arguments: [String], global: ParsedArguments,
    environment: [String: String], console: Console
  ) async -> ExitCode {
    let instance: any ClientCommand
    do {
      let parsed = try command.spec.parse(arguments)
      if parsed.wantsHelp {
        console.print(command.spec.help)
        return .success
      }
      // A command that only works on this machine (dial-stdio, run by ssh on the host's
      // machine) ignores a STOREHOST_HOST its environment may carry; `--host` it refuses.
      let endpoint = try EndpointOptions.endpoint(
        command: parsed, global: global,
        environment: command.reachesOtherMachines
          ? environment : environment.filter { $0.key != "STOREHOST_HOST" })
      instance = try command.init(parsed, endpoint: endpoint)
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
    var text = spec.errorText(error, width: console.errorColumns)
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
