import Synchronization

/// One `ssh` child process carrying one connection, and what became of it: its exit status
/// and the last of what it wrote on standard error (where `ssh`, and `storeclient dial-stdio`
/// on the other machine, explain a failure).
///
/// A thread of its own follows the process: it collects the standard error as it comes, reaps
/// the process when it exits, and — once the connection was closed on this side — gives it a
/// grace period to finish (delivering what was sent last) before terminating it, so that an
/// `ssh` stuck on a dead network never outlives its connection for long.
final class SSHProcess: Sendable {
  /// The process id.
  let pid: Int32
  /// The command, for messages: `ssh -p 2222 -- build.example.com`.
  let command: String

  /// How long a process may run on after its connection was closed on this side.
  static let gracePeriod: Double = 10
  /// How much of the standard error is kept (its end).
  static let keptErrorBytes = 4096

  private struct State {
    var status: Platform.ExitStatus?
    var errorOutput: [UInt8] = []
    var closedAt: Double?
  }

  private let state = Mutex(State())

  private init(pid: Int32, command: String) {
    self.pid = pid
    self.command = command
  }

  /// Starts `arguments` with `stdio` as standard input and output, and follows it.
  ///
  /// - Returns: The running process.
  /// - Throws: ``RemoteError/transportFailed(_:)`` when it cannot be started.
  static func start(_ arguments: [String], stdio: Int32) throws(RemoteError) -> SSHProcess {
    let command = arguments.joined(separator: " ")
    let errorPipe: (read: Int32, write: Int32)
    switch Platform.makePipe() {
    case .success(let ends): errorPipe = ends
    case .failure(let error):
      throw .transportFailed("cannot start \(command): no pipe for its standard error (\(error))")
    }
    let spawned = Platform.spawn(arguments, stdio: stdio, stderr: errorPipe.write)
    Platform.close(errorPipe.write)
    switch spawned {
    case .success(let pid):
      let process = SSHProcess(pid: pid, command: command)
      Platform.startThread { process.follow(errorOutput: errorPipe.read) }
      return process
    case .failure(let error):
      Platform.close(errorPipe.read)
      throw .transportFailed(
        "cannot start \(command): \(error)"
          + (error.isNotFound ? " (is OpenSSH's client installed and on PATH?)" : ""))
    }
  }

  /// The follower thread's loop: standard error in, exit status out, grace period enforced.
  private func follow(errorOutput fd: Int32) {
    var errorOpen = true
    var terminated = false
    while true {
      let closedAt = self.state.withLock { $0.closedAt }
      if errorOpen {
        // Standard error closes when the process exits: waiting on it wakes at once then.
        Platform.waitReadable(fd, milliseconds: closedAt == nil ? 1000 : 100)
        let (bytes, atEnd) = Platform.readAvailable(fd)
        if !bytes.isEmpty { self.keep(bytes) }
        if atEnd {
          errorOpen = false
          Platform.close(fd)
        }
      } else {
        Platform.sleep(milliseconds: 20)
      }
      if let status = Platform.exitStatus(of: self.pid) {
        if errorOpen {
          self.keep(Platform.readAvailable(fd).bytes)
          Platform.close(fd)
        }
        self.state.withLock { $0.status = status }
        return
      }
      if let closedAt, !terminated, Self.now() - closedAt > Self.gracePeriod {
        Platform.terminate(self.pid)
        terminated = true
      }
    }
  }

  private func keep(_ bytes: [UInt8]) {
    self.state.withLock { state in
      state.errorOutput += bytes
      if state.errorOutput.count > Self.keptErrorBytes {
        state.errorOutput.removeFirst(state.errorOutput.count - Self.keptErrorBytes)
      }
    }
  }

  /// Notes that the connection was closed on this side: the grace period starts.
  func connectionClosed() {
    self.state.withLock { if $0.closedAt == nil { $0.closedAt = Self.now() } }
  }

  /// The exit status and the end of the standard error, once the process has exited, waiting
  /// for that at most `timeout` seconds; `nil` if it is still running then.
  func outcome(waitingUpTo timeout: Double) -> (status: Platform.ExitStatus, errorOutput: String)? {
    let deadline = Self.now() + timeout
    while true {
      let done = self.state.withLock { state in
        state.status.map { ($0, String(decoding: state.errorOutput, as: UTF8.self)) }
      }
      if let done { return done }
      if Self.now() >= deadline { return nil }
      Platform.sleep(milliseconds: 2)
    }
  }

  private static func now() -> Double { Platform.monotonicSeconds() }
}
