import ArgumentParsing
import Remote
import Wire

/// `storeclient bench`: a load test of concurrent senders and watchers, checked for loss.
struct BenchCommand: ClientCommand {
  static var spec: CommandSpec {
    CommandSpec(
      name: "storeclient bench",
      abstract: "Load-test the host with concurrent senders and watchers.",
      discussion: """
        Every connection runs on one thread. Reports acknowledged actions per second, \
        acknowledgement latency, the latency from a send to the patch at each watcher (with \
        --ack every), bytes per action and errors. At the end it checks that no acknowledged \
        action was lost — for the counter, that the count moved by exactly the number of \
        actions acknowledged; otherwise that the root revision advanced at least as much — \
        and exits with 1 if anything was lost or refused.
        """,
      options: [
        CommonOptions.socket,
        .option("clients", short: "c", value: "n", help: "Sending connections.", default: "1"),
        .option("actions", short: "n", value: "m", help: "Actions per client (unless --duration).", default: "10000"),
        .option("duration", short: "d", value: "seconds", help: "Send for this long instead of a number of actions."),
        .option("scope", value: "scope", help: "The scope to send to and watch.", default: "counter"),
        .option("action", value: "json", help: "The action to send.", default: #"{"incrementButtonTapped":{}}"#),
        .option("watchers", short: "w", value: "k", help: "Connections subscribed to the scope.", default: "0"),
        .option(
          "ack", value: "mode",
          help: "every: one action in flight per client, each acknowledged; end: pipelined batches, each confirmed by a ping.",
          default: "every"),
        .option("pipeline", short: "p", value: "p", help: "Actions per batch with --ack end.", default: "16"),
        .option("rate", value: "actions/s", help: "Total actions per second across clients (default: as fast as possible)."),
        .flag("json", help: "Print the report as one JSON object."),
      ])
  }

  var options: BenchOptions

  init(_ arguments: ParsedArguments, socketPath: String) throws(UsageError) {
    self.options = try BenchOptions(arguments, socketPath: socketPath)
  }

  func run(console: Console) async throws(CommandFailure) {
    let options = self.options
    let client = CommonOptions.clientName
    // Fail fast, with the host's own words, on an unknown scope or a refused action: the
    // probe is one action, sent before the "before" state is read.
    let before = try await withClient(options.socketPath) { verifier throws(RemoteError) in
      try await verifier.send(options.action, to: options.scope)
      return try await verifier.get(options.scope)
    }
    let loop = EventLoop(name: "bench")
    defer { loop.shutdownGracefully() }
    let run = BenchRun(options: options, loop: loop)
    do {
      try await run.connect()
    } catch {
      throw CommandFailure(error)
    }
    if !options.json { console.print(BenchReport.header(options)) }
    let display = ProgressDisplay(options: options, console: console)
    let progress = Task {
      while !Task.isCancelled {
        try? await Task.sleep(for: display.period)
        if Task.isCancelled { break }
        display.show(await run.progress())
      }
    }
    await run.run()
    progress.cancel()
    _ = await progress.value
    display.clear()

    let (after, afterError) = await Self.finalState(options, client: client)
    if let after { await run.waitForWatchers(toReach: after.revision, timeout: .seconds(2)) }
    let measurements = await run.finish(final: after)
    let verification = BenchVerification.check(
      before: before, after: after, afterError: afterError, acknowledged: measurements.confirmed,
      counterStep: options.counterStep)
    let report = BenchReport(options: options, measurements: measurements, verification: verification)
    if options.json {
      console.print(report.json.compactString)
    } else {
      console.print(report.text.joined(separator: "\n"))
    }
    guard report.passed else {
      throw CommandFailure(
        verification.verified
          ? "\(report.errors) error\(report.errors == 1 ? "" : "s") during the run"
          : verification.lost.map { $0 > 0 ? "\(Durations.grouped($0)) acknowledged actions were lost" : "the check failed" }
            ?? "nothing could be verified")
    }
  }
}

extension BenchCommand {
  /// Reads the scope's state after the run on a new connection — retrying for a few seconds
  /// if the host is unreachable, as it may be restarting after a crash (which is exactly
  /// when the check matters).
  static func finalState(
    _ options: BenchOptions, client: String
  ) async -> (Snapshot?, RemoteError?) {
    let deadline = ContinuousClock.now + .seconds(5)
    var delay = Duration.milliseconds(20)
    while true {
      do throws(RemoteError) {
        let verifier = try await HostClient.connect(to: options.socketPath, client: client)
        defer { Task { await verifier.close() } }
        return (try await verifier.get(options.scope), nil)
      } catch where error.isTransient && ContinuousClock.now + delay < deadline {
        try? await Task.sleep(for: delay)
        delay = min(delay * 2, .milliseconds(500))
      } catch {
        return (nil, error)
      }
    }
  }
}
