import ArgumentParsing
import Remote
import Wire

/// `storeclient scopes`: a table of the scopes the host exposes.
struct ScopesCommand: ClientCommand {
  static var spec: CommandSpec {
    CommandSpec(
      name: "storeclient scopes",
      abstract: "List the scopes the host exposes.",
      discussion: "Prints a table of scope patterns, whether each takes actions, and what it is. A segment {id} stands for the id of one element of a collection.",
      options: CommonOptions.endpoint + [
        .flag("json", help: "Print the scopes as one JSON array instead of a table."),
      ])
  }

  var endpoint: HostEndpoint
  var json: Bool

  init(_ arguments: ParsedArguments, endpoint: HostEndpoint) throws(UsageError) {
    self.endpoint = endpoint
    self.json = arguments.flag("json")
  }

  func run(console: Console) async throws(CommandFailure) {
    let scopes = try await withClient(self.endpoint) { client throws(RemoteError) in
      try await client.scopes()
    }
    if self.json {
      console.print(JSON.array(scopes.map(\.json)).compactString)
      return
    }
    console.print(Self.table(scopes).joined(separator: "\n"))
  }

  /// The table: `PATTERN  WRITABLE  DESCRIPTION`, one row per scope, in the host's order.
  static func table(_ scopes: [ScopeInfo]) -> [String] {
    Table.render(
      header: ["PATTERN", "WRITABLE", "DESCRIPTION"],
      rows: scopes.map { [$0.pattern, $0.writable ? "yes" : "no", $0.description ?? ""] })
  }
}

/// Connects to the host at the socket `socketPath` on this machine, runs `body` with the
/// client, and closes it.
func withClient<T: Sendable>(
  _ socketPath: String,
  _ body: (HostClient) async throws(RemoteError) -> T
) async throws(CommandFailure) -> T {
  try await withClient(HostEndpoint.local(socketPath), body)
}
