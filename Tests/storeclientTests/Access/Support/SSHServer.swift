import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Debian's OpenSSH server on a loopback port, with a temporary host key, a temporary client
/// key and a configuration of its own, all in a temporary directory: what the SSH transport's
/// tests reach hosts through.
///
/// It runs in the foreground (`-D -e -f config`) as an unprivileged user — the second test
/// user when the tests run as root, else the user running them — so that it needs no
/// privilege-separation directory, and only that user can log in (as `ssh` does for a
/// non-root `sshd`).
final class SSHServer: Sendable {
  /// The user that logs in (and runs `dial-stdio` on "the other machine").
  let login: String
  /// The second test user when the login is one, for `--allow`.
  let loginUser: TemporaryUser?
  let port: Int
  let directory: String
  private let process: Daemon

  static let sshd = "/usr/sbin/sshd"
  static let ssh = "/usr/bin/ssh"
  static let keygen = "/usr/bin/ssh-keygen"

  /// Why an SSH server cannot run here, or `nil` when it can.
  static let unavailableReason: String? = {
    for tool in [sshd, ssh, keygen] where !FileManager.default.isExecutableFile(atPath: tool) {
      return "\(tool) is missing (Debian's openssh-server and openssh-client; .ci/run installs them)"
    }
    if getuid() == 0, case .failure(let why) = TemporaryUser.shared {
      return "sshd runs as a second user when the tests run as root, and there is none: \(why)"
    }
    return nil
  }()

  /// Whether an SSH server can run here, printing why not when it cannot.
  static var isAvailable: Bool {
    if let reason = Self.unavailableReason {
      print("skipped: the tests through ssh: \(reason)")
      return false
    }
    return true
  }

  /// `ssh` with this server's client key and a known-hosts file of its own (and no user
  /// configuration): the value of `STOREHOST_SSH_COMMAND`, as words.
  var sshCommand: [String] {
    [
      Self.ssh, "-F", "/dev/null", "-i", self.directory + "/client_key", "-o", "IdentitiesOnly=yes",
      "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=accept-new",
      "-o", "UserKnownHostsFile=\(self.directory)/known_hosts", "-o", "LogLevel=ERROR",
    ]
  }

  /// `ssh://login@127.0.0.1:port` and a socket path on "the other machine".
  func url(_ socketPath: String) -> String {
    "ssh://\(self.login)@127.0.0.1:\(self.port)\(socketPath)"
  }

  private init(
    login: String, loginUser: TemporaryUser?, port: Int, directory: String, process: Daemon
  ) {
    self.login = login
    self.loginUser = loginUser
    self.port = port
    self.directory = directory
    self.process = process
  }

  /// Makes the keys and the configuration and starts `sshd`, waiting until it listens.
  static func start() async throws -> SSHServer {
    let loginUser = getuid() == 0 ? try TemporaryUser.get() : nil
    let login = loginUser?.name ?? String(cString: getpwuid(getuid())!.pointee.pw_name)
    let directory = makeTemporaryDirectory()
    chmod(directory, 0o755)
    for (name, comment) in [("host_key", "test host"), ("client_key", "test client")] {
      guard
        TemporaryUser.run(
          keygen, ["-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", "\(directory)/\(name)"]) == 0
      else { throw HarnessError("ssh-keygen failed") }
    }
    try FileManager.default.copyItem(
      atPath: directory + "/client_key.pub", toPath: directory + "/authorized_keys")
    // Up to three tries: the free port found may be taken before sshd binds it.
    for _ in 0..<3 {
      let port = try Self.freePort()
      let config = """
        Port \(port)
        ListenAddress 127.0.0.1
        HostKey \(directory)/host_key
        AuthorizedKeysFile \(directory)/authorized_keys
        PidFile none
        UsePAM no
        StrictModes no
        PasswordAuthentication no
        KbdInteractiveAuthentication no
        AllowUsers \(login)
        """
      try config.write(toFile: directory + "/sshd_config", atomically: true, encoding: .utf8)
      if let loginUser {
        for file in ["host_key", "authorized_keys", "sshd_config"] {
          chown(directory + "/" + file, loginUser.uid, loginUser.gid)
        }
      }
      let process = try Daemon(
        (loginUser.map { [TemporaryUser.setpriv] + $0.setprivArguments + ["--"] } ?? [])
          + [Self.sshd, "-D", "-e", "-f", directory + "/sshd_config"])
      try await waitUntil("sshd listens on port \(port)") {
        process.errors.text.contains("Server listening on 127.0.0.1 port \(port)")
          || !process.isRunning
      }
      if process.isRunning {
        return SSHServer(
          login: login, loginUser: loginUser, port: port, directory: directory, process: process)
      }
      if !process.errors.text.contains("Address already in use") {
        throw HarnessError("sshd did not start: \(process.errors.text)")
      }
    }
    throw HarnessError("no free port for sshd after three tries")
  }

  /// A TCP port on the loopback interface that nothing listens on right now.
  private static func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else { throw HarnessError("cannot find a free port") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// What sshd logged.
  var log: String { self.process.errors.text }

  /// Stops `sshd` and removes its directory.
  func stop() async throws {
    try await self.process.stop()
    try? FileManager.default.removeItem(atPath: self.directory)
  }
}

/// A child started with `posix_spawn` and reaped here, not by Foundation's `Process`: `sshd`
/// closes every descriptor it inherits as it starts, which Foundation takes for the child's
/// exit — its reaper then blocks in `waitpid` until `sshd` really exits, and no other child's
/// exit is noticed meanwhile.
final class Daemon: Sendable {
  let pid: pid_t
  /// What it wrote on standard error.
  let errors = CapturedOutput()
  private let status = Mutex<Int32?>(nil)

  init(_ arguments: [String]) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, self.errors.handle.fileDescriptor, 2)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
    guard result == 0 else { throw HarnessError("cannot start \(arguments[0]): errno \(result)") }
    self.pid = pid
  }

  /// Whether it still runs (reaping it when it has exited).
  var isRunning: Bool {
    self.status.withLock { status in
      if status != nil { return false }
      var code: Int32 = 0
      guard waitpid(self.pid, &code, WNOHANG) == self.pid else { return true }
      status = code
      return false
    }
  }

  /// Sends SIGTERM and waits until it has exited.
  func stop() async throws {
    if self.isRunning { kill(self.pid, SIGTERM) }
    try await waitUntil("the daemon exits") { !self.isRunning }
  }

  deinit {
    if self.isRunning {
      kill(self.pid, SIGKILL)
      var code: Int32 = 0
      waitpid(self.pid, &code, 0)
    }
  }
}
