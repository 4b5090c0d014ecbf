import ArgumentParsing
import Remote
import Testing
import Wire

@testable import storeclient

@Suite struct ArgumentTests {
  private func usage<C: ClientCommand>(_ command: C.Type, _ arguments: [String]) -> String? {
    do {
      _ = try C(try C.spec.parse(arguments), socketPath: "/tmp/x.sock")
      return nil
    } catch {
      return error.message
    }
  }

  @Test func sendTakesJSONOrADashAndExplainsBadJSON() throws {
    let send = try SendCommand(try SendCommand.spec.parse(["counter", #"{"set":{"_0":5}}"#]), socketPath: "/s")
    guard case .action(let action) = send.input else {
      Issue.record("expected an action")
      return
    }
    #expect(action == J(#"{"set":{"_0":5}}"#) && send.wait && send.scope == "counter" && send.endpoint == .local("/s"))
    let stdin = try SendCommand(try SendCommand.spec.parse(["counter", "-", "--no-wait"]), socketPath: "/s")
    guard case .standardInput = stdin.input else {
      Issue.record("'-' did not select standard input")
      return
    }
    #expect(!stdin.wait)
    #expect(usage(SendCommand.self, ["counter", "{incrementButtonTapped}"])?.hasPrefix("The value for '<action-json>' is not valid JSON: ") == true)
    #expect(usage(SendCommand.self, ["counter"]) == "Missing expected argument '<action-json>'")
  }

  @Test func watchValidatesItsFormatAndTakesSeveralScopes() throws {
    let watch = try WatchCommand(try WatchCommand.spec.parse(["counter", "todos", "--format", "json"]), socketPath: "/s")
    #expect(watch.scopes == ["counter", "todos"] && watch.format == .json && watch.reconnects && watch.stop == .never)
    let once = try WatchCommand(try WatchCommand.spec.parse(["counter", "--once"]), socketPath: "/s")
    #expect(once.stop == .afterSnapshot && !once.reconnects)
    let next = try WatchCommand(try WatchCommand.spec.parse(["counter", "--next-change"]), socketPath: "/s")
    #expect(next.stop == .afterFirstChange && !next.reconnects)
    let noReconnect = try WatchCommand(try WatchCommand.spec.parse(["counter", "--no-reconnect"]), socketPath: "/s")
    #expect(noReconnect.stop == .never && !noReconnect.reconnects)
    #expect(usage(WatchCommand.self, ["counter", "--once", "--next-change"]) == "Use either --once or --next-change, not both")
    #expect(usage(WatchCommand.self, ["counter", "--format", "yaml"]) == "The value 'yaml' is invalid for '--format <format>': expected 'text', 'json' or 'patch'")
    #expect(usage(WatchCommand.self, []) == "Missing expected argument '<scope>'")
  }

  @Test func getAndPingOptions() throws {
    #expect(usage(GetCommand.self, ["counter", "--compact", "--pretty"]) == "Use either --compact or --pretty, not both")
    #expect(try GetCommand(try GetCommand.spec.parse(["counter", "--compact"]), socketPath: "/s").pretty == false)
    #expect(try GetCommand(try GetCommand.spec.parse(["counter"]), socketPath: "/s").pretty == nil)
    #expect(try PingCommand(try PingCommand.spec.parse(["-c", "3"]), socketPath: "/s").count == 3)
    #expect(usage(PingCommand.self, ["--count", "0"]) == "The value '0' is invalid for '--count': expected an integer from 1 to 1000000")
    #expect(usage(ScopesCommand.self, ["extra"]) == "Unexpected argument 'extra'")
  }

  @Test func helpFollowsArgumentParserConventions() {
    let root = StoreClient.spec.help(width: 80)
    #expect(root.hasPrefix("OVERVIEW: Drive, watch and script a storehost daemon over its Unix socket.\n\n"))
    #expect(root.contains("\n\nUSAGE: storeclient <subcommand>\n"))
    for name in ["scopes", "get", "watch", "send", "ping", "bench", "dial-stdio"] {
      #expect(root.contains("\n  \(name) "), "root help lists \(name)")
    }
    #expect(root.hasSuffix("  See 'storeclient help <subcommand>' for detailed help."))
    #expect(SendCommand.spec.usage == "storeclient send [--socket <path>] [--no-wait] <scope> <action-json>")
    for command in StoreClient.commands {
      let help = command.spec.help(width: 80)
      #expect(help.contains("  --socket <path>"), "\(command.spec.name) takes --socket")
      #expect(
        help.contains("  --host <url>") == command.reachesOtherMachines,
        "\(command.spec.name) takes --host unless it only works on this machine")
      #expect(help.contains("  --host-user <name>"), "\(command.spec.name) takes --host-user")
      #expect(help.hasSuffix("  -h, --help              Show help information."))
    }
  }

  @Test func remoteErrorsMapToExitCodes() {
    #expect(CommandFailure(.noHost(path: "/p")).exitCode == .unavailable)
    #expect(CommandFailure(.noHost(path: "/p")).message == "no host is listening on /p — start one with `storehost --socket /p`")
    #expect(CommandFailure(.unknownScope(message: "unknown scope 'x'")).exitCode == .failure)
    #expect(CommandFailure(.disconnected(reason: nil)).exitCode == .failure)
  }
}
