import Foundation
import Synchronization
import Wire

/// A failure of the test harness itself (a timeout, a process that would not start).
struct HarnessError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The built products the end-to-end tests run: the real `storehost` and `storeclient`.
enum Binaries {
  /// The build directory: where the test bundle is, or up to two levels above it (the bundle
  /// may sit inside `X.xctest/` on Darwin).
  static func find(_ name: String) -> String? {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<3 {
      let candidate = directory.appendingPathComponent(name).path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
    return nil
  }

  /// The real daemon (`STOREHOST_BINARY` overrides where it is looked for).
  static let storehost: String? = {
    if let path = ProcessInfo.processInfo.environment["STOREHOST_BINARY"], !path.isEmpty {
      return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }
    return Self.find("storehost")
  }()

  /// The CLI under test.
  static let storeclient: String? = Self.find("storeclient")

  /// Whether both binaries are built (else the end-to-end tests are skipped, saying why).
  static var available: Bool { Self.storehost != nil && Self.storeclient != nil }
}

/// What a child process writes to one of its outputs, captured in a temporary file.
///
/// A file rather than a pipe: the child never blocks on a full pipe, nothing has to drain it
/// while the test runs, and tearing it down involves no dispatch source (clearing a pipe's
/// `readabilityHandler` while its file descriptor is closed crashed libdispatch now and then).
final class CapturedOutput: Sendable {
  /// The file's write end, to give the child as its `standardOutput` or `standardError`.
  let handle: FileHandle
  private let path: String

  init() {
    var template = Array("/tmp/sc-out-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    precondition(descriptor >= 0, "mkstemp failed: \(errno)")
    self.path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    self.handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
  }

  /// Everything written so far.
  var text: String {
    let data = FileManager.default.contents(atPath: self.path) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  /// Everything written so far, as bytes (for binary output: frames).
  var bytes: [UInt8] {
    Array(FileManager.default.contents(atPath: self.path) ?? Data())
  }

  /// The complete lines written so far.
  var lines: [String] {
    self.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
  }

  deinit { _ = unlink(self.path) }
}

/// A short unique temporary directory (socket paths are limited to 107 bytes).
func makeTemporaryDirectory() -> String {
  var template = Array("/tmp/sc-XXXXXX".utf8CString)
  let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
  return String(cString: path!)
}

/// Waits until `condition` holds, polling; throws after `timeout` seconds.
func waitUntil(
  _ what: String, timeout: Double = 20, _ condition: () throws -> Bool
) async throws {
  let deadline = Date().addingTimeInterval(timeout)
  while Date() < deadline {
    if try condition() { return }
    try await Task.sleep(for: .milliseconds(10))
  }
  throw HarnessError("timed out after \(timeout) s waiting until \(what)")
}

/// The real `storehost`, on a socket path of the test's choosing.
final class HostProcess: Sendable {
  let socketPath: String
  private let process: Process
  private let errors = CapturedOutput()

  /// Starts `storehost --socket <path>` (plus `arguments`, and `--ephemeral` unless they give
  /// a `--data` directory: tests never write outside temporary directories) and waits until it
  /// listens.
  init(socketPath: String, arguments: [String] = []) async throws {
    guard let binary = Binaries.storehost else { throw HarnessError("storehost is not built") }
    self.socketPath = socketPath
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments =
      ["--socket", socketPath] + arguments + (arguments.contains("--data") ? [] : ["--ephemeral"])
    process.standardOutput = FileHandle.nullDevice
    process.standardError = self.errors.handle
    self.process = process
    try process.run()
    try await waitUntil("storehost listens on \(socketPath)") {
      if !process.isRunning {
        throw HarnessError("storehost exited with \(process.terminationStatus): \(self.errors.text)")
      }
      return UnixListener.isListenerAlive(path: socketPath)
    }
  }

  /// The host's log so far.
  var log: String { self.errors.text }

  /// Stops the host the polite way (SIGTERM: `bye` to every client, socket removed).
  func terminate() async throws {
    guard self.process.isRunning else { return }
    kill(self.process.processIdentifier, SIGTERM)
    try await waitUntil("storehost exits") { !self.process.isRunning }
  }

  /// Kills the host on the spot (SIGKILL: no `bye`, the socket file is left behind).
  func crash() async throws {
    guard self.process.isRunning else { return }
    kill(self.process.processIdentifier, SIGKILL)
    try await waitUntil("storehost dies") { !self.process.isRunning }
  }

  deinit {
    if self.process.isRunning { kill(self.process.processIdentifier, SIGKILL) }
  }
}

/// A run of the real `storeclient` binary.
final class ClientProcess: Sendable {
  private let process: Process
  let output = CapturedOutput()
  let errors = CapturedOutput()

  /// Starts `storeclient arguments…`, with `input` (if any) written to its stdin and closed.
  init(_ arguments: [String], input: String? = nil, environment: [String: String]? = nil) throws {
    guard let binary = Binaries.storeclient else { throw HarnessError("storeclient is not built") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    // Without COLUMNS (a shell may export it), usage errors wrap at 80 columns wherever the
    // tests run: stderr is a pipe here.
    process.environment =
      environment ?? ProcessInfo.processInfo.environment.filter { $0.key != "COLUMNS" }
    process.standardOutput = self.output.handle
    process.standardError = self.errors.handle
    let stdin = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : stdin
    self.process = process
    try process.run()
    if let input {
      stdin.fileHandleForWriting.write(Data(input.utf8))
      try stdin.fileHandleForWriting.close()
    }
  }

  var isRunning: Bool { self.process.isRunning }

  /// Waits for the process to exit and returns its status.
  func wait(timeout: Double = 60) async throws -> Int32 {
    try await waitUntil("storeclient exits", timeout: timeout) { !self.process.isRunning }
    return self.process.terminationStatus
  }

  /// Waits until standard output has a line satisfying `predicate`.
  func waitForLine(timeout: Double = 20, _ predicate: (String) -> Bool) async throws {
    try await waitUntil("storeclient prints a matching line; it printed:\n\(self.output.text)\(self.errors.text)", timeout: timeout) {
      self.output.lines.contains(where: predicate)
    }
  }

  /// Interrupts the process (SIGINT, like Ctrl-C) and waits for it.
  func interrupt() async throws {
    guard self.process.isRunning else { return }
    kill(self.process.processIdentifier, SIGINT)
    _ = try await self.wait()
  }

  deinit {
    if self.process.isRunning { kill(self.process.processIdentifier, SIGKILL) }
  }
}

/// The result of a finished `storeclient` run.
struct ClientResult {
  var status: Int32
  var output: String
  var errors: String

  var outputLines: [String] { self.output.split(separator: "\n").map(String.init) }
}

/// Runs `storeclient arguments…` to completion.
func storeclient(_ arguments: [String], input: String? = nil, timeout: Double = 60) async throws -> ClientResult {
  let process = try ClientProcess(arguments, input: input)
  let status = try await process.wait(timeout: timeout)
  return ClientResult(status: status, output: process.output.text, errors: process.errors.text)
}

/// Waits until the async `condition` holds, polling; throws after `timeout` seconds.
func waitUntil(
  _ what: String, timeout: Double = 20, _ condition: () async throws -> Bool
) async throws {
  let deadline = Date().addingTimeInterval(timeout)
  while Date() < deadline {
    if try await condition() { return }
    try await Task.sleep(for: .milliseconds(10))
  }
  throw HarnessError("timed out after \(timeout) s waiting until \(what)")
}
