/// How much a host logs on stderr, one line per event.
public enum LogLevel: Int, Comparable, Sendable, CaseIterable {
  /// Every request and push (noisy; for debugging clients).
  case trace
  /// Connection details and scope lookups.
  case debug
  /// Listening, connect, disconnect, shutdown.
  case info
  /// Protocol errors from clients and refused connections.
  case warning
  /// Failures of the host itself.
  case error

  /// Parses `trace`, `debug`, `info`, `warning` (or `warn`), `error`.
  public init?(name: String) {
    switch name.lowercased() {
    case "trace": self = .trace
    case "debug": self = .debug
    case "info": self = .info
    case "warning", "warn": self = .warning
    case "error": self = .error
    default: return nil
    }
  }

  /// The syslog priority the journal files a line of this level under (`<6>` for info).
  var syslogPriority: Int {
    switch self {
    case .trace, .debug: 7
    case .info: 6
    case .warning: 4
    case .error: 3
    }
  }

  /// The level's name as written in log lines.
  public var name: String {
    switch self {
    case .trace: "trace"
    case .debug: "debug"
    case .info: "info"
    case .warning: "warning"
    case .error: "error"
    }
  }

  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Writes one line per event to stderr: `2026-11-21T23:40:01Z info connect session=3 pid=42`.
///
/// When stderr is the journal's stream (systemd's `JOURNAL_STREAM`), a line is
/// `<6>info connect session=3 pid=42` instead: the journal stamps each line with its own time,
/// and files it under the syslog priority of its `<N>` prefix (`journalctl -p warning`).
@usableFromInline
struct HostLogger: Sendable {
  let level: LogLevel

  /// Whether stderr is the journal, decided once for the process.
  static let writesToJournal = Platform.standardErrorIsJournal(
    Platform.environment("JOURNAL_STREAM"))

  @usableFromInline
  init(level: LogLevel) {
    self.level = level
  }

  @usableFromInline
  func callAsFunction(_ level: LogLevel, _ message: @autoclosure () -> String) {
    guard level >= self.level else { return }
    Platform.writeStandardError(Self.line(level, message(), journal: Self.writesToJournal))
  }

  /// One log line, for the journal or for a file or terminal.
  static func line(_ level: LogLevel, _ message: String, journal: Bool) -> String {
    journal
      ? "<\(level.syslogPriority)>\(level.name) \(message)\n"
      : "\(Platform.utcTimestamp()) \(level.name) \(message)\n"
  }
}
