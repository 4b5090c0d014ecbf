import ArgumentParsing
import Remote
import Wire

/// `storeclient get SCOPE`: a scope's state as JSON.
struct GetCommand: ClientCommand {
  static var spec: CommandSpec {
    CommandSpec(
      name: "storeclient get",
      abstract: "Print a scope's state as JSON.",
      discussion: """
        With --at, the state the scope had at a past revision (a host that keeps a history
        rebuilds it; 'storeclient log' shows the revisions).
        """,
      arguments: [ArgumentSpec("scope", help: "The scope, e.g. counter or todos/<id>.")],
      options: [
        CommonOptions.socket,
        .option("at", value: "rev", help: "Print the state at this past revision."),
        .flag("compact", help: "Print one line of JSON (the default when not on a terminal)."),
        .flag("pretty", help: "Print indented JSON (the default on a terminal)."),
      ])
  }

  var socketPath: String
  var scope: String
  var pretty: Bool?
  var revision: Revision?

  init(_ arguments: ParsedArguments, socketPath: String) throws(UsageError) {
    if arguments.flag("compact") && arguments.flag("pretty") {
      throw UsageError("Use either --compact or --pretty, not both")
    }
    self.socketPath = socketPath
    self.scope = arguments.positionals[0]
    self.pretty = arguments.flag("compact") ? false : arguments.flag("pretty") ? true : nil
    self.revision = try arguments.integer("at", in: 0...Int.max).map(Revision.init)
  }

  func run(console: Console) async throws(CommandFailure) {
    let scope = self.scope
    let state: JSON
    if let revision = self.revision {
      state = try await HistoryReader.with(self.socketPath) { reader throws(RemoteError) in
        try await reader.state(of: scope, at: revision)
      }
    } else {
      state = try await withClient(self.socketPath) { client throws(RemoteError) in
        try await client.get(scope).state
      }
    }
    let pretty = self.pretty ?? console.outputIsTerminal
    console.print(pretty ? state.prettyPrinted() : state.compactString)
  }
}
