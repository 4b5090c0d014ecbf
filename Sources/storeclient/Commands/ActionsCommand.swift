import ArgumentParsing
import Remote
import Wire

/// `storeclient actions SCOPE`: the actions a scope takes, and the JSON to send for each.
struct ActionsCommand: ClientCommand {
  static var spec: CommandSpec {
    CommandSpec(
      name: "storeclient actions",
      abstract: "List the actions a scope takes, and the JSON to send for each.",
      discussion: """
        One line per case of the scope's action type, and per case of the child features' \
        actions inside it, named as 'storeclient log' names them. A placeholder such as <Int> or \
        "<UUID>" stands for a value of that type; 'a'|'b' for one of the values shown. A single \
        unlabeled value may be written bare, as shown, or as {"_0":…}.
        """,
      arguments: [
        ArgumentSpec("scope", help: "A scope or pattern, e.g. counter, todos/{id} or todos/<id>.")
      ],
      options: CommonOptions.endpoint + [
        .flag("json", help: "Print the scope's actions as one JSON object instead of a table.")
      ])
  }

  var endpoint: HostEndpoint
  var scope: String
  var json: Bool

  init(_ arguments: ParsedArguments, endpoint: HostEndpoint) throws(UsageError) {
    self.endpoint = endpoint
    self.scope = arguments.positionals[0]
    self.json = arguments.flag("json")
  }

  func run(console: Console) async throws(CommandFailure) {
    let scopes = try await withClient(self.endpoint) { client throws(RemoteError) in
      try await client.scopes()
    }
    let info = try Self.find(self.scope, in: scopes)
    guard info.writable else {
      throw CommandFailure("'\(info.pattern)' is read-only: it takes no actions")
    }
    guard let shape = info.actions else {
      throw CommandFailure(
        "the host does not list the actions of '\(info.pattern)' (a host older than this "
          + "storeclient); its documentation, or the Swift type of its actions, says what they are")
    }
    let forms = shape.forms()
    if self.json {
      console.print(Self.json(scope: self.scope, info: info, shape: shape, forms: forms).compactString)
      return
    }
    console.print(
      Table.render(header: ["ACTION", "JSON"], rows: forms.map { [$0.name, $0.template] })
        .joined(separator: "\n"))
  }

  /// The scope `name` names: a pattern as listed, or a scope name that matches one
  /// (`todos/0B9E…` for `todos/{id}`).
  static func find(_ name: String, in scopes: [ScopeInfo]) throws(CommandFailure) -> ScopeInfo {
    if let exact = scopes.first(where: { $0.pattern == name }) { return exact }
    let parts = name.split(separator: "/", omittingEmptySubsequences: false)
    for scope in scopes {
      let segments = scope.pattern.split(separator: "/", omittingEmptySubsequences: false)
      guard segments.count == parts.count else { continue }
      if zip(segments, parts).allSatisfy({ $0 == "{id}" ? !$1.isEmpty : $0 == $1 }) { return scope }
    }
    let patterns = scopes.map(\.pattern)
    let ordered = CaseSuggestions.ordered(patterns, for: name)
    var message = "no scope matches '\(name)'"
    if let nearest = ordered.nearest { message += "; did you mean '\(nearest)'?" }
    message += " The scopes: \(CaseSuggestions.list(ordered.names, limit: 20))"
    throw CommandFailure(message)
  }

  /// `{"scope", "pattern", "type", "actions": [{"name", "template"}], "shape"}`.
  static func json(scope: String, info: ScopeInfo, shape: JSONShape, forms: [JSONShape.Form]) -> JSON {
    var object: JSONObject = ["scope": .string(scope), "pattern": .string(info.pattern)]
    if let type = shape.typeName { object["type"] = .string(type) }
    object["actions"] = .array(
      forms.map { .object(["name": .string($0.name), "template": .string($0.template)]) })
    object["shape"] = shape.json
    return .object(object)
  }
}
