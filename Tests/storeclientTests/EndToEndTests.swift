import Foundation
import Testing
import Wire

/// The real `storeclient` binary against the real `storehost` daemon, each on a fresh socket.
@Suite(
  .serialized, .timeLimit(.minutes(5)),
  .enabled(
    if: Binaries.available,
    "storehost and storeclient must be built next to the tests (run `swift build` first); set STOREHOST_BINARY to use another host"))
struct EndToEndTests {
  /// Starts a host on a fresh socket, runs `body`, stops the host.
  private func withHost(_ body: (HostProcess) async throws -> Void) async throws {
    let host = try await HostProcess(socketPath: makeTemporaryDirectory() + "/host.sock")
    do {
      try await body(host)
    } catch {
      try? await host.terminate()
      throw error
    }
    try await host.terminate()
  }

  private func count(_ host: HostProcess) async throws -> Int64? {
    let result = try await storeclient(["get", "counter", "--socket", host.socketPath])
    guard case .object(let state) = try JSON(parsing: result.output), case .int(let count) = state["count"] else {
      return nil
    }
    return count
  }

  // MARK: - scopes, get, ping

  @Test func scopesPrintsATableOfPatterns() async throws {
    try await self.withHost { host in
      let result = try await storeclient(["--socket", host.socketPath, "scopes"])
      #expect(result.status == 0)
      let lines = result.outputLines
      #expect(lines.first?.hasPrefix("PATTERN") == true && lines.first?.contains("WRITABLE  DESCRIPTION") == true)
      #expect(lines.contains { $0.hasPrefix("counter ") && $0.contains(" yes ") })
      #expect(lines.contains { $0.hasPrefix("_host ") && $0.contains(" no ") })
      let json = try await storeclient(["scopes", "--json", "--socket", host.socketPath])
      guard case .array(let scopes) = try JSON(parsing: json.output) else {
        Issue.record("scopes --json is not an array: \(json.output)")
        return
      }
      #expect(scopes.count == lines.count - 1)
    }
  }

  @Test func getPrintsCompactJSONWhenPipedAndPrettyOnRequest() async throws {
    try await self.withHost { host in
      let compact = try await storeclient(["get", "counter", "--socket", host.socketPath])
      #expect(compact.status == 0)
      #expect(compact.outputLines.count == 1)
      #expect(compact.output.hasPrefix(#"{"count":0"#))
      let pretty = try await storeclient(["get", "counter", "--pretty", "--socket", host.socketPath])
      #expect(pretty.output.hasPrefix("{\n  \"count\": 0,\n"))
      #expect(try JSON(parsing: pretty.output) == JSON(parsing: compact.output))
    }
  }

  @Test func hostErrorsExitOneAndNoHostExitsSixtyNine() async throws {
    try await self.withHost { host in
      let unknown = try await storeclient(["get", "countr", "--socket", host.socketPath])
      #expect(unknown.status == 1)
      #expect(unknown.output.isEmpty)
      #expect(unknown.errors.hasPrefix("Error: ") && unknown.errors.contains("'countr'"), "\(unknown.errors)")
      let refused = try await storeclient(["send", "counter", #"{"explode":{}}"#, "--socket", host.socketPath])
      #expect(refused.status == 1)
      #expect(refused.errors.hasPrefix("Error: ") && refused.errors.hasSuffix("(bad_action)\n"), "\(refused.errors)")
      let readOnly = try await storeclient(["send", "_host", "{}", "--socket", host.socketPath])
      #expect(readOnly.status == 1 && readOnly.errors.contains("(forbidden)"), "\(readOnly.errors)")
    }
    let path = makeTemporaryDirectory() + "/none.sock"
    for arguments in [["get", "counter"], ["scopes"], ["ping"], ["watch", "counter"], ["send", "counter", "{}"], ["bench"]] {
      let result = try await storeclient(arguments + ["--socket", path])
      #expect(result.status == 69, "\(arguments)")
      #expect(result.errors == "Error: no host is listening on \(path) — start one with `storehost --socket \(path)`\n")
    }
  }

  @Test func pingReportsTheRoundTrip() async throws {
    try await self.withHost { host in
      let one = try await storeclient(["ping", "--socket", host.socketPath])
      #expect(one.status == 0)
      #expect(one.outputLines.count == 1)
      #expect(one.output.hasPrefix("pong from storehost/") && one.output.contains(" in "), "\(one.output)")
      let three = try await storeclient(["ping", "-c", "3", "--socket", host.socketPath])
      #expect(three.outputLines.count == 4)
      #expect(three.outputLines.last?.hasPrefix("3 pings: min ") == true)
    }
  }

  // MARK: - send

  @Test func sendPrintsTheRevisionAndTheStateFollows() async throws {
    try await self.withHost { host in
      let first = try await storeclient(["send", "counter", #"{"incrementButtonTapped":{}}"#, "--socket", host.socketPath])
      #expect(first.status == 0)
      let rev = try #require(Int64(first.output.trimmingCharacters(in: .newlines)), "not a revision: \(first.output)")
      let second = try await storeclient(["--socket", host.socketPath, "send", "counter", #"{"incrementButtonTapped":{}}"#])
      #expect(Int64(second.output.trimmingCharacters(in: .newlines)) == rev + 1)
      #expect(try await self.count(host) == 2)
      let quiet = try await storeclient(["send", "counter", #"{"decrementButtonTapped":{}}"#, "--no-wait", "--socket", host.socketPath])
      #expect(quiet.status == 0 && quiet.output.isEmpty)
      #expect(try await self.count(host) == 1)
    }
  }

  @Test func sendDashReadsOneActionPerLineFromStandardInput() async throws {
    try await self.withHost { host in
      let input = """
        {"incrementButtonTapped":{}}
        {"incrementButtonTapped":{}}

        {"explode":{}}
        {"incrementButtonTapped":{}}

        """
      let result = try await storeclient(["send", "counter", "-", "--socket", host.socketPath], input: input)
      #expect(result.status == 1, "a refused line makes the run fail")
      let revisions = result.outputLines.compactMap { Int64($0) }
      #expect(revisions.count == 3 && result.outputLines.count == 3)
      #expect(revisions == revisions.sorted() && Set(revisions).count == 3)
      #expect(result.errors.contains("Error: line 4: "), "\(result.errors)")
      #expect(result.errors.hasSuffix("Error: 1 action was not accepted\n"))
      #expect(try await self.count(host) == 3)
      let clean = try await storeclient(["send", "counter", "-", "--no-wait", "--socket", host.socketPath], input: String(repeating: "{\"decrementButtonTapped\":{}}\n", count: 3))
      #expect(clean.status == 0 && clean.output.isEmpty)
      #expect(try await self.count(host) == 0)
      let bad = try await storeclient(["send", "counter", "-", "--socket", host.socketPath], input: "{\"incrementButtonTapped\":{}}\n{oops\n")
      #expect(bad.status == 64)
      #expect(bad.errors.hasPrefix("Error: The value for 'line 2 of standard input' is not valid JSON: "), "\(bad.errors)")
    }
  }

  // MARK: - watch

  @Test func watchPrintsTheSnapshotThenOneLinePerChange() async throws {
    try await self.withHost { host in
      let watch = try ClientProcess(["watch", "counter", "--socket", host.socketPath])
      try await watch.waitForLine { $0.hasPrefix("rev ") && $0.contains(#"{"count":0"#) }
      let rev = try await storeclient(["send", "counter", #"{"incrementButtonTapped":{}}"#, "--socket", host.socketPath])
      let expected = "rev \(rev.output.trimmingCharacters(in: .newlines))  /count: 0 → 1"
      try await watch.waitForLine { $0 == expected }
      try await watch.interrupt()
      #expect(watch.output.lines.count == 2, "\(watch.output.text)")
    }
  }

  @Test func watchOncePrintsTheStateNowAndExits() async throws {
    try await self.withHost { host in
      _ = try await storeclient(["send", "counter", #"{"incrementButtonTapped":{}}"#, "--socket", host.socketPath])
      let once = try await storeclient(["watch", "counter", "todos", "--once", "--socket", host.socketPath])
      let lines = once.output.split(separator: "\n").map(String.init)
      #expect(lines.count == 2, "one line per scope: \(once.output)")
      #expect(lines.contains { $0.hasPrefix("counter  rev ") && $0.contains(#""count":1"#) })
      #expect(lines.contains { $0.hasPrefix("todos  rev ") })
    }
  }

  @Test func watchFormatsJSONAndPatchAndStopsAfterOneChangeWithNextChange() async throws {
    try await self.withHost { host in
      let json = try ClientProcess(["watch", "counter", "--format", "json", "--next-change", "--socket", host.socketPath])
      let patch = try ClientProcess(["watch", "counter", "--format", "patch", "--socket", host.socketPath])
      try await json.waitForLine { $0.hasPrefix(#"{"count":0"#) }
      try await patch.waitForLine { $0.hasPrefix(#"{"scope":"counter","rev":"#) }
      _ = try await storeclient(["send", "counter", #"{"incrementButtonTapped":{}}"#, "--socket", host.socketPath])
      #expect(try await json.wait() == 0, "--next-change exits after the first change")
      let lines = json.output.lines
      #expect(lines.count == 2)
      #expect(try JSON(parsing: lines[1]) == JSON(parsing: (try await storeclient(["get", "counter", "--socket", host.socketPath])).output))
      try await patch.waitForLine { $0.contains(#""ops":[{"op":"replace","path":"/count","value":1}]"#) }
      try await patch.interrupt()
    }
  }

  @Test func watchKeepsWatchingAcrossAHostRestart() async throws {
    let directory = makeTemporaryDirectory()
    let path = directory + "/host.sock"
    let first = try await HostProcess(socketPath: path)
    let watch = try ClientProcess(["watch", "counter", "--socket", path])
    let once = try ClientProcess(["watch", "counter", "--no-reconnect", "--socket", path])
    try await watch.waitForLine { $0.contains(#"{"count":0"#) }
    try await once.waitForLine { $0.contains(#"{"count":0"#) }
    _ = try await storeclient(["send", "counter", #"{"incrementButtonTapped":{}}"#, "--socket", path])
    try await watch.waitForLine { $0.hasSuffix("/count: 0 → 1") }
    try await first.terminate()
    #expect(try await once.wait() == 1, "--no-reconnect ends with the connection")
    #expect(once.errors.text == "Error: the host closed the connection (shutdown)\n")
    let second = try await HostProcess(socketPath: path)
    try await waitUntil("watch reconnects") { watch.errors.text.contains("reconnected") }
    _ = try await storeclient(["send", "counter", #"{"incrementButtonTapped":{}}"#, "--socket", path])
    try await waitUntil("watch prints the change after the restart") {
      watch.output.lines.filter { $0.hasSuffix("/count: 0 → 1") }.count == 2
    }
    #expect(watch.isRunning)
    let lines = watch.output.lines
    #expect(lines.count == 4, "snapshot, change, fresh snapshot, change: \(lines)")
    #expect(lines[2].contains(#"{"count":0"#))
    #expect(watch.errors.text.contains("the host closed the connection (shutdown); reconnecting…"))
    try await watch.interrupt()
    try await second.terminate()
  }

  // MARK: - bench

  @Test func benchReportsAndVerifiesNothingWasLost() async throws {
    try await self.withHost { host in
      let result = try await storeclient([
        "bench", "--clients", "2", "--actions", "150", "--watchers", "2", "--json", "--socket", host.socketPath,
      ])
      #expect(result.status == 0, "\(result.output)\(result.errors)")
      guard case .object(let report) = try JSON(parsing: result.output) else {
        Issue.record("not a JSON object: \(result.output)")
        return
      }
      for key in ["clients", "actions", "seconds", "actions_per_s", "ack_p50_us", "ack_p99_us", "patch_p50_us", "patch_p99_us", "errors", "lost"] {
        #expect(report[key] != nil, "missing \(key)")
      }
      #expect(report["clients"] == .int(2) && report["actions"] == .int(300))
      #expect(report["errors"] == .int(0) && report["lost"] == .int(0) && report["verified"] == .bool(true))
      if case .double(let p50) = report["patch_p50_us"] { #expect(p50 > 0) } else { Issue.record("no patch latency") }
      let text = try await storeclient(["bench", "--actions", "100", "--ack", "end", "--pipeline", "10", "--socket", host.socketPath])
      #expect(text.status == 0)
      #expect(text.outputLines.first == #"bench: 1 client × 100 actions to counter {"incrementButtonTapped":{}}, ack end (batches of 10), 0 watchers"#)
      #expect(text.outputLines.last == "  verified: the count moved by 100, exactly the 100 actions acknowledged — nothing lost")
    }
  }

  @Test func benchSendsExactlyTheActionsPerClientItReports() async throws {
    try await self.withHost { host in
      for mode in [["--ack", "every"], ["--ack", "end", "--pipeline", "7"]] {
        let before = try #require(try await self.count(host))
        let result = try await storeclient(
          ["bench", "--clients", "4", "--actions", "50", "--json", "--socket", host.socketPath] + mode)
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        let after = try #require(try await self.count(host))
        // The probe that checks the action first is one of the 200, not a 201st.
        #expect(after - before == 200, "\(mode): the count moved by \(after - before)")
        guard case .object(let report) = try JSON(parsing: result.output) else {
          Issue.record("not a JSON object: \(result.output)")
          continue
        }
        #expect(report["actions"] == .int(200) && report["verified"] == .bool(true), "\(mode)")
      }
    }
  }

  @Test func benchFailsWhenTheHostIsKilledMidRun() async throws {
    let path = makeTemporaryDirectory() + "/host.sock"
    let first = try await HostProcess(socketPath: path)
    // Warm the counter up so that a restarted host's fresh count cannot match by chance.
    _ = try await storeclient(["send", "counter", #"{"set":{"_0":1000}}"#, "--socket", path])
    let bench = try ClientProcess(["bench", "--clients", "2", "--duration", "30", "--socket", path])
    try await waitUntil("the bench is running") { bench.errors.text.contains("bench: ") || bench.output.text.contains("bench: ") }
    try await Task.sleep(for: .milliseconds(500))
    try await first.crash()
    let second = try await HostProcess(socketPath: path)
    let status = try await bench.wait()
    #expect(status == 1)
    let output = bench.output.text
    #expect(output.contains("LOST: "), "\(output)")
    #expect(output.contains("a sender lost its connection"), "\(output)")
    #expect(bench.errors.text.contains("acknowledged actions were lost"), "\(bench.errors.text)")
    try await second.terminate()
  }

  // MARK: - help and usage

  @Test func helpAndUsageErrors() async throws {
    let root = try await storeclient(["--help"])
    #expect(root.status == 0 && root.output.hasPrefix("OVERVIEW: ") && root.errors.isEmpty)
    #expect(try await storeclient([]).output == root.output)
    for name in ["scopes", "get", "watch", "send", "ping", "bench"] {
      let help = try await storeclient([name, "--help"])
      #expect(help.status == 0 && help.output.contains("USAGE: storeclient \(name)"))
      #expect(try await storeclient(["help", name]).output == help.output)
      #expect(try await storeclient([name, "-h"]).output == help.output)
    }
    let unknown = try await storeclient(["frobnicate"])
    #expect(unknown.status == 64)
    #expect(unknown.errors.hasPrefix("Error: Unknown command 'frobnicate'\nThe commands: scopes, actions, get, "), "\(unknown.errors)")
    #expect(unknown.errors.hasSuffix("\nUsage: storeclient <subcommand>\n  See 'storeclient --help' for more information.\n"))
    let option = try await storeclient(["get", "counter", "--bogus"])
    #expect(option.status == 64)
    // Not a terminal and no COLUMNS: the usage line is wrapped to 80 columns.
    #expect(option.errors == "Error: Unknown option '--bogus'\nUsage: storeclient get [--socket <path>] [--at <rev>] [--compact] [--pretty]\n                       <scope>\n  See 'storeclient get --help' for more information.\n")
    let json = try await storeclient(["send", "counter", #"{"set":{"_0" 5}}"#])
    #expect(json.status == 64)
    #expect(json.errors.hasSuffix("  {\"set\":{\"_0\" 5}}\n               ^\nUsage: storeclient send [--socket <path>] [--no-wait] <scope> <action-json>\n  See 'storeclient send --help' for more information.\n"), "\(json.errors)")
    let missing = try await storeclient(["send", "counter"])
    #expect(missing.status == 64 && missing.errors.hasPrefix("Error: Missing expected argument '<action-json>'\n"))
    #expect(try await storeclient(["--version"]).output == "storeclient \(PackageVersion.current)\n")
  }
}
