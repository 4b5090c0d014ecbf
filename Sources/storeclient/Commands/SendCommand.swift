import ArgumentParsing
import Remote
import Synchronization
import Wire

/// `storeclient send SCOPE ACTION_JSON`: send actions and print the revisions they produced.
struct SendCommand: ClientCommand {
  static var spec: CommandSpec {
    CommandSpec(
      name: "storeclient send",
      abstract: "Send an action to a scope and print the revision it produced.",
      discussion: """
        The action is the JSON form of the scope's Action type, e.g. '{"incrementButtonTapped":{}}' \
        or '{"set":{"_0":5}}'. With '-', actions are read from standard input, one per line, \
        and each revision is printed on its own line as its acknowledgement arrives.
        """,
      arguments: [
        ArgumentSpec("scope", help: "A writable scope, e.g. counter."),
        ArgumentSpec("action-json", help: "The action as JSON, or '-' to read one per line from standard input."),
      ],
      options: CommonOptions.endpoint + [
        .flag(
          "no-wait",
          help: "Don't wait for acknowledgements (no revision is printed); errors the host reports are still shown."),
      ])
  }

  enum Input: Sendable {
    case action(JSON)
    case standardInput
  }

  var endpoint: HostEndpoint
  var scope: String
  var input: Input
  var wait: Bool

  init(_ arguments: ParsedArguments, endpoint: HostEndpoint) throws(UsageError) {
    self.endpoint = endpoint
    self.scope = arguments.positionals[0]
    let text = arguments.positionals[1]
    self.input = text == "-" ? .standardInput : .action(try JSONArgument.parse(text, name: "<action-json>"))
    self.wait = !arguments.flag("no-wait")
  }

  func run(console: Console) async throws(CommandFailure) {
    let client = try await self.endpoint.connect()
    let refusals = Mutex<[RemoteError]>([])
    await client.onError { error in refusals.withLock { $0.append(error) } }
    defer { Task { await client.close() } }
    switch self.input {
    case .action(let action):
      do {
        if self.wait {
          console.print(String(try await client.send(action, to: self.scope)))
        } else {
          try await client.sendWithoutWaiting(action, to: self.scope)
          // A ping answered means the host has handled the action, and reported any refusal.
          _ = try await client.ping()
        }
      } catch {
        throw CommandFailure(error)
      }
      if let refusal = refusals.withLock({ $0.first }) { throw CommandFailure(refusal) }
    case .standardInput:
      let failures = try await self.sendLines(client, console: console)
      let refused = refusals.withLock { $0 }
      for refusal in refused { console.note("Error: \(refusal)") }
      let total = failures + refused.count
      if total > 0 {
        throw CommandFailure("\(total) action\(total == 1 ? " was" : "s were") not accepted")
      }
    }
  }

  /// Sends each line of standard input; returns how many the host refused.
  private func sendLines(_ client: HostClient, console: Console) async throws(CommandFailure) -> Int {
    var lineNumber = 0
    var failures = 0
    while let line = Platform.readLine() {
      lineNumber += 1
      if line.allSatisfy(\.isWhitespace) { continue }
      let action: JSON
      do {
        action = try JSONArgument.parse(line, name: "line \(lineNumber) of standard input")
      } catch {
        throw CommandFailure(error.message, exitCode: .usage)
      }
      do {
        if self.wait {
          console.print(String(try await client.send(action, to: self.scope)))
        } else {
          try await client.sendWithoutWaiting(action, to: self.scope)
        }
      } catch let error where error.code != nil {
        // The host refused this action; the others still go.
        console.note("Error: line \(lineNumber): \(error)")
        failures += 1
      } catch {
        throw CommandFailure(error)
      }
    }
    if !self.wait {
      do {
        _ = try await client.ping()
      } catch {
        throw CommandFailure(error)
      }
    }
    return failures
  }
}
