import Wire

/// The host's `_host` figures in Prometheus's text exposition format (version 0.0.4), with the
/// names and units Prometheus's conventions give them: `storehost_` first, base units
/// (seconds, bytes), `_total` on counters.
///
/// ```
/// # HELP storehost_up Whether the host answered this scrape (1) or could not be reached (0).
/// # TYPE storehost_up gauge
/// storehost_up 1
/// # HELP storehost_actions_reduced_total Actions reduced since the host started …
/// # TYPE storehost_actions_reduced_total counter
/// storehost_actions_reduced_total 1234
/// ```
///
/// A host that cannot be reached gives `storehost_up 0` and nothing else, so that an alert on
/// `storehost_up == 0` fires and no stale figure is served as current.
enum PrometheusExposition {
  /// The `Content-Type` of the format.
  static let contentType = "text/plain; version=0.0.4; charset=utf-8"

  /// One metric: its name, type, help text and the `_host` member it is read from.
  struct Metric {
    let name: String
    let type: String
    let help: String
    let member: String
  }

  /// The figures exported, in the order served.
  static let metrics: [Metric] = [
    Metric(
      name: "storehost_connections", type: "gauge", help: "Clients connected now.",
      member: "connections"),
    Metric(
      name: "storehost_subscriptions", type: "gauge",
      help: "Scope subscriptions open now, over all clients.", member: "subscriptions"),
    Metric(
      name: "storehost_revision", type: "gauge",
      help: "The root state's revision: one more for each action reduced, kept across restarts by a durable host.",
      member: "revision"),
    Metric(
      name: "storehost_actions_reduced_total", type: "counter",
      help: "Actions reduced since the host started (from clients, effects and the host).",
      member: "actionsReduced"),
    Metric(
      name: "storehost_client_actions_total", type: "counter",
      help: "Actions clients sent since the host started.", member: "actionsFromClients"),
    Metric(
      name: "storehost_actions_per_second", type: "gauge",
      help: "Actions reduced in the last second, as the host counts them.",
      member: "actionsPerSecond"),
    Metric(
      name: "storehost_received_bytes_total", type: "counter",
      help: "Bytes read from clients since the host started.", member: "bytesIn"),
    Metric(
      name: "storehost_sent_bytes_total", type: "counter",
      help: "Bytes written to clients since the host started.", member: "bytesOut"),
    Metric(
      name: "storehost_uptime_seconds", type: "gauge",
      help: "Seconds since the host started.", member: "uptimeSeconds"),
  ]

  /// The figures of the `_host` state's `memory`: what each holder the host bounds in bytes
  /// keeps (README, "How much memory a host needs").
  static let memoryMetrics: [Metric] = [
    Metric(
      name: "storehost_resident_bytes", type: "gauge",
      help: "The host's resident set size (RSS).", member: "residentBytes"),
    Metric(
      name: "storehost_history_entries", type: "gauge",
      help: "History entries kept in memory.", member: "historyEntries"),
    Metric(
      name: "storehost_history_bytes", type: "gauge",
      help: "Bytes the history in memory holds (estimated; bounded by --history-memory).",
      member: "historyBytes"),
    Metric(
      name: "storehost_change_log_bytes", type: "gauge",
      help: "Bytes the change logs of watched collections keep (estimated; bounded by --change-log-memory).",
      member: "changeLogBytes"),
    Metric(
      name: "storehost_unfinished_frame_bytes", type: "gauge",
      help: "Bytes of frames begun but not complete (bounded by --max-buffered).",
      member: "unfinishedFrameBytes"),
  ]

  /// The exposition of `figures` (the `_host` scope's state), or of an unreachable host when
  /// `figures` is `nil`.
  ///
  /// - Parameters:
  ///   - figures: The `_host` state, or `nil`.
  ///   - app: The app the host serves, as the `app` label of `storehost_info`.
  /// - Returns: The text to serve.
  static func text(figures: JSON?, app: String?) -> String {
    var text = ""
    func family(_ name: String, _ type: String, _ help: String) {
      text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }
    family("storehost_up", "gauge", "Whether the host answered this scrape (1) or could not be reached (0).")
    guard case .object(let object)? = figures else {
      text += "storehost_up 0\n"
      return text
    }
    text += "storehost_up 1\n"
    if let app {
      family("storehost_info", "gauge", "The app the host serves, as a label; always 1.")
      text += "storehost_info{app=\"\(self.escaped(app))\"} 1\n"
    }
    func samples(_ metrics: [Metric], from members: JSONObject) {
      for metric in metrics {
        guard let value = members[metric.member].flatMap(self.number) else { continue }
        family(metric.name, metric.type, metric.help)
        text += "\(metric.name) \(value)\n"
      }
    }
    samples(self.metrics, from: object)
    if case .object(let memory)? = object["memory"] { samples(self.memoryMetrics, from: memory) }
    if case .array(let users)? = object["connectionsByUser"] {
      family(
        "storehost_user_connections", "gauge",
        "Clients connected now, by user id and role (ro: read-only, rw: read-write).")
      for case .object(let user) in users {
        guard let uid = user["uid"].flatMap(self.number),
          case .string(let role)? = user["role"],
          let count = user["connections"].flatMap(self.number)
        else { continue }
        text += "storehost_user_connections{uid=\"\(uid)\",role=\"\(self.escaped(role))\"} \(count)\n"
      }
    }
    return text
  }

  /// A number as the format writes it.
  private static func number(_ json: JSON) -> String? {
    switch json {
    case .int(let value): String(value)
    case .double(let value) where value.isFinite: String(value)
    default: nil
    }
  }

  /// A label value with `\`, `"` and newlines escaped, as the format requires.
  private static func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "\\": result += "\\\\"
      case "\"": result += "\\\""
      case "\n": result += "\\n"
      default: result.append(character)
      }
    }
    return result
  }
}
