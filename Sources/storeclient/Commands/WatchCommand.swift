import ArgumentParsing
import Remote
import Wire

/// `storeclient watch SCOPE…`: the snapshot, then every change until interrupted.
struct WatchCommand: ClientCommand {
  static var spec: CommandSpec {
    CommandSpec(
      name: "storeclient watch",
      abstract: "Print scopes' states, then every change until interrupted.",
      discussion: """
        Formats: 'text' prints the snapshot, then one line per change with the values it \
        replaced ('rev 42  /count: 3 → 4'); 'json' prints the full state after each change, \
        one JSON document per line (for jq); 'patch' prints each change's JSON Patch \
        operations. With several scopes, lines name their scope. If the host restarts, watch \
        reconnects and continues from a fresh snapshot, unless --no-reconnect. --once prints \
        the state now and exits; --next-change waits for the next change too.
        """,
      arguments: [ArgumentSpec("scope", help: "The scopes to watch, e.g. counter.", repeating: true)],
      options: CommonOptions.endpoint + [
        .option("format", value: "format", help: "text, json or patch.", default: "text"),
        .flag("once", help: "Print the state now and exit."),
        .flag("next-change", help: "Print the state now, then exit after the next change."),
        .flag("no-reconnect", help: "Exit when the connection to the host ends."),
      ])
  }

  var endpoint: HostEndpoint
  var scopes: [String]
  var format: WatchFormat
  /// When to stop: after the snapshot, after the first change, or never.
  var stop: Stop
  var reconnects: Bool

  /// When `watch` exits by itself.
  enum Stop: Sendable, Equatable {
    /// After printing the state (`--once`).
    case afterSnapshot
    /// After the first change (`--next-change`).
    case afterFirstChange
    /// When interrupted, or when the host goes away with `--no-reconnect`.
    case never
  }

  init(_ arguments: ParsedArguments, endpoint: HostEndpoint) throws(UsageError) {
    self.endpoint = endpoint
    self.scopes = arguments.positionals
    let format = try arguments.choice("format", valueName: "format", in: WatchFormat.allCases.map(\.rawValue))
    self.format = format.flatMap(WatchFormat.init(rawValue:)) ?? .text
    if arguments.flag("once") && arguments.flag("next-change") {
      throw UsageError("Use either --once or --next-change, not both")
    }
    self.stop =
      arguments.flag("once")
      ? .afterSnapshot : arguments.flag("next-change") ? .afterFirstChange : .never
    self.reconnects = self.stop == .never && !arguments.flag("no-reconnect")
  }

  func run(console: Console) async throws(CommandFailure) {
    let configuration = RemoteStoreConfiguration(
      transport: try self.endpoint.transport(), clientName: CommonOptions.clientName,
      reconnects: self.reconnects)
    var stores: [(String, RemoteStore<JSON, JSON>)] = []
    for scope in self.scopes {
      do {
        stores.append((scope, try await RemoteStore<JSON, JSON>(scope: scope, configuration: configuration)))
      } catch {
        for (_, store) in stores { await store.close() }
        throw CommandFailure(error)
      }
    }
    let labelled = stores.count > 1
    let format = self.format
    let stop = self.stop
    let failure = await withTaskGroup(of: CommandFailure?.self) { group -> CommandFailure? in
      for (scope, store) in stores {
        let formatter = WatchFormatter(format: format, label: labelled ? scope : nil)
        group.addTask {
          await Self.follow(store, scope: scope, formatter: formatter, stop: stop, console: console)
        }
      }
      // The first scope to end ends the watch — except with --once, where each prints its
      // state first.
      var first = await group.next() ?? nil
      if stop == .afterSnapshot {
        while let next = await group.next() { first = first ?? next }
      }
      for (_, store) in stores { await store.close() }
      group.cancelAll()
      return first
    }
    if let failure { throw failure }
  }

  /// Prints one scope's events until it ends; returns why, or `nil` when `--once` or
  /// `--next-change` is done.
  private static func follow(
    _ store: RemoteStore<JSON, JSON>, scope: String, formatter: WatchFormatter, stop: Stop,
    console: Console
  ) async -> CommandFailure? {
    for await event in store.events() {
      switch event {
      case .snapshot(let snapshot, let reason):
        switch reason {
        case .initial: break
        case .reconnected:
          console.note("storeclient: reconnected; \(scope) continues from a fresh snapshot at rev \(snapshot.revision)")
        case .resynced:
          console.note("storeclient: \(scope): a patch did not fit the last state; resubscribed")
        }
        console.print(formatter.snapshot(snapshot, scope: scope))
        if stop == .afterSnapshot { return nil }
      case .patch(let base, let rev, let ops, let before, let after):
        console.print(
          formatter.patch(scope: scope, base: base, rev: rev, ops: ops, before: before, after: after))
        if stop == .afterFirstChange { return nil }
      case .disconnected(let error, _):
        console.note("storeclient: \(error); reconnecting…")
      case .reconnectFailed, .rejected:
        break
      case .ended(.closed):
        return nil
      case .ended(let error):
        return CommandFailure(error)
      }
    }
    return nil
  }
}
