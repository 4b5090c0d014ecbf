import Wire

/// The figures `storeclient bench` reports, and their text and JSON forms.
struct BenchReport: Sendable {
  var options: BenchOptions
  var measurements: BenchRun.Measurements
  var verification: BenchVerification

  /// Acknowledged actions per second.
  var actionsPerSecond: Double {
    self.measurements.seconds > 0 ? Double(self.measurements.confirmed) / self.measurements.seconds : 0
  }

  /// Refused actions, lost connections and watcher problems.
  var errors: Int { self.measurements.refused + self.measurements.problems.count }

  /// Whether the run passed: nothing lost, nothing refused.
  var passed: Bool { self.verification.verified && self.errors == 0 }

  private func ack(_ percentile: Double) -> UInt64? {
    BenchStatistics.percentile(percentile, of: self.measurements.ackLatencies)
  }

  private func patch(_ percentile: Double) -> UInt64? {
    BenchStatistics.percentile(percentile, of: self.measurements.patchLatencies)
  }

  private func perAction(_ bytes: UInt64) -> Double {
    self.measurements.confirmed > 0 ? Double(bytes) / Double(self.measurements.confirmed) : 0
  }

  /// The one-line description of the load, e.g.
  /// `16 clients × 10,000 actions to counter {"incrementButtonTapped":{}}, ack every, 0 watchers`.
  static func header(_ options: BenchOptions) -> String {
    let length: String =
      switch options.length {
      case .actions(let count): "\(Durations.grouped(count)) actions"
      case .duration(let seconds): "\(Durations.fixed(seconds, seconds == seconds.rounded() ? 0 : 2)) s"
      }
    let clients = options.clients == 1 ? "1 client" : "\(Durations.grouped(options.clients)) clients"
    let ack = options.ack == .every ? "ack every" : "ack end (batches of \(options.pipeline))"
    let rate = options.rate.map { ", \(Durations.grouped(Int($0))) actions/s" } ?? ""
    let watchers = options.watchers == 1 ? "1 watcher" : "\(options.watchers) watchers"
    return "bench: \(clients) × \(length) to \(options.scope) \(options.action.compactString), \(ack)\(rate), \(watchers)"
  }

  /// The report for people.
  var text: [String] {
    let m = self.measurements
    func us(_ value: UInt64?) -> String {
      value.map { Durations.describe(nanoseconds: Double($0)) } ?? "-"
    }
    var lines = [
      "  actions        \(Durations.grouped(m.confirmed)) acknowledged in \(Durations.fixed(m.seconds, 2)) s = \(Durations.grouped(Int(self.actionsPerSecond.rounded()))) actions/s",
      "  ack latency    p50 \(us(self.ack(50)))  p90 \(us(self.ack(90)))  p99 \(us(self.ack(99)))  max \(us(m.ackLatencies.last))"
        + (self.options.ack == .end ? "  (per batch of \(self.options.pipeline))" : ""),
    ]
    if self.options.watchers > 0 {
      if m.patchLatencies.isEmpty {
        lines.append("  patch latency  - (measured with --ack every)")
      } else {
        lines.append(
          "  patch latency  p50 \(us(self.patch(50)))  p99 \(us(self.patch(99)))  max \(us(m.patchLatencies.last))  (send → patch, \(Durations.grouped(m.patchLatencies.count)) deliveries)")
      }
    }
    var bytes = "  bytes/action   sent \(Durations.fixed(self.perAction(m.bytesSent), 1)), received \(Durations.fixed(self.perAction(m.bytesReceived), 1))"
    if self.options.watchers > 0 {
      bytes += "; patches \(Durations.fixed(self.perAction(m.watcherBytes) / Double(self.options.watchers), 1)) per watcher"
    }
    lines.append(bytes)
    lines.append("  errors         \(self.errors)" + (m.refused > 0 ? " (\(m.refused) refused by the host)" : ""))
    for problem in m.problems.prefix(5) { lines.append("    \(problem)") }
    lines.append("  " + self.verification.message)
    return lines
  }

  /// The report for machines: one JSON object.
  var json: JSON {
    let m = self.measurements
    func us(_ value: UInt64?) -> JSON {
      value.map { .double((Double($0) / 100).rounded() / 10) } ?? .null
    }
    func number(_ value: Double, _ digits: Double = 10) -> JSON {
      .double((value * digits).rounded() / digits)
    }
    let seconds: JSON =
      switch self.options.length {
      case .actions: .null
      case .duration(let seconds): .double(seconds)
      }
    var object: JSONObject = [:]
    object["clients"] = .int(Int64(self.options.clients))
    object["watchers"] = .int(Int64(self.options.watchers))
    object["scope"] = .string(self.options.scope)
    object["ack"] = .string(self.options.ack.rawValue)
    object["duration"] = seconds
    object["sent"] = .int(Int64(m.sent))
    object["actions"] = .int(Int64(m.confirmed))
    object["seconds"] = number(m.seconds, 1000)
    object["actions_per_s"] = number(self.actionsPerSecond, 1)
    object["ack_p50_us"] = us(self.ack(50))
    object["ack_p90_us"] = us(self.ack(90))
    object["ack_p99_us"] = us(self.ack(99))
    object["ack_max_us"] = us(m.ackLatencies.last)
    object["patch_p50_us"] = us(self.patch(50))
    object["patch_p99_us"] = us(self.patch(99))
    object["patch_max_us"] = us(m.patchLatencies.last)
    object["patches"] = .int(Int64(m.patchesReceived))
    object["bytes_sent_per_action"] = number(self.perAction(m.bytesSent))
    object["bytes_received_per_action"] = number(self.perAction(m.bytesReceived))
    object["patch_bytes_per_action"] =
      self.options.watchers > 0
      ? number(self.perAction(m.watcherBytes) / Double(self.options.watchers)) : .null
    object["errors"] = .int(Int64(self.errors))
    object["lost"] = self.verification.lost.map { .int(Int64($0)) } ?? .null
    object["verified"] = .bool(self.verification.verified)
    object["verification"] = .string(self.verification.message)
    return .object(object)
  }
}
