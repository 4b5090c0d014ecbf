import Foundation
import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process of the access tests: any program, optionally run as another user (through
/// `setpriv`), with its output captured in temporary files and its standard input kept open
/// for the test to write to, when asked.
final class SpawnedProcess: Sendable {
  private let process: Process
  /// What it wrote on standard output (unless the test took standard output itself).
  let output = CapturedOutput()
  /// What it wrote on standard error.
  let errors = CapturedOutput()
  /// Its standard input's write end, when `keepInputOpen`; `nil` otherwise.
  let input: FileHandle?

  /// Starts `executable arguments…`.
  ///
  /// - Parameters:
  ///   - executable: The program's path.
  ///   - arguments: Its arguments.
  ///   - user: The user to run it as (`nil`: this process's).
  ///   - environment: Variables set on top of this process's environment.
  ///   - keepInputOpen: Whether to give it a pipe as standard input (else /dev/null).
  ///   - standardOutput: A file handle to use as standard output instead of a captured file.
  init(
    _ executable: String, _ arguments: [String], as user: TemporaryUser? = nil,
    environment: [String: String] = [:], keepInputOpen: Bool = false,
    standardOutput: FileHandle? = nil
  ) throws {
    let process = Process()
    if let user {
      process.executableURL = URL(fileURLWithPath: TemporaryUser.setpriv)
      process.arguments = user.setprivArguments + ["--", executable] + arguments
    } else {
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
    }
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = standardOutput ?? self.output.handle
    process.standardError = self.errors.handle
    let pipe = keepInputOpen ? Pipe() : nil
    process.standardInput = pipe ?? FileHandle.nullDevice
    self.input = pipe?.fileHandleForWriting
    self.process = process
    try process.run()
  }

  var isRunning: Bool { self.process.isRunning }
  var processID: Int32 { self.process.processIdentifier }

  /// Waits for the exit and returns the status.
  func wait(timeout: Double = 60) async throws -> Int32 {
    try await waitUntil("\(self.process.executableURL?.lastPathComponent ?? "a child") exits", timeout: timeout) {
      !self.process.isRunning
    }
    return self.process.terminationStatus
  }

  /// Sends `signal` (SIGTERM by default) and waits for the exit.
  @discardableResult
  func stop(signal: Int32 = SIGTERM) async throws -> Int32 {
    if self.process.isRunning { kill(self.process.processIdentifier, signal) }
    return try await self.wait()
  }

  deinit {
    if self.process.isRunning { kill(self.process.processIdentifier, SIGKILL) }
  }
}

/// `storehost` for the access tests: its own arguments, environment and user.
enum AccessHost {
  /// storehost keeps its state on disk by default (durability): the tests' hosts keep it in
  /// memory, so that tests never write outside their temporary directories.
  static let ephemeral = ["--ephemeral"]

  /// Starts `storehost --ephemeral arguments…` and, when
  /// `socketPath` is given, waits until it listens there.
  static func start(
    _ arguments: [String], socketPath: String?, as user: TemporaryUser? = nil,
    environment: [String: String] = [:]
  ) async throws -> SpawnedProcess {
    guard let binary = Binaries.storehost else { throw HarnessError("storehost is not built") }
    let host = try SpawnedProcess(
      binary, arguments + Self.ephemeral, as: user, environment: environment)
    if let socketPath {
      try await waitUntil("storehost listens on \(socketPath)") {
        if !host.isRunning {
          throw HarnessError("storehost exited: \(host.errors.text)")
        }
        return UnixListener.isListenerAlive(path: socketPath)
      }
    }
    return host
  }
}

/// A temporary directory other users may pass through (mode 0711) but not list or change.
func makeReachableDirectory() -> String {
  let directory = makeTemporaryDirectory()
  chmod(directory, 0o711)
  return directory
}
