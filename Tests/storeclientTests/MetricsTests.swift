import Foundation
import HTTPTestSupport
import Testing

/// `storeclient metrics` against the real host, read as Prometheus reads it: the text format
/// parsed line by line, every sample under a `# HELP` and `# TYPE`, counters named `_total`.
@Suite(
  .serialized, .timeLimit(.minutes(5)),
  .enabled(
    if: Binaries.available,
    "storehost and storeclient must be built next to the tests (run `swift build` first)"))
struct MetricsTests {
  /// One scrape, parsed.
  struct Scrape {
    var samples: [String: Double] = [:]
    var types: [String: String] = [:]
    var helps: Set<String> = []

    /// Parses the text exposition format (version 0.0.4), failing the test on any line that
    /// does not follow it.
    init(_ text: String) {
      let sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? (\S+)$/
      for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.isEmpty { continue }
        if line.hasPrefix("# HELP ") {
          let name = line.dropFirst(7).split(separator: " ")[0]
          self.helps.insert(String(name))
        } else if line.hasPrefix("# TYPE ") {
          let parts = line.dropFirst(7).split(separator: " ")
          #expect(parts.count == 2 && ["gauge", "counter"].contains(parts[1]), "\(line)")
          self.types[String(parts[0])] = String(parts[1])
        } else if let match = line.wholeMatch(of: sample) {
          let name = String(match.1)
          #expect(self.types[name] != nil && self.helps.contains(name), "no HELP/TYPE before: \(line)")
          if self.types[name] == "counter" { #expect(name.hasSuffix("_total"), "\(line)") }
          let value = Double(String(match.4))
          #expect(value != nil, "\(line)")
          self.samples[name + (match.2.map(String.init) ?? "")] = value
        } else {
          Issue.record("not the text format: \(line)")
        }
      }
    }
  }

  private func scrape(_ port: UInt16) throws -> (RawResponse, Scrape) {
    let response = try RawHTTPClient.exchange(
      "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", port: port)
    return (response, Scrape(String(decoding: response.body, as: UTF8.self)))
  }

  @Test func servesTheHostFiguresInThePrometheusTextFormat() async throws {
    let host = try await HostProcess(socketPath: makeTemporaryDirectory() + "/host.sock")
    let metrics = try ClientProcess(["metrics", "--socket", host.socketPath, "--listen", "127.0.0.1:0"])
    try await metrics.waitForLine { $0.contains("http://127.0.0.1:") }
    let line = try #require(metrics.output.lines.first { $0.contains("http://127.0.0.1:") })
    let port = try #require(URLComponents(string: line.trimmingCharacters(in: .whitespaces))?.port)

    let (response, before) = try self.scrape(UInt16(port))
    #expect(response.status == 200)
    #expect(response.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
    #expect(before.samples["storehost_up"] == 1)
    #expect(before.samples[#"storehost_info{app="examples"}"#] == 1)
    for name in [
      "storehost_connections", "storehost_subscriptions", "storehost_revision",
      "storehost_actions_reduced_total", "storehost_client_actions_total",
      "storehost_received_bytes_total", "storehost_sent_bytes_total", "storehost_uptime_seconds",
    ] {
      #expect(before.samples[name] != nil, "\(name) missing")
    }
    // What the host's memory holds, by holder (issue 27).
    for name in [
      "storehost_resident_bytes", "storehost_history_entries", "storehost_history_bytes",
      "storehost_change_log_bytes", "storehost_unfinished_frame_bytes",
    ] {
      #expect(before.samples[name] != nil, "\(name) missing")
    }
    #expect((before.samples["storehost_resident_bytes"] ?? 0) > 1_000_000)
    #expect(before.types["storehost_actions_reduced_total"] == "counter")
    #expect(before.samples.keys.contains { $0.hasPrefix("storehost_user_connections{uid=") })

    _ = try await storeclient(["send", "counter", #"{"incrementButtonTapped":{}}"#, "--socket", host.socketPath])
    let (_, after) = try self.scrape(UInt16(port))
    #expect(after.samples["storehost_client_actions_total"] == (before.samples["storehost_client_actions_total"] ?? 0) + 1)
    #expect((after.samples["storehost_revision"] ?? 0) > (before.samples["storehost_revision"] ?? 0))

    let wrongMethod = try RawHTTPClient.exchange(
      "POST /metrics HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 0\r\n\r\n", port: UInt16(port))
    #expect(wrongMethod.status == 405)

    // The host gone: up is 0 and no stale figure is served.
    try await host.terminate()
    let (_, down) = try self.scrape(UInt16(port))
    #expect(down.samples == ["storehost_up": 0])
    try await metrics.interrupt()
  }
}
