import Foundation
import Hosting
import Testing
import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The daemon as systemd runs it, with real processes: Debian's `systemd-socket-activate`
/// (which needs no systemd as PID 1) creates the socket and hands it over, a datagram socket
/// of the test's own stands in for `NOTIFY_SOCKET`, and a listening socket the test keeps
/// across two hosts shows that a restart loses no connection attempt.
@Suite(
  .serialized,
  .enabled(
    if: SocketActivate.path != nil || ProcessInfo.processInfo.environment["CI"] == "true",
    "systemd-socket-activate is not installed (Debian's systemd package); .ci/run installs it"))
struct SystemdTests {
  /// A fresh temporary directory, and the host's environment with `extra`.
  private func setUp(_ extra: [String: String] = [:]) -> (directory: String, environment: [String: String]) {
    var environment = ["PATH": "/usr/bin:/bin", "SWIFT_BACKTRACE": "enable=no"]
    for (key, value) in extra { environment[key] = value }
    return (HostProcess.makeDirectory(), environment)
  }

  @Test func socketActivationServesThePassedSocketAndNotifiesSystemd() async throws {
    try await offThePool {
      let activate = try #require(SocketActivate.path, "systemd-socket-activate is missing")
      let (directory, environment) = self.setUp()
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let socketPath = directory + "/host.sock"
      let notify = try NotifySocket(path: directory + "/notify")
      let host = try ServiceProcess(
        [
          activate, "--listen=\(socketPath)", "--setenv=NOTIFY_SOCKET=\(notify.path)",
          "--setenv=WATCHDOG_USEC=400000", HostProcess.binaryPath, "--ephemeral",
          "--log-level", "debug",
        ],
        environment: environment, logPath: directory + "/host.log")
      try host.waitForLog("Listening on \(socketPath)")
      // The socket is the socket unit's: its mode is whatever the unit says, and the host, which
      // makes its own sockets 0600, leaves it so.
      #expect(chmod(socketPath, 0o660) == 0)

      // The first connection starts the host (systemd-socket-activate execs it then), and is
      // served: nothing queued before the host ran is lost.
      let client = try WireClient.greeted(path: socketPath)
      let ready = try notify.waitFor(line: "READY=1")
      #expect(ready.contains("STATUS=serving examples: revision "), "\(ready)")
      #expect(ready.contains("MAINPID=\(host.processID)"), "\(ready)")
      try notify.waitFor(line: "WATCHDOG=1")
      #expect(host.log.contains("passed by systemd"), "\(host.log)")
      var info = stat()
      #expect(stat(socketPath, &info) == 0 && info.st_mode & 0o777 == 0o660)

      // STATUS= follows the revision and the clients.
      let sent = try client.reply(
        to: #"{"type":"send","id":2,"scope":"counter","action":{"incrementButtonTapped":{}}}"#, id: 2)
      let revision = try #require(sent["rev"]?.int, "\(sent)")
      // (Effects may move the revision further before the next status: any later one will do.)
      _ = try notify.waitFor("a status at revision \(revision) or later, with 1 client") { message in
        guard let status = message.split(separator: "\n").first(where: { $0.hasPrefix("STATUS=serving") }),
          let number = status.split(separator: "revision ").last?.split(separator: ",").first.flatMap({ Int64($0) })
        else { return false }
        return number >= revision && status.hasSuffix(", 1 client")
      }

      kill(host.processID, SIGTERM)
      #expect(try client.expect("bye")["reason"] == .string("shutdown"))
      let stopping = try notify.waitFor(line: "STOPPING=1")
      #expect(stopping.contains("STATUS=stopping: saying bye to 1 client"), "\(stopping)")
      #expect(host.waitForExit() == 0, "\(host.log)")
      // The socket stays: it is the unit's, and takes connection attempts until the next start.
      #expect(FileManager.default.fileExists(atPath: socketPath))
      #expect(host.log.contains("stays with systemd"), "\(host.log)")
    }
  }

  @Test func aRestartLosesNoConnectionAttempt() async throws {
    try await offThePool {
      let (directory, environment) = self.setUp(["LISTEN_FDS": "1"])
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let socketPath = directory + "/host.sock"
      // The test holds the listening socket across both hosts, as systemd holds a socket unit's.
      let listener = try makeListeningSocket(at: socketPath)
      defer { close(listener) }
      let command = ServiceProcess.withListenPID([
        HostProcess.binaryPath, "--data", directory + "/data", "--log-level", "debug",
      ])

      let first = try ServiceProcess(
        command, environment: environment, passing: [listener], logPath: directory + "/first.log")
      let early = try WireClient.greeted(path: socketPath)
      _ = try early.reply(
        to: #"{"type":"send","id":2,"scope":"counter","action":{"incrementButtonTapped":{}}}"#, id: 2)
      kill(first.processID, SIGTERM)
      #expect(try early.expect("bye")["reason"] == .string("shutdown"))
      #expect(first.waitForExit() == 0, "\(first.log)")
      #expect(FileManager.default.fileExists(atPath: socketPath), "the socket stays with its owner")

      // No host runs: the connection and its hello wait in the socket's backlog…
      let waiting = try WireClient(path: socketPath)
      try waiting.send(#"{"type":"hello","protocol":1,"client":"hosting-tests"}"#)

      // …and the next host answers them, with the state the first one acknowledged.
      let second = try ServiceProcess(
        command, environment: environment, passing: [listener], logPath: directory + "/second.log")
      _ = try waiting.expect("welcome", timeout: 60)
      let counter = try waiting.reply(to: #"{"type":"get","id":3,"scope":"counter"}"#, id: 3)
      #expect(counter["state"]?["count"]?.int == 1, "\(counter)")
      #expect(second.log.contains("passed by systemd"), "\(second.log)")
      kill(second.processID, SIGTERM)
      #expect(second.waitForExit() == 0, "\(second.log)")
    }
  }

  @Test func aMisconfiguredUnitIsRefusedInWords() async throws {
    try await offThePool {
      let (directory, environment) = self.setUp()
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let socketPath = directory + "/host.sock"
      let listener = try makeListeningSocket(at: socketPath)
      defer { close(listener) }
      let host = [HostProcess.binaryPath, "--ephemeral"]
      let cases: [(environment: [String: String], arguments: [String], passing: [Int32], says: String)] = [
        (["LISTEN_FDS": "2"], [], [listener, listener], "systemd passed 2 sockets"),
        (["LISTEN_FDS": "1"], ["--socket", directory + "/other.sock"], [listener], "leave --socket out"),
        (["LISTEN_FDS": "1"], [], [0], "the socket systemd passed cannot be served"),
        (["WATCHDOG_USEC": "soon"], [], [], "WATCHDOG_USEC is 'soon'"),
      ]
      for (index, test) in cases.enumerated() {
        let process = try ServiceProcess(
          ServiceProcess.withListenPID(host + test.arguments),
          environment: environment.merging(test.environment) { $1 }, passing: test.passing,
          logPath: directory + "/refused-\(index).log")
        #expect(process.waitForExit() == 1, "\(test.says): \(process.log)")
        #expect(process.log.contains(test.says), "\(process.log)")
        #expect(!process.log.contains("Fatal error"), "\(process.log)")
      }
    }
  }

  @Test func logLinesForTheJournalCarryPrioritiesInsteadOfTimestamps() async throws {
    try await offThePool {
      let (directory, environment) = self.setUp()
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let socketPath = directory + "/host.sock"
      // JOURNAL_STREAM names stderr's own device and inode, as systemd sets it; a stale one
      // (stderr redirected since) is ignored.
      let script = #"JOURNAL_STREAM=$(stat -L -c %d:%i /proc/self/fd/2) exec "$0" "$@""#
      for (name, prefix) in [("journal", script), ("stale", #"JOURNAL_STREAM=1:1 exec "$0" "$@""#)] {
        let host = try ServiceProcess(
          ["/bin/sh", "-c", prefix, HostProcess.binaryPath, "--ephemeral", "--socket", socketPath],
          environment: environment, logPath: directory + "/\(name).log")
        try host.waitForLog("listening on")
        kill(host.processID, SIGTERM)
        #expect(host.waitForExit() == 0, "\(host.log)")
        let lines = host.log.split(separator: "\n")
        #expect(!lines.isEmpty)
        if name == "journal" {
          #expect(lines.allSatisfy { $0.hasPrefix("<") && !$0.contains("Z ") }, "\(host.log)")
          #expect(lines.contains { $0.hasPrefix("<6>info listening on") }, "\(host.log)")
        } else {
          #expect(lines.allSatisfy { $0.first?.isNumber == true && $0.contains("Z ") }, "\(host.log)")
        }
      }
    }
  }

  @Test func sighupStopsTheHostCleanlyAsSigtermDoes() async throws {
    try await offThePool {
      let host = try HostProcess()
      let client = try WireClient.greeted(path: host.socketPath)
      kill(host.processID, SIGHUP)
      #expect(try client.expect("bye")["reason"] == .string("shutdown"))
      #expect(host.stop() == 0)
      #expect(!FileManager.default.fileExists(atPath: host.socketPath))
      #expect(host.stderr.contains("SIGHUP received: stopping"), "\(host.stderr)")
    }
  }

  @Test func theEnvironmentIsReadAsSdListenFdsReadsIt() throws {
    let own: Int32 = 4242
    let passed = try SystemdService.fromEnvironment(
      ["LISTEN_FDS": "1", "LISTEN_PID": "4242", "NOTIFY_SOCKET": "@notify", "WATCHDOG_USEC": "3000000"],
      processID: own)
    #expect(passed.listeningDescriptor == 3)
    #expect(passed.notifySocket == "@notify")
    #expect(passed.watchdogInterval == .seconds(3))
    // Variables meant for another process (a parent's, inherited) are ignored.
    let inherited = try SystemdService.fromEnvironment(
      ["LISTEN_FDS": "1", "LISTEN_PID": "1", "WATCHDOG_USEC": "3000000", "WATCHDOG_PID": "1"],
      processID: own)
    #expect(inherited == SystemdService())
    #expect(!inherited.isActive)
    #expect(throws: HostStartError.self) {
      try SystemdService.fromEnvironment(["LISTEN_FDS": "x", "LISTEN_PID": "4242"], processID: own)
    }
  }
}

/// Debian's `systemd-socket-activate`, when installed.
enum SocketActivate {
  static let path: String? = ["/usr/bin/systemd-socket-activate", "/bin/systemd-socket-activate"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Runs `body`, which blocks on processes and sockets, on a thread of its own rather than on
/// one of Swift's cooperative threads (two on a 2-core machine), which the in-process hosts of
/// other suites running meanwhile need. An expectation that fails in `body` fails the run (it
/// is reported without its test's name: the thread has no task-local test).
func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread { continuation.resume(with: Result { try body() }) }
    thread.stackSize = 1 << 20
    thread.start()
  }
}
