import ArgumentParsing
import Remote
import Wire

/// `storeclient get SCOPE`: a scope's state as JSON.
struct GetCommand: ClientCommand {
  static var spec: CommandSpec {
    CommandSpec(
      name: "storeclient get",
      abstract: "Print a scope's state as JSON.",
      arguments: [ArgumentSpec("scope", help: "The scope, e.g. counter or todos/<id>.")],
      options: CommonOptions.endpoint + [
        .flag("compact", help: "Print one line of JSON (the default when not on a terminal)."),
        .flag("pretty", help: "Print indented JSON (the default on a terminal)."),
      ])
  }

  var endpoint: HostEndpoint
  var scope: String
  var pretty: Bool?

  init(_ arguments: ParsedArguments, endpoint: HostEndpoint) throws(UsageError) {
    if arguments.flag("compact") && arguments.flag("pretty") {
      throw UsageError("Use either --compact or --pretty, not both")
    }
    self.endpoint = endpoint
    self.scope = arguments.positionals[0]
    self.pretty = arguments.flag("compact") ? false : arguments.flag("pretty") ? true : nil
  }

  func run(console: Console) async throws(CommandFailure) {
    let scope = self.scope
    let snapshot = try await withClient(self.endpoint) { client throws(RemoteError) in
      try await client.get(scope)
    }
    let pretty = self.pretty ?? console.outputIsTerminal
    console.print(pretty ? snapshot.state.prettyPrinted() : snapshot.state.compactString)
  }
}
