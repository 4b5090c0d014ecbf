import Synchronization
import Wire

/// A host on another machine, reached the way Docker reaches one: `ssh` runs
/// `storeclient dial-stdio` there, which relays between its standard input and output and the
/// host's socket, and the protocol runs over `ssh`'s pipes.
///
/// ```swift
/// let transport = SSHTransport(
///   destination: try SSHDestination(parsing: "ssh://deploy@build.example.com"))
/// let counter = try await RemoteStore<Counter.State, Counter.Action>(
///   scope: "counter", configuration: RemoteStoreConfiguration(transport: transport))
/// ```
///
/// ```
///   this process ═ socketpair ═ ssh ─── network ─── sshd ─ storeclient dial-stdio ═ host.sock
/// ```
///
/// SSH brings the authentication, the encryption and the host keys; `ssh` is configured as
/// usual (`~/.ssh/config`, an agent), or with options in ``sshCommand``. On the other
/// machine, `dial-stdio` checks the host's peer credentials as every client does. Each
/// connection is one `ssh` process (as with Docker; `ControlMaster` in `ssh`'s configuration
/// shares one network connection between them). When a connection fails, the error says how
/// `ssh` exited and what it, or `dial-stdio`, printed.
public struct SSHTransport: HostTransport {
  /// Whom to log in as, where, and the socket path there.
  public var destination: SSHDestination
  /// The `ssh` command and its options, before the destination: `["ssh"]` by default, e.g.
  /// `["ssh", "-F", "/path/to/config", "-i", "/path/to/key"]`.
  public var sshCommand: [String]
  /// `storeclient` on the other machine: a name looked up in the remote shell's `PATH`, or
  /// a path (`/opt/app/bin/storeclient`).
  public var remoteStoreclient: String
  /// Users whose host `dial-stdio` accepts on the other machine, besides the user logged in
  /// and root (its `--host-user`).
  public var hostUsers: [String]

  private let processes = ProcessTable()
  /// `STOREHOST_SSH_COMMAND` could not be read: every ``open(on:)`` fails saying why.
  private var environmentError: ClientEnvironmentError?

  /// A transport to `destination`.
  ///
  /// What is not given comes from the environment, as `storeclient` reads it
  /// (``ClientEnvironment``): `STOREHOST_SSH_COMMAND` for the `ssh` command,
  /// `STOREHOST_REMOTE_STORECLIENT` for `storeclient` over there (a variable that cannot be
  /// read makes every connection fail, saying what is wrong with it).
  ///
  /// - Parameters:
  ///   - destination: The machine, user, port and socket path.
  ///   - sshCommand: The `ssh` command and its options (`nil`: `STOREHOST_SSH_COMMAND`, else
  ///     `["ssh"]`).
  ///   - remoteStoreclient: `storeclient` on the other machine (`nil`:
  ///     `STOREHOST_REMOTE_STORECLIENT`, else found in the remote `PATH`).
  ///   - hostUsers: Further users whose host is accepted there.
  public init(
    destination: SSHDestination, sshCommand: [String]? = nil,
    remoteStoreclient: String? = nil, hostUsers: [String] = []
  ) {
    let environment = ClientEnvironment.processEnvironment()
    var command = sshCommand ?? ["ssh"]
    if sshCommand == nil {
      do {
        command = try ClientEnvironment.sshCommand(in: environment)
      } catch {
        self.environmentError = error
      }
    }
    self.destination = destination
    self.sshCommand = command.isEmpty ? ["ssh"] : command
    self.remoteStoreclient =
      remoteStoreclient ?? ClientEnvironment.remoteStoreclient(in: environment)
    self.hostUsers = hostUsers
  }

  /// The destination's URL.
  public var description: String { self.destination.description }

  /// The command line run on the other machine, quoted for its shell:
  /// `storeclient dial-stdio --socket /run/app/host.sock`.
  public var remoteCommand: String {
    var words = [self.remoteStoreclient, "dial-stdio"]
    if let path = self.destination.socketPath { words += ["--socket", path] }
    for user in self.hostUsers { words += ["--host-user", user] }
    return words.map(Self.shellQuoted).joined(separator: " ")
  }

  /// `ssh`'s whole argument vector: the command and its options, no pseudo-terminal (`-T`)
  /// and no escape character (`-e none`: the stream is binary), the destination, the remote
  /// command.
  public var arguments: [String] {
    self.sshCommand + ["-T", "-e", "none"] + self.destination.sshArguments + [self.remoteCommand]
  }

  /// Starts `ssh` with one end of a socket pair as its standard input and output, and
  /// returns the other end as the connection.
  ///
  /// - Parameter loop: The loop to run on; the caller must be on its thread.
  /// - Returns: The stream; the host's `welcome` arrives once `ssh` has logged in.
  /// - Throws: ``RemoteError/transportFailed(_:)`` when `ssh` cannot be started.
  public func open(on loop: EventLoop) throws(RemoteError) -> UnixConnection {
    if let environmentError { throw .transportFailed("\(environmentError)") }
    let ends: (Int32, Int32)
    switch Platform.makeSocketPair() {
    case .success(let pair): ends = pair
    case .failure(let error):
      throw .transportFailed("cannot connect to \(self.destination): no socket pair (\(error))")
    }
    let process: SSHProcess
    do {
      process = try SSHProcess.start(self.arguments, stdio: ends.1)
    } catch {
      Platform.close(ends.0)
      Platform.close(ends.1)
      throw error
    }
    Platform.close(ends.1)
    let connection = UnixConnection.adopt(fileDescriptor: ends.0, loop: loop)
    self.processes.insert(process, for: connection)
    return connection
  }

  /// Releases the connection's `ssh` (it may finish delivering, then exits or is terminated)
  /// and, when the stream simply ended, says why `ssh` ended it.
  ///
  /// - Parameters:
  ///   - connection: The ended connection.
  ///   - reason: Why it ended, as the connection saw it.
  /// - Returns: ``RemoteError/transportFailed(_:)`` with `ssh`'s exit status and last words
  ///   when it failed, else `reason`.
  public func connectionDidEnd(_ connection: UnixConnection, reason: RemoteError) -> RemoteError {
    guard let process = self.processes.remove(for: connection) else { return reason }
    process.connectionClosed()
    let garbled: String?
    switch reason {
    case .disconnected(reason: nil): garbled = nil
    case .protocolViolation(let detail): garbled = detail
    default: return reason
    }
    // The stream ends because `ssh` is exiting: its status follows within moments.
    guard let (status, errorOutput) = process.outcome(waitingUpTo: 1) else { return reason }
    let said = errorOutput.split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: " \t\r") }.filter { !$0.isEmpty }
    if status == .exited(0) && said.isEmpty && garbled == nil { return reason }
    var message = "ssh to \(self.destination.login) ended with \(status)"
    if !said.isEmpty { message += ": " + said.suffix(4).joined(separator: " / ") }
    if status == .exited(127) {
      message += " (is storeclient installed on \(self.destination.machine)? "
        + "--remote-storeclient names its path there)"
    }
    if let garbled {
      message += "; what came through was not the store protocol (\(garbled)): does something on "
        + "\(self.destination.machine) print to standard output when ssh runs a command (a shell "
        + "start-up file)?"
    }
    return .transportFailed(message)
  }

  /// `word` as the remote shell reads it back: as is when it is made of safe characters,
  /// else in single quotes.
  static func shellQuoted(_ word: String) -> String {
    let safe = word.utf8.allSatisfy { byte in
      (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
        || (byte >= 0x61 && byte <= 0x7A) || "_-./,:=+@%".utf8.contains(byte)
    }
    if safe && !word.isEmpty { return word }
    return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}

/// The `ssh` process of each open connection, shared by the copies of one transport.
private final class ProcessTable: Sendable {
  private let processes = Mutex<[ObjectIdentifier: SSHProcess]>([:])

  func insert(_ process: SSHProcess, for connection: UnixConnection) {
    self.processes.withLock { $0[ObjectIdentifier(connection)] = process }
  }

  func remove(for connection: UnixConnection) -> SSHProcess? {
    self.processes.withLock { $0.removeValue(forKey: ObjectIdentifier(connection)) }
  }
}

extension Substring {
  /// The substring without `characters` at either end.
  fileprivate func trimmingCharacters(in characters: String) -> String {
    var text = self
    while let first = text.first, characters.contains(first) { text.removeFirst() }
    while let last = text.last, characters.contains(last) { text.removeLast() }
    return String(text)
  }
}

extension String {
  /// The string with every `target` replaced by `replacement`.
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    self.split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
