import ArgumentParsing
import Testing

private let send = CommandSpec(
  name: "storeclient send",
  abstract: "Send an action to a scope.",
  arguments: [
    ArgumentSpec("scope", help: "The scope."),
    ArgumentSpec("action-json", help: "The action, or '-'."),
  ],
  options: [
    .option("socket", value: "path", help: "The socket.", default: "/tmp/x.sock"),
    .flag("no-wait", help: "Don't wait for the ack."),
    .option("count", short: "n", value: "n", help: "Times."),
  ])

@Test func parsesOptionsFlagsAndPositionals() throws {
  let parsed = try send.parse(["counter", "--socket", "/a.sock", "--no-wait", "-n", "3", "{}"])
  #expect(parsed.positionals == ["counter", "{}"])
  #expect(parsed.value("socket") == "/a.sock")
  #expect(parsed.flag("no-wait"))
  #expect(try parsed.integer("count", in: 1...10) == 3)
}

@Test func acceptsEqualsFormDoubleDashAndStdinDash() throws {
  let parsed = try send.parse(["--socket=/b.sock", "counter", "--", "-"])
  #expect(parsed.value("socket") == "/b.sock")
  #expect(parsed.positionals == ["counter", "-"])
}

@Test func reportsMistakesInArgumentParserWording() {
  #expect(throws: UsageError.self) { try send.parse(["counter"]) }
  do {
    _ = try send.parse(["counter"])
  } catch {
    #expect(error.message == "Missing expected argument '<action-json>'")
  }
  do {
    _ = try send.parse(["a", "b", "c"])
    Issue.record("an extra argument was accepted")
  } catch {
    #expect(error.message == "Unexpected argument 'c'")
  }
  do {
    _ = try send.parse(["a", "b", "--bogus"])
    Issue.record("an unknown option was accepted")
  } catch {
    #expect(error.message == "Unknown option '--bogus'")
    #expect(send.errorText(error, width: 120) == """
      Error: Unknown option '--bogus'
      Usage: storeclient send [--socket <path>] [--no-wait] [--count <n>] <scope> <action-json>
        See 'storeclient send --help' for more information.

      """)
    // Narrower than the usage line: wrapped under the command's name, as --help lays it out.
    #expect(send.errorText(error, width: 60) == """
      Error: Unknown option '--bogus'
      Usage: storeclient send [--socket <path>] [--no-wait]
                              [--count <n>] <scope> <action-json>
        See 'storeclient send --help' for more information.

      """)
  }
  do {
    _ = try send.parse(["a", "b", "--socket"])
    Issue.record("a missing value was accepted")
  } catch {
    #expect(error.message == "Missing value for '--socket <path>'")
  }
  do {
    _ = try send.parse(["a", "b", "-n", "99"]).integer("count", in: 1...10)
    Issue.record("an out-of-range value was accepted")
  } catch {
    #expect(error.message.contains("'99' is invalid for '--count'"))
  }
}

@Test func helpFollowsArgumentParserLayout() throws {
  #expect(try send.parse(["--help"]).wantsHelp)
  #expect(try send.parse(["-h"]).wantsHelp)
  let help = send.help(width: 80)
  #expect(help.hasPrefix("OVERVIEW: Send an action to a scope.\n\nUSAGE: storeclient send "))
  #expect(help.contains("ARGUMENTS:\n  <scope>                 The scope."))
  #expect(help.contains("  --socket <path>         The socket. (default: /tmp/x.sock)"))
  #expect(help.hasSuffix("  -h, --help              Show help information."))
}

@Test func aLongOptionsHelpContinuesInTheHelpColumn() {
  let spec = CommandSpec(
    name: "tool", abstract: "A tool.",
    options: [
      .option(
        "remote-storeclient", value: "path",
        help: "A help text long enough to wrap onto a second line of the help column here.")
    ])
  let lines = spec.help.split(separator: "\n", omittingEmptySubsequences: false)
  guard let first = lines.firstIndex(of: "  --remote-storeclient <path>") else {
    Issue.record("the option's name is not on a line of its own:\n\(spec.help)")
    return
  }
  // Every line of its help starts at column 26, like every other option's.
  #expect(lines[first + 1].hasPrefix(String(repeating: " ", count: 26) + "A help"))
  #expect(lines[first + 2].hasPrefix(String(repeating: " ", count: 26) + "the help"))
}
