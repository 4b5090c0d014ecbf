import ArgumentParsing
import Remote
import Wire

/// `storeclient diff SCOPE REV1 REV2`: what changed in a scope between two revisions.
struct DiffCommand: ClientCommand {
  static var spec: CommandSpec {
    CommandSpec(
      name: "storeclient diff",
      abstract: "Print what changed in a scope between two revisions.",
      discussion: """
        Reads the scope's state at both revisions from the host's history. Formats: 'text' \
        prints one line per change with the value it replaced ('/count: 3 → 4'), or \
        '(no change)'; 'patch' prints the RFC 6902 JSON Patch operations that turn the first \
        state into the second, as one JSON array.
        """,
      arguments: [
        ArgumentSpec("scope", help: "The scope, e.g. counter or todos/<id>."),
        ArgumentSpec("rev1", help: "The revision to compare from."),
        ArgumentSpec("rev2", help: "The revision to compare to."),
      ],
      options: [
        CommonOptions.socket,
        .option("format", value: "format", help: "text or patch.", default: "text"),
      ])
  }

  var socketPath: String
  var scope: String
  var from: Revision
  var to: Revision
  var patch: Bool

  init(_ arguments: ParsedArguments, socketPath: String) throws(UsageError) {
    guard arguments.positionals.count <= 3 else {
      throw UsageError("Unexpected argument '\(arguments.positionals[3])'")
    }
    func revision(_ index: Int, _ name: String) throws(UsageError) -> Revision {
      guard index < arguments.positionals.count else {
        throw UsageError("Missing expected argument '<\(name)>'")
      }
      let text = arguments.positionals[index]
      guard let value = Revision(text), value >= 0 else {
        throw UsageError(
          "The value '\(text)' is invalid for '<\(name)>': expected a revision (an integer from 0)")
      }
      return value
    }
    self.socketPath = socketPath
    self.scope = arguments.positionals[0]
    self.from = try revision(1, "rev1")
    self.to = try revision(2, "rev2")
    self.patch =
      try arguments.choice("format", valueName: "format", in: ["text", "patch"]) == "patch"
  }

  func run(console: Console) async throws(CommandFailure) {
    let (scope, from, to) = (self.scope, self.from, self.to)
    let (before, after) = try await HistoryReader.with(self.socketPath) {
      reader throws(RemoteError) in
      (try await reader.state(of: scope, at: from), try await reader.state(of: scope, at: to))
    }
    let ops = JSONPatch.diff(from: before, to: after).map(\.json)
    if self.patch {
      console.print(JSON.array(ops).compactString)
      return
    }
    let lines = WatchFormatter(format: .text, label: nil).describeEach(ops, before: before)
    console.print(lines.isEmpty ? "(no change)" : lines.joined(separator: "\n"))
  }
}
