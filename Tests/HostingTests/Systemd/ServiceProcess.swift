import Foundation
import Testing
import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A process started as a service manager starts one: with descriptors of the test's own
/// placed at 3, 4, … (socket activation hands over a listening socket so), an environment of
/// the test's choosing, and stderr written to a log file.
///
/// Foundation's `Process` closes every descriptor above 2 in the child, so this spawns with
/// `posix_spawn` and its file actions.
final class ServiceProcess {
  let processID: pid_t
  let logPath: String
  private var status: Int32?

  /// Starts `command` (an absolute path first) with `environment`, descriptor `passing[i]`
  /// as `3 + i`, and stderr appended to `logPath`.
  init(
    _ command: [String], environment: [String: String], passing descriptors: [Int32] = [],
    logPath: String
  ) throws {
    self.logPath = logPath
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    for (index, descriptor) in descriptors.enumerated() {
      // dup2 onto the same number would keep close-on-exec: the descriptors are never 3… here.
      posix_spawn_file_actions_adddup2(&actions, descriptor, 3 + Int32(index))
    }
    let argv = command.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let code = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
    guard code == 0 else { throw HarnessError("cannot start \(command[0]): errno \(code)") }
    self.processID = pid
  }

  /// `sh -c 'LISTEN_PID=$$ exec "$0" "$@"' command…`: the process learns its own pid as
  /// systemd's `LISTEN_PID` before it becomes `command`.
  static func withListenPID(_ command: [String]) -> [String] {
    ["/bin/sh", "-c", #"LISTEN_PID=$$ exec "$0" "$@""#] + command
  }

  /// Whether the process has not exited yet (reaps it when it has).
  var isRunning: Bool {
    if self.status != nil { return false }
    var raw: Int32 = 0
    let reaped = waitpid(self.processID, &raw, WNOHANG)
    guard reaped == self.processID else { return true }
    self.status = Self.decode(raw)
    return false
  }

  /// Waits for the exit (killing the process after `timeout` seconds) and returns the exit
  /// status, or 128 + the signal that ended it.
  @discardableResult
  func waitForExit(timeout: Double = 30) -> Int32 {
    let deadline = Date().addingTimeInterval(timeout)
    while self.isRunning && Date() < deadline { usleep(5_000) }
    if self.isRunning {
      Issue.record("process \(self.processID) did not exit within \(timeout) s; killed")
      kill(self.processID, SIGKILL)
      var raw: Int32 = 0
      waitpid(self.processID, &raw, 0)
      self.status = Self.decode(raw)
    }
    return self.status ?? -1
  }

  /// Everything written to stderr so far.
  var log: String {
    String(decoding: FileManager.default.contents(atPath: self.logPath) ?? Data(), as: UTF8.self)
  }

  /// Waits until stderr contains `text`.
  func waitForLog(_ text: String, timeout: Double = 30) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !self.log.contains(text) {
      guard Date() < deadline, self.isRunning || self.log.contains(text) else {
        throw HarnessError("no '\(text)' in the log within \(timeout) s:\n\(self.log)")
      }
      usleep(10_000)
    }
  }

  private static func decode(_ raw: Int32) -> Int32 {
    let signal = raw & 0x7f
    return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
  }

  deinit {
    if self.isRunning {
      kill(self.processID, SIGKILL)
      var raw: Int32 = 0
      waitpid(self.processID, &raw, 0)
    }
  }
}

/// A datagram socket standing in for systemd's `NOTIFY_SOCKET`: it receives what the host
/// sends with `sd_notify`.
final class NotifySocket {
  let path: String
  private let descriptor: Int32
  /// Every notification received so far, in order.
  private(set) var received: [String] = []

  init(path: String) throws {
    self.path = path
    self.descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    guard self.descriptor >= 0 else { throw HarnessError("no datagram socket: errno \(errno)") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(self.descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0 else { throw HarnessError("cannot bind \(path): errno \(errno)") }
  }

  /// Receives notifications until one satisfies `predicate`, and returns it.
  func waitFor(
    _ what: String, timeout: Double = 30, _ predicate: (String) -> Bool
  ) throws -> String {
    if let found = self.received.first(where: predicate) { return found }
    let deadline = Date().addingTimeInterval(timeout)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while Date() < deadline {
      var poller = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 50) > 0 else { continue }
      let count = recv(self.descriptor, &buffer, buffer.count, 0)
      guard count > 0 else { continue }
      let message = String(decoding: buffer[..<count], as: UTF8.self)
      self.received.append(message)
      if predicate(message) { return message }
    }
    throw HarnessError("no notification \(what) within \(timeout) s; received: \(self.received)")
  }

  /// Waits for a notification with the line `line` (`READY=1`).
  @discardableResult
  func waitFor(line: String, timeout: Double = 30) throws -> String {
    try self.waitFor(line, timeout: timeout) { $0.split(separator: "\n").contains { $0 == line } }
  }

  deinit {
    close(self.descriptor)
    unlink(self.path)
  }
}

/// A listening Unix stream socket the test owns, as systemd owns a socket unit's.
func makeListeningSocket(at path: String) throws -> Int32 {
  let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
  let bound = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
  guard fd >= 0, bound == 0, listen(fd, 16) == 0 else {
    throw HarnessError("cannot listen on \(path): errno \(errno)")
  }
  return fd
}
