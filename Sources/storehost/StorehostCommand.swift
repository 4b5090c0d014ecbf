import ArgumentParsing
import Hosting
import Wire

/// The `storehost` command line: what it accepts and how it turns into a configuration.
enum StorehostCommand {
  static let spec = CommandSpec(
    name: "storehost",
    abstract: "Serve a Composable Architecture store to other processes over a Unix socket.",
    discussion: """
      Runs in the foreground until SIGTERM, SIGINT or SIGHUP, then says bye to every client,
      writes a final snapshot, removes the socket file and exits 0. Logs one line per event on
      stderr (without timestamps when stderr is systemd's journal).

      Under systemd (contrib/systemd): serves the socket a socket unit passes (LISTEN_FDS),
      notifies readiness, status and stopping (Type=notify) and the watchdog (WatchdogSec=).

      The app's state is kept in a data directory: a journal of every action (acknowledged only
      once written) and snapshots. A restart, clean or after a crash, serves exactly the
      acknowledged state, and revisions continue. One host at a time may use a directory.
      """,
    options: [
      .option(
        "socket", value: "path", help: "The socket file to listen on.",
        default:
          "$STOREHOST_SOCKET, else storehost.sock in the private directory $XDG_RUNTIME_DIR/storehost, else /tmp/storehost-<uid>"),
      .option(
        "allow", value: "who[:ro|:rw]",
        help:
          "Let a user (name or uid), @group or * (everyone) connect: ro may read, subscribe and follow the history, rw may also send (ro when no role is given). Repeatable; the host's own user is always rw."),
      .option("app", value: "name", help: "The app to serve: \(ExampleApp.names.joined(separator: ", ")).", default: "examples"),
      .option(
        "data", value: "dir", help: "The directory the app's state is kept in (created with mode 0700).",
        default: "$XDG_STATE_HOME/storehost/<app>, else ~/.local/state/storehost/<app>"),
      .flag("ephemeral", help: "Keep the state in memory only: it is lost when the host stops."),
      .option(
        "fsync", value: "mode",
        help: "When the journal is flushed to the device: always (before each ack), everysec, or no (the OS decides).",
        default: "everysec"),
      .flag("reset", help: "Move the data directory aside (to <dir>.old-<timestamp>) and start empty."),
      .option("max-frame", value: "bytes", help: "The largest frame read or written.", default: "16777216"),
      .option(
        "mode", value: "octal", help: "Permission bits of the socket file.",
        default: "the least --allow needs: 0600, 0660 for one group, else 0666"),
      .option("log-level", value: "level", help: "trace, debug, info, warning or error.", default: "info"),
      .option(
        "history", value: "n",
        help: "Recent actions kept in memory for history, tail and get --at; 0 turns history off.",
        default: "100000"),
      .option(
        "history-memory", value: "bytes",
        help: "Memory the history may hold (estimated; K, M or G); over it, the oldest entries leave memory.",
        default: "64M"),
      .option(
        "change-log-memory", value: "bytes",
        help: "Memory the change logs of watched collections may hold (estimated; K, M or G).",
        default: "64M"),
      .option("max-connections", value: "n", help: "Most clients served at once.", default: "1024"),
      .option("max-subscriptions", value: "n", help: "Most subscriptions per connection.", default: "256"),
      .option(
        "hello-timeout", value: "seconds", help: "Time a new connection has to say hello.",
        default: "10"),
      .option(
        "max-buffered", value: "bytes",
        help: "Bytes of unfinished frames held from all clients; over it, those holding the most are closed (overloaded).",
        default: "268435456"),
      .option(
        "frame-timeout", value: "seconds",
        help: "Time an unfinished frame may wait for its next byte before it is dropped.",
        default: "30"),
      .option(
        "costly-push-wait", value: "factor",
        help: "After a push that took over 0.5 ms, wait this many times its cost before the scope's next.",
        default: "4"),
      .option(
        "snapshot-min-size", value: "bytes", help: "Journal bytes since the last snapshot below which none is taken.",
        default: "67108864"),
      .option(
        "snapshot-growth", value: "percent",
        help: "Journal growth since the last snapshot, in percent of its size, that triggers the next.",
        default: "100"),
      .flag("allow-other-users", help: "Let every user connect and send (the same as --allow '*:rw')."),
      .flag("version", help: "Show the version.", hiddenFromUsage: true),
    ])

  /// What to do, parsed from the arguments.
  enum Invocation {
    case help
    case version
    /// Serve `app`; `explicitSocket` says whether `--socket` chose the path.
    case serve(
      app: String, configuration: HostConfiguration, persistence: Persistence, explicitSocket: Bool)
  }

  /// What `--version` prints: the same form as `storeclient --version`.
  static let versionLine = "storehost \(PackageVersion.current)"

  static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Invocation {
    let parsed = try spec.parse(arguments)
    if parsed.wantsHelp { return .help }
    if parsed.flag("version") { return .version }
    var configuration: HostConfiguration
    if let path = parsed.value("socket") {
      guard !path.isEmpty else { throw UsageError("The value '' is invalid for '--socket <path>'") }
      configuration = HostConfiguration(socketPath: path)
    } else {
      configuration = HostConfiguration(defaultSocketIn: environment)
    }
    for text in parsed.values["allow"] ?? [] {
      do {
        configuration.access.rules.append(try AccessRule(parsing: text))
      } catch {
        throw UsageError("The value '\(text)' is invalid for '--allow <who[:ro|:rw]>': \(error)")
      }
    }
    if let frame = try parsed.integer("max-frame", in: 64...(1 << 30)) { configuration.maxFrameSize = frame }
    if let mode = try parsed.integer("mode", in: 0...0o777, radix: 8) { configuration.socketMode = UInt32(mode) }
    if let limit = try parsed.integer("max-connections", in: 1...65536) { configuration.maxConnections = limit }
    if let limit = try parsed.integer("max-subscriptions", in: 1...65536) {
      configuration.maxSubscriptionsPerConnection = limit
    }
    if let entries = try parsed.integer("history", in: 0...100_000_000) {
      configuration.historyLimit = entries
    }
    if let bytes = try parsed.byteCount("history-memory", in: (1 << 20)...(1 << 40)) {
      configuration.historyMemoryLimit = bytes
    }
    if let bytes = try parsed.byteCount("change-log-memory", in: 0...(1 << 40)) {
      configuration.changeLogMemoryLimit = bytes
    }
    if let seconds = try parsed.integer("hello-timeout", in: 1...3600) {
      configuration.helloTimeout = Double(seconds)
    }
    if let bytes = try parsed.integer("max-buffered", in: 64...(1 << 40)) {
      guard bytes >= configuration.maxFrameSize else {
        throw UsageError(
          "The value '\(bytes)' is invalid for '--max-buffered': it must be at least the largest frame, "
            + "\(configuration.maxFrameSize) bytes (--max-frame), or no such frame could arrive")
      }
      configuration.maxBufferedBytes = bytes
    } else if configuration.maxFrameSize > configuration.maxBufferedBytes {
      configuration.maxBufferedBytes = configuration.maxFrameSize
    }
    if let seconds = try parsed.integer("frame-timeout", in: 1...86400) {
      configuration.frameTimeout = Double(seconds)
    }
    if let factor = try parsed.integer("costly-push-wait", in: 0...100_000) {
      configuration.costlyPushWaitFactor = Double(factor)
    }
    if let name = parsed.value("log-level") {
      guard let level = LogLevel(name: name) else {
        throw UsageError("The value '\(name)' is invalid for '--log-level <level>': expected one of trace, debug, info, warning, error")
      }
      configuration.logLevel = level
    }
    if parsed.flag("allow-other-users") { configuration.allowOtherUsers = true }
    let app = parsed.value("app") ?? "examples"
    guard ExampleApp.names.contains(app) else {
      throw UsageError("The value '\(app)' is invalid for '--app <name>': expected one of \(ExampleApp.names.joined(separator: ", "))")
    }
    let persistence = try self.persistence(parsed, app: app, environment: environment)
    return .serve(
      app: app, configuration: configuration, persistence: persistence,
      explicitSocket: parsed.value("socket") != nil)
  }

  /// Where the state is kept: `--ephemeral`, `--data`, or the default directory.
  private static func persistence(
    _ parsed: ParsedArguments, app: String, environment: [String: String]
  ) throws(UsageError) -> Persistence {
    if parsed.flag("ephemeral") {
      for option in ["data", "fsync", "snapshot-min-size", "snapshot-growth"] where parsed.value(option) != nil {
        throw UsageError("'--ephemeral' keeps no data: it cannot be combined with '--\(option)'")
      }
      if parsed.flag("reset") { throw UsageError("'--ephemeral' keeps no data: it cannot be combined with '--reset'") }
      return .inMemory
    }
    var fsync = FsyncPolicy.everySecond
    if let name = parsed.value("fsync") {
      guard let policy = FsyncPolicy(name: name) else {
        throw UsageError("The value '\(name)' is invalid for '--fsync <mode>': expected one of always, everysec, no")
      }
      fsync = policy
    }
    var snapshots = SnapshotPolicy()
    if let bytes = try parsed.integer("snapshot-min-size", in: 1...(1 << 40)) { snapshots.minimumJournalBytes = bytes }
    if let percent = try parsed.integer("snapshot-growth", in: 0...100_000) { snapshots.growthPercentage = percent }
    let directory: String
    if let data = parsed.value("data") {
      guard !data.isEmpty else { throw UsageError("The value '' is invalid for '--data <dir>'") }
      directory = data
    } else if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      directory = state + "/storehost/" + app
    } else if let home = environment["HOME"], home.hasPrefix("/") {
      directory = home + "/.local/state/storehost/" + app
    } else {
      throw UsageError(
        "No data directory: neither XDG_STATE_HOME nor HOME is set; pass '--data <dir>', or '--ephemeral' to keep the state in memory")
    }
    return .directory(directory, fsync: fsync, snapshots: snapshots, reset: parsed.flag("reset"))
  }
}
