import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failure of the test harness (a server that would not start, a condition never met).
public struct HarnessError: Error, CustomStringConvertible {
  /// What went wrong.
  public let description: String
  /// Creates an error.
  public init(_ description: String) { self.description = description }
}

/// Where `nats-server` is, and whether tests that need it must run.
public enum NATSServerBinary {
  /// The `nats-server` executable: `$NATS_SERVER`, Debian's `/usr/sbin/nats-server`, or one on
  /// the `PATH`; `nil` when there is none.
  public static let path: String? = {
    let environment = ProcessInfo.processInfo.environment
    var candidates = [environment["NATS_SERVER"], "/usr/sbin/nats-server", "/usr/bin/nats-server"]
    candidates += (environment["PATH"] ?? "").split(separator: ":").map { "\($0)/nats-server" }
    return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  /// CI must run the tests that need a server: there a missing one is a failure, not a skip.
  public static var mustRun: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

  /// Whether the tests that need a server run here (always in CI, where a missing server then
  /// fails them).
  public static var isAvailable: Bool { Self.path != nil || Self.mustRun }

  /// Why they are skipped.
  public static let skipReason =
    "Skipped: nats-server was not found (Debian's nats-server package; .ci/run installs it, or set NATS_SERVER) — CI always runs these tests"
}

/// Waits until `condition` holds, polling every 10 ms; throws after `timeout` seconds — a
/// generous bound for a loaded machine, never the expected duration.
public func waitUntil(
  _ what: String, timeout: Double = 60, _ condition: () async throws -> Bool
) async throws {
  let deadline = Date().addingTimeInterval(timeout)
  while Date() < deadline {
    if try await condition() { return }
    try await Task.sleep(for: .milliseconds(10))
  }
  throw HarnessError("timed out after \(timeout) s waiting until \(what)")
}

/// A temporary directory (`/tmp/nats-test-XXXXXX`).
public func makeTemporaryDirectory(_ prefix: String = "nats-test") -> String {
  var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
  let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
  return String(cString: path!)
}

/// TCP ports on the loopback interface that nothing listens on right now (another process may
/// take one before it is used: callers retry).
public func freeLoopbackPorts(_ count: Int) throws -> [Int] {
  var sockets: [Int32] = []
  defer { for fd in sockets { close(fd) } }
  var ports: [Int] = []
  for _ in 0..<count {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw HarnessError("socket failed: errno \(errno)") }
    sockets.append(fd)  // held open until all are chosen, so that they differ
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else { throw HarnessError("cannot find a free port: errno \(errno)") }
    ports.append(Int(UInt16(bigEndian: address.sin_port)))
  }
  return ports
}

/// One real `nats-server` process, configured by a file in its own temporary directory, its
/// output in a log file there, stopped by its process id (never by name).
public final class NATSServerProcess: Sendable {
  /// The server's name (`server_name`), e.g. `n1`.
  public let name: String
  /// The port clients connect to.
  public let clientPort: Int
  /// The directory holding the configuration, the log and the JetStream store.
  public let directory: String
  private let configurationFile: String
  private let logFile: String
  private let state = Mutex<(pid: pid_t?, exitStatus: Int32?)>((nil, nil))
  /// How many times the log said "Server is ready" before the last start.
  private let readyMarksBeforeStart = Mutex(0)

  /// `nats://127.0.0.1:<port>`.
  public var url: String { "nats://127.0.0.1:\(self.clientPort)" }

  /// Writes the configuration; ``start()`` starts the process.
  ///
  /// - Parameters:
  ///   - name: The server's name.
  ///   - clientPort: The client port.
  ///   - directory: A directory of its own.
  ///   - configuration: The rest of the configuration file (JetStream, cluster, limits).
  public init(name: String, clientPort: Int, directory: String, configuration: String) throws {
    self.name = name
    self.clientPort = clientPort
    self.directory = directory
    self.configurationFile = directory + "/server.conf"
    self.logFile = directory + "/server.log"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let text = """
      server_name: \(name)
      listen: 127.0.0.1:\(clientPort)
      \(configuration)

      """
    try text.write(toFile: self.configurationFile, atomically: true, encoding: .utf8)
  }

  /// Starts the process (again, after ``kill(_:)`` or ``stop()``: same ports, same store).
  public func start() throws {
    guard let binary = NATSServerBinary.path else {
      throw HarnessError(NATSServerBinary.skipReason)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, self.logFile, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let arguments = [binary, "-c", self.configurationFile]
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    self.readyMarksBeforeStart.withLock { $0 = self.readyMarks }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, binary, &actions, nil, argv, environ)
    guard result == 0 else { throw HarnessError("cannot start \(binary): errno \(result)") }
    self.state.withLock { $0 = (pid, nil) }
  }

  /// The process id while it runs.
  public var pid: pid_t? {
    self.isRunning ? self.state.withLock { $0.pid } : nil
  }

  /// Whether the process runs (reaping it when it has exited).
  public var isRunning: Bool {
    self.state.withLock { state in
      guard let pid = state.pid, state.exitStatus == nil else { return false }
      var status: Int32 = 0
      let result = waitpid(pid, &status, WNOHANG)
      guard result == pid || result < 0 else { return true }
      state.exitStatus = status
      return false
    }
  }

  /// Everything the server logged so far (across restarts).
  public var log: String {
    (try? String(contentsOfFile: self.logFile, encoding: .utf8)) ?? ""
  }

  /// Waits until the server logs that it is ready, or exits.
  ///
  /// - Returns: `true` when ready, `false` when it exited (e.g. its port was taken).
  public func waitUntilReady(timeout: Double = 60) async throws -> Bool {
    let before = self.readyMarksBeforeStart.withLock { $0 }
    try await waitUntil("nats-server \(self.name) is ready", timeout: timeout) {
      !self.isRunning || self.readyMarks > before
    }
    return self.isRunning
  }

  private var readyMarks: Int { self.log.components(separatedBy: "Server is ready").count - 1 }

  /// Sends `signal` (SIGKILL: a crash; SIGSTOP: a freeze) and, for a fatal one, waits until the
  /// process is gone.
  public func kill(_ signal: Int32 = SIGKILL) async throws {
    guard let pid = self.state.withLock({ $0.exitStatus == nil ? $0.pid : nil }) else { return }
    _ = signalProcess(pid, signal)
    if signal == SIGKILL || signal == SIGTERM || signal == SIGINT {
      try await waitUntil("nats-server \(self.name) exits") { !self.isRunning }
    }
  }

  /// Resumes a process stopped with SIGSTOP.
  public func resume() {
    guard let pid = self.pid else { return }
    _ = signalProcess(pid, SIGCONT)
  }

  /// Stops the process gracefully (SIGTERM, then SIGKILL if it lingers) and waits for it.
  public func stop() async throws {
    guard let pid = self.pid else { return }
    _ = signalProcess(pid, SIGCONT)
    _ = signalProcess(pid, SIGTERM)
    do {
      try await waitUntil("nats-server \(self.name) exits", timeout: 30) { !self.isRunning }
    } catch {
      try await self.kill(SIGKILL)
    }
  }

  deinit {
    // A test that failed before stopping its server must not leave it running.
    if let pid = self.state.withLock({ $0.exitStatus == nil ? $0.pid : nil }) {
      _ = signalProcess(pid, SIGKILL)
      var status: Int32 = 0
      _ = waitpid(pid, &status, 0)
    }
  }
}

/// `kill(2)`, out of reach of the methods named `kill`.
private func signalProcess(_ pid: pid_t, _ signal: Int32) -> Int32 {
  kill(pid, signal)
}
