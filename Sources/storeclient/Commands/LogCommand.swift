import ArgumentParsing
import Remote
import Wire

/// `storeclient log [SCOPE]`: the actions the host reduced — who sent what, when — and with
/// `-f`, every new one as it happens.
struct LogCommand: ClientCommand {
  static var spec: CommandSpec {
    CommandSpec(
      name: "storeclient log",
      abstract: "Print the actions the host reduced: who sent what, and when.",
      discussion: """
        One line per action: its revision, the time of day it was reduced (local time; \
        --format json gives the host's RFC 3339 UTC time), who sent it (a client's name, \
        process id and user id, or effect, or host), the scope it was sent to and the action. \
        With --changes, each line ends with what the action changed in that scope, as watch \
        shows it ('/count: 3 → 4'). Without --since, the last --limit actions; the host \
        gives at most 10,000 per request. With -f, log then follows new actions until \
        interrupted; if the host restarts, it waits for it and goes on.
        """,
      arguments: [
        ArgumentSpec(
          "scope",
          help: "Only actions sent to this scope, or to any scope a pattern such as "
            + "todos/{id} matches.", optional: true)
      ],
      options: [
        CommonOptions.socket,
        .option("since", value: "rev", help: "Only actions after this revision."),
        .option(
          "limit", value: "n", help: "The most actions to print (before following).", default: "100"
        ),
        .flag("follow", short: "f", help: "Keep printing new actions as they are reduced."),
        .option("format", value: "format", help: "text or json.", default: "text"),
        .flag("changes", help: "Show what each action changed in its scope."),
      ])
  }

  var socketPath: String
  var scope: String?
  var since: Revision?
  var limit: Int
  var follow: Bool
  var formatter: LogFormatter
  var changes: Bool

  init(_ arguments: ParsedArguments, socketPath: String) throws(UsageError) {
    guard arguments.positionals.count <= 1 else {
      throw UsageError("Unexpected argument '\(arguments.positionals[1])'")
    }
    self.socketPath = socketPath
    self.scope = arguments.positionals.first
    self.since = try arguments.integer("since", in: 0...Int.max).map(Revision.init)
    self.limit = try arguments.integer("limit", in: 1...Int.max) ?? 100
    self.follow = arguments.flag("follow")
    let format = try arguments.choice(
      "format", valueName: "format", in: LogFormat.allCases.map(\.rawValue))
    self.formatter = LogFormatter(format: format.flatMap(LogFormat.init(rawValue:)) ?? .text)
    self.changes = arguments.flag("changes")
  }

  func run(console: Console) async throws(CommandFailure) {
    guard self.follow else {
      try await self.printHistory(console: console)
      return
    }
    try await LogFollower(command: self, console: console).run()
  }

  /// Prints one page of history.
  private func printHistory(console: Console) async throws(CommandFailure) {
    let reader = try await HistoryReader.connect(self.socketPath)
    do {
      let page = try await reader.client.history(
        since: self.since, limit: self.limit, scope: self.scope)
      if let since = self.since, since + 1 < page.oldest {
        console.note(
          "storeclient: the host no longer keeps the entries after rev \(since) up to rev "
            + "\(page.oldest - 1); these are the oldest it has")
      }
      let changes = self.changes ? ChangeReader(reader) : nil
      for entry in page.entries {
        console.print(self.formatter.line(entry, change: await changes?.change(of: entry)))
      }
      await reader.client.close()
    } catch {
      await reader.client.close()
      throw CommandFailure(error)
    }
  }
}

/// `log -f`: prints the last entries, then follows the host's history with a tail; waits for
/// a host that goes away and continues when it is back.
private struct LogFollower {
  let command: LogCommand
  let console: Console

  private enum Event: Sendable {
    case tail(TailEvent)
    case closed(RemoteError)
  }

  func run() async throws(CommandFailure) {
    var reader = try await HistoryReader.connect(self.command.socketPath)
    var lastSeen: Revision?
    while true {
      let ended = await self.follow(reader, after: &lastSeen)
      // A refusal (an unknown scope, …) would be refused again: only a lost host is waited for.
      guard ended.isTransient else { throw CommandFailure(ended) }
      self.console.note("storeclient: \(ended); waiting for the host to come back…")
      reader = await self.reconnect()
    }
  }

  /// Prints until the connection ends; returns why it ended.
  private func follow(_ reader: HistoryReader, after lastSeen: inout Revision?) async -> RemoteError
  {
    let client = reader.client
    let (events, sink) = AsyncStream<Event>.makeStream()
    await client.onClose { sink.yield(.closed($0)) }
    do {
      let since = try await self.startingPoint(reader, lastSeen: lastSeen)
      try await client.tail(since: since, scope: self.command.scope) { sink.yield(.tail($0)) }
      lastSeen = lastSeen ?? since
    } catch {
      await client.close()
      return error
    }
    let changes = self.command.changes ? ChangeReader(reader) : nil
    for await event in events {
      switch event {
      case .tail(.entry(let entry)):
        let change = await changes?.change(of: entry)
        self.console.print(self.command.formatter.line(entry, change: change))
        lastSeen = entry.rev
      case .tail(.gap(let from, let to)):
        self.console.print(self.command.formatter.gap(from: from, to: to))
        lastSeen = to
      case .closed(let reason):
        return reason
      }
    }
    return .closed
  }

  /// Where the tail starts: after `--since`, or after the last entries printed first; after a
  /// reconnection, after the last entry printed — unless the host's history started over (an
  /// ephemeral host restarted), then from the oldest it keeps.
  private func startingPoint(
    _ reader: HistoryReader, lastSeen: Revision?
  ) async throws(RemoteError) -> Revision {
    guard let lastSeen else {
      if let since = self.command.since { return since }
      let page = try await reader.client.history(
        limit: self.command.limit, scope: self.command.scope)
      let changes = self.command.changes ? ChangeReader(reader) : nil
      for entry in page.entries {
        self.console.print(
          self.command.formatter.line(entry, change: await changes?.change(of: entry)))
      }
      return page.revision
    }
    let now = try await reader.client.history(limit: 1).revision
    if now >= lastSeen {
      self.console.note("storeclient: reconnected at rev \(now); continuing after rev \(lastSeen)")
      return lastSeen
    }
    self.console.note(
      "storeclient: reconnected; the host's history started over (it is at rev \(now), this log "
        + "had reached rev \(lastSeen)): printing it from its start")
    return 0
  }

  /// Connects again, retrying until a host that keeps a history answers.
  private func reconnect() async -> HistoryReader {
    var delay = Duration.milliseconds(100)
    while true {
      try? await Task.sleep(for: delay)
      if let reader = try? await HistoryReader.connect(self.command.socketPath) { return reader }
      delay = min(delay * 2, .seconds(2))
    }
  }
}
