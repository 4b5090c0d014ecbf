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
@usableFromInline
struct HostLogger: Sendable {
  let level: LogLevel

  @usableFromInline
  init(level: LogLevel) {
    self.level = level
  }

  @usableFromInline
  func callAsFunction(_ level: LogLevel, _ message: @autoclosure () -> String) {
    guard level >= self.level else { return }
    Platform.writeStandardError("\(Platform.utcTimestamp()) \(level.name) \(message())\n")
  }
}
