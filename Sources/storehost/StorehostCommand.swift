import ArgumentParsing
import Hosting
import Wire

/// The `storehost` command line: what it accepts and how it turns into a configuration.
enum StorehostCommand {
  static let spec = CommandSpec(
    name: "storehost",
    abstract: "Serve a Composable Architecture store to other processes over a Unix socket.",
    discussion: """
      Runs in the foreground until SIGTERM or SIGINT, then says bye to every client, removes
      the socket file and exits 0. Logs one line per event on stderr.
      """,
    options: [
      .option(
        "socket", value: "path", help: "The socket file to listen on.",
        default: "$STOREHOST_SOCKET, else $XDG_RUNTIME_DIR/storehost.sock, else /tmp/storehost-<uid>.sock"),
      .option("app", value: "name", help: "The app to serve: \(ExampleApp.names.joined(separator: ", ")).", default: "examples"),
      .option("max-frame", value: "bytes", help: "The largest frame read or written.", default: "16777216"),
      .option("mode", value: "octal", help: "Permission bits of the socket file.", default: "0600"),
      .option("log-level", value: "level", help: "trace, debug, info, warning or error.", default: "info"),
      .option(
        "history", value: "n",
        help: "Recent actions kept in memory for history, tail and get --at; 0 turns history off.",
        default: "100000"),
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
      .flag("allow-other-users", help: "Accept connections from processes of other users."),
      .flag("version", help: "Show the version.", hiddenFromUsage: true),
    ])

  /// What to do, parsed from the arguments.
  enum Invocation {
    case help
    case version
    case serve(app: String, configuration: HostConfiguration)
  }

  static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Invocation {
    let parsed = try spec.parse(arguments)
    if parsed.wantsHelp { return .help }
    if parsed.flag("version") { return .version }
    let path = parsed.value("socket") ?? DefaultSocketPath.resolve(environment: environment)
    guard !path.isEmpty else { throw UsageError("The value '' is invalid for '--socket <path>'") }
    var configuration = HostConfiguration(socketPath: path)
    if let frame = try parsed.integer("max-frame", in: 64...(1 << 30)) { configuration.maxFrameSize = frame }
    if let mode = try parsed.integer("mode", in: 0...0o777, radix: 8) { configuration.socketMode = UInt32(mode) }
    if let limit = try parsed.integer("max-connections", in: 1...65536) { configuration.maxConnections = limit }
    if let limit = try parsed.integer("max-subscriptions", in: 1...65536) {
      configuration.maxSubscriptionsPerConnection = limit
    }
    if let entries = try parsed.integer("history", in: 0...100_000_000) {
      configuration.historyLimit = entries
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
    configuration.allowOtherUsers = parsed.flag("allow-other-users")
    let app = parsed.value("app") ?? "examples"
    guard ExampleApp.names.contains(app) else {
      throw UsageError("The value '\(app)' is invalid for '--app <name>': expected one of \(ExampleApp.names.joined(separator: ", "))")
    }
    return .serve(app: app, configuration: configuration)
  }
}
