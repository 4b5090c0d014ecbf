import Foundation
import Synchronization
import Testing
import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failure of the test harness itself (a timeout, a missing binary), with what happened.
struct HarnessError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The real `storehost` binary, spawned on a temporary socket.
final class HostProcess {
  let socketPath: String
  let directory: String
  let process: Process
  /// The host's stderr, written to a log file in its directory: a file never blocks a chatty
  /// host, and needs no reader (clearing a pipe's `readabilityHandler` while the pipe is closed
  /// crashed libdispatch now and then).
  private let logPath: String

  /// The built `storehost`, next to the test bundle in the build directory.
  static var binaryPath: String {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    var directory = bundle
    // The test binary may sit inside `X.xctest/` (Darwin) or next to the products (Linux).
    for _ in 0..<3 {
      let candidate = directory.appendingPathComponent("storehost").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
    return bundle.appendingPathComponent("storehost").path
  }

  /// A short temporary directory (socket paths are limited to 107 bytes).
  static func makeDirectory() -> String {
    var template = Array("/tmp/sh-XXXXXX".utf8CString)
    let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    return String(cString: path!)
  }

  /// Starts `storehost --socket <tmp>/host.sock` plus `arguments`, and waits until it listens.
  ///
  /// The host keeps its state in memory (`--ephemeral`) unless `arguments` name a data
  /// directory (`--data`, always a temporary one in tests), or `storage` says otherwise (`[]`:
  /// the host's default, for tests that set `XDG_STATE_HOME` or `HOME` to a temporary
  /// directory): tests never write outside temporary directories.
  init(
    arguments: [String] = [], directory: String? = nil, waitForListening: Bool = true,
    environment: [String: String]? = nil, storage: [String]? = nil
  ) throws {
    let binary = Self.binaryPath
    guard FileManager.default.isExecutableFile(atPath: binary) else {
      throw HarnessError("storehost is not built at \(binary); run `swift build` first")
    }
    self.directory = directory ?? Self.makeDirectory()
    self.socketPath = self.directory + "/host.sock"
    process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    let storage = storage ?? (arguments.contains("--data") ? [] : ["--ephemeral"])
    process.arguments = ["--socket", socketPath, "--log-level", "debug"] + storage + arguments
    if let environment { process.environment = environment }
    // One log per process, even when several hosts share a directory.
    var template = Array((self.directory + "/host-XXXXXX.log").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
    guard descriptor >= 0 else { throw HarnessError("cannot create a log file in \(self.directory)") }
    logPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    let log = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    process.standardError = log
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    try log.close()
    if waitForListening { try waitUntilListening() }
  }

  func waitUntilListening(timeout: Double = 20) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if UnixListener.isListenerAlive(path: socketPath) { return }
      if !process.isRunning {
        throw HarnessError("storehost exited with \(process.terminationStatus): \(stderr)")
      }
      usleep(10_000)
    }
    throw HarnessError("storehost did not listen on \(socketPath) within \(timeout) s")
  }

  var processID: Int32 { process.processIdentifier }

  /// Sends a signal and waits for the exit; returns the exit status.
  @discardableResult
  func stop(signal: Int32 = SIGTERM, timeout: Double = 10) -> Int32 {
    if process.isRunning { kill(process.processIdentifier, signal) }
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(5_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    // Under `swift test --sanitize=thread` the host is instrumented too: a race it reports
    // fails the test that ran it.
    if stderr.contains("ThreadSanitizer") {
      Issue.record("storehost reported a data race:\n\(stderr)")
    }
    return process.terminationStatus
  }

  /// Everything the host wrote to stderr so far.
  var stderr: String {
    String(decoding: FileManager.default.contents(atPath: logPath) ?? Data(), as: UTF8.self)
  }

  /// Whether the host runs under ThreadSanitizer: under `swift test --sanitize=thread` the
  /// test binary and the `storehost` built beside it are both instrumented. The sanitizer's
  /// own allocator and shadow memory make the host's RSS say nothing about its buffers.
  static let isSanitized: Bool = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil

  /// The host's resident memory in KiB, from /proc (Linux).
  var residentKilobytes: Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(processID)/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
    return nil
  }

  deinit {
    if process.isRunning { stop(signal: SIGKILL) }
    _ = unlink(logPath)
    _ = unlink(socketPath)
    _ = rmdir(directory)
  }
}

