import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A second, real Unix user for the access tests, created with `useradd` when the tests run
/// as root and removed when the test process exits: its own group, plus a supplementary group
/// (for `--allow @group`). Without root — or without `useradd`, `setpriv`, or the built
/// binaries reachable by that user — the tests that need it are skipped, saying why.
final class TemporaryUser: Sendable {
  /// The user's name, `stacc<pid>`.
  let name: String
  let uid: UInt32
  /// Its primary group's id.
  let gid: UInt32
  /// A supplementary group it belongs to, and that group's name.
  let groupName: String
  let groupID: UInt32

  static let setpriv = "/usr/bin/setpriv"

  /// `setpriv`'s options to run a program as this user, with its groups.
  var setprivArguments: [String] {
    ["--reuid=\(self.uid)", "--regid=\(self.gid)", "--init-groups"]
  }

  private init(name: String, uid: UInt32, gid: UInt32, groupName: String, groupID: UInt32) {
    self.name = name
    self.uid = uid
    self.gid = gid
    self.groupName = groupName
    self.groupID = groupID
  }

  /// The user, created on first use; or why there is none.
  static var shared: Result<TemporaryUser, HarnessError> {
    self.state.withLock { state in
      if let state { return state }
      let created = Self.create()
      state = created
      return created
    }
  }

  /// Whether a second user is available (for `.enabled(if:)`), printing why not when it
  /// is not, so that the skip is visible with its reason.
  static var isAvailable: Bool {
    switch self.shared {
    case .success: return true
    case .failure(let why):
      print("skipped: the tests with a second Unix user: \(why)")
      return false
    }
  }

  /// The user, or a failure saying why there is none.
  static func get() throws -> TemporaryUser { try self.shared.get() }

  private static let state = Mutex<Result<TemporaryUser, HarnessError>?>(nil)

  private static func create() -> Result<TemporaryUser, HarnessError> {
    guard getuid() == 0 else {
      return .failure(HarnessError("they need root, to create a user with useradd"))
    }
    for tool in ["/usr/sbin/useradd", "/usr/sbin/userdel", "/usr/sbin/groupadd", "/usr/sbin/groupdel", setpriv]
    where !FileManager.default.isExecutableFile(atPath: tool) {
      return .failure(HarnessError("\(tool) is missing"))
    }
    Self.removeStaleUsers()
    let name = "stacc\(getpid())"
    let group = name + "g"
    guard Self.run("/usr/sbin/groupadd", [group]) == 0 else {
      return .failure(HarnessError("groupadd \(group) failed"))
    }
    // '*': no password, but not locked (sshd refuses logins to locked accounts). Its home is
    // a temporary directory, given to it once it exists.
    let home = makeTemporaryDirectory()
    guard
      Self.run(
        "/usr/sbin/useradd", ["-M", "-d", home, "-U", "-p", "*", "-s", "/bin/sh", "-G", group, name])
        == 0
    else {
      _ = Self.run("/usr/sbin/groupdel", [group])
      return .failure(HarnessError("useradd \(name) failed"))
    }
    atexit { TemporaryUser.removeCreated() }
    guard let entry = getpwnam(name), let groupEntry = getgrnam(group) else {
      return .failure(HarnessError("the new user \(name) cannot be looked up"))
    }
    let user = TemporaryUser(
      name: name, uid: UInt32(entry.pointee.pw_uid), gid: UInt32(entry.pointee.pw_gid),
      groupName: group, groupID: UInt32(groupEntry.pointee.gr_gid))
    chown(home, user.uid, user.gid)
    // The user must be able to run the built tools (their directories must let it through).
    if let storeclient = Binaries.storeclient,
      Self.run(setpriv, user.setprivArguments + ["--", storeclient, "--version"]) != 0
    {
      return .failure(HarnessError("\(name) cannot run \(storeclient) (a directory on its path keeps other users out)"))
    }
    return .success(user)
  }

  /// Removes the user, its home and its group, which this process created (run at exit).
  private static func removeCreated() {
    let name = "stacc\(getpid())"
    if let entry = getpwnam(name), let home = entry.pointee.pw_dir {
      try? FileManager.default.removeItem(atPath: String(cString: home))
    }
    _ = Self.run("/usr/sbin/userdel", [name])
    _ = Self.run("/usr/sbin/groupdel", [name + "g"])
  }

  /// Removes users left by test processes that died without their exit handler.
  private static func removeStaleUsers() {
    guard let passwd = try? String(contentsOfFile: "/etc/passwd", encoding: .utf8) else { return }
    for line in passwd.split(separator: "\n") {
      let name = line.prefix { $0 != ":" }
      guard name.hasPrefix("stacc"), let pid = Int32(name.dropFirst(5)),
        kill(pid, 0) != 0 && errno == ESRCH
      else { continue }
      let home = line.split(separator: ":", omittingEmptySubsequences: false).dropFirst(5).first
      if let home, home.hasPrefix("/tmp/sc-") {
        try? FileManager.default.removeItem(atPath: String(home))
      }
      _ = Self.run("/usr/sbin/userdel", [String(name)])
      _ = Self.run("/usr/sbin/groupdel", [String(name) + "g"])
    }
  }

  @discardableResult
  static func run(_ executable: String, _ arguments: [String]) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
  }
}
