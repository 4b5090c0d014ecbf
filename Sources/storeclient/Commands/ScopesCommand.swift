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
      options: [
        CommonOptions.socket,
        .flag("json", help: "Print the scopes as one JSON array instead of a table."),
      ])
  }

  var socketPath: String
  var json: Bool

  init(_ arguments: ParsedArguments, socketPath: String) throws(UsageError) {
    self.socketPath = socketPath
    self.json = arguments.flag("json")
  }

  func run(console: Console) async throws(CommandFailure) {
    let scopes = try await withClient(self.socketPath) { client throws(RemoteError) in
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

/// Connects, runs `body` with the client, and closes it.
func withClient<T: Sendable>(
  _ socketPath: String,
  _ body: (HostClient) async throws(RemoteError) -> T
) async throws(CommandFailure) -> T {
  let client: HostClient
  do {
    client = try await HostClient.connect(to: socketPath, client: CommonOptions.clientName)
  } catch {
    throw CommandFailure(error)
  }
  do {
    let result = try await body(client)
    await client.close()
    return result
  } catch {
    await client.close()
    throw CommandFailure(error)
  }
}
