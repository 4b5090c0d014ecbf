// The access-control half of the host's contact with libc: the user and group databases, and
// the socket's directory and file permissions. (Platform.swift holds the rest.)
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - Users and groups

extension Platform {
  /// The uid of the user named `name`, from the user database (`getpwnam_r`).
  static func userID(named name: String) -> UInt32? {
    self.withLookupBuffer { buffer in
      var entry = passwd()
      var found: UnsafeMutablePointer<passwd>?
      let result = getpwnam_r(name, &entry, buffer.baseAddress!, buffer.count, &found)
      return (result, found == nil ? nil : UInt32(entry.pw_uid))
    }
  }

  /// The name of the user with uid `uid`, if the user database has one (`getpwuid_r`).
  static func userName(of uid: UInt32) -> String? {
    self.withLookupBuffer { buffer in
      var entry = passwd()
      var found: UnsafeMutablePointer<passwd>?
      let result = getpwuid_r(uid_t(uid), &entry, buffer.baseAddress!, buffer.count, &found)
      return (result, found == nil ? nil : entry.pw_name.map { String(cString: $0) })
    }
  }

  /// The gid of the group named `name`, from the group database (`getgrnam_r`).
  static func groupID(named name: String) -> UInt32? {
    self.withLookupBuffer { buffer in
      var entry = group()
      var found: UnsafeMutablePointer<group>?
      let result = getgrnam_r(name, &entry, buffer.baseAddress!, buffer.count, &found)
      return (result, found == nil ? nil : UInt32(entry.gr_gid))
    }
  }

  /// The name of the group with gid `gid`, if the group database has one (`getgrgid_r`).
  static func groupName(of gid: UInt32) -> String? {
    self.withLookupBuffer { buffer in
      var entry = group()
      var found: UnsafeMutablePointer<group>?
      let result = getgrgid_r(gid_t(gid), &entry, buffer.baseAddress!, buffer.count, &found)
      return (result, found == nil ? nil : entry.gr_name.map { String(cString: $0) })
    }
  }

  /// Whether this process may give its files to group `gid`: root may give any, others only
  /// a group they have (effective or supplementary).
  static func mayUseGroup(_ gid: UInt32) -> Bool {
    if geteuid() == 0 || UInt32(getegid()) == gid { return true }
    let count = getgroups(0, nil)
    guard count > 0 else { return false }
    var groups = [gid_t](repeating: 0, count: Int(count))
    let read = getgroups(count, &groups)
    return read > 0 && groups.prefix(Int(read)).contains(gid_t(gid))
  }

  /// `name (uid 1000)`, or `uid 1000` when the user has no name.
  static func describeUser(_ uid: UInt32) -> String {
    self.userName(of: uid).map { "\($0) (uid \(uid))" } ?? "uid \(uid)"
  }

  /// Runs a `get…_r` lookup with a scratch buffer, growing it while the call says `ERANGE`
  /// (a group with many members needs more than the usual 16 KiB).
  private static func withLookupBuffer<T>(
    _ body: (UnsafeMutableBufferPointer<CChar>) -> (Int32, T?)
  ) -> T? {
    var size = 16 * 1024
    while size <= 16 * 1024 * 1024 {
      let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: size)
      defer { buffer.deallocate() }
      let (result, value) = body(buffer)
      if result != ERANGE { return value }
      size *= 4
    }
    return nil
  }
}

// MARK: - Files

extension Platform {
  /// What `lstat` says about a path, without following a final symbolic link.
  struct FileStatus {
    /// The owner's uid.
    var owner: UInt32
    /// The group's gid.
    var group: UInt32
    /// The permission bits.
    var mode: UInt32
    /// Whether it is a directory (a symbolic link to one is not).
    var isDirectory: Bool
    /// Whether it is a symbolic link.
    var isSymbolicLink: Bool
  }

  /// The status of `path`, or the errno that prevented reading it.
  static func fileStatus(_ path: String) -> Result<FileStatus, PlatformError> {
    var info = stat()
    guard lstat(path, &info) == 0 else { return .failure(PlatformError(errno)) }
    let type = info.st_mode & S_IFMT
    return .success(
      FileStatus(
        owner: UInt32(info.st_uid), group: UInt32(info.st_gid),
        mode: UInt32(info.st_mode) & 0o7777, isDirectory: type == S_IFDIR,
        isSymbolicLink: type == S_IFLNK))
  }

  /// `mkdir(path, mode)` (the umask may remove bits; ``changeMode(_:to:)`` sets them exactly).
  static func makeDirectory(_ path: String, mode: UInt32) -> PlatformError? {
    mkdir(path, mode_t(mode)) == 0 ? nil : PlatformError(errno)
  }

  /// `chmod(path, mode)`.
  static func changeMode(_ path: String, to mode: UInt32) -> PlatformError? {
    chmod(path, mode_t(mode)) == 0 ? nil : PlatformError(errno)
  }

  /// Gives `path` to group `gid`, keeping its owner (`chown(path, -1, gid)`): allowed to the
  /// owner for a group it belongs to, and to root.
  static func changeGroup(_ path: String, to gid: UInt32) -> PlatformError? {
    chown(path, uid_t.max, gid_t(gid)) == 0 ? nil : PlatformError(errno)
  }
}

/// An errno from a file or account call, with the C library's text for it.
struct PlatformError: Error, CustomStringConvertible {
  /// The errno.
  let code: Int32

  init(_ code: Int32) { self.code = code }

  /// Whether the error is `ENOENT` (no such file or directory).
  var isNotFound: Bool { self.code == ENOENT }
  /// Whether the error is `EEXIST` (the file exists).
  var isAlreadyExisting: Bool { self.code == EEXIST }

  /// The C library's description, e.g. `Operation not permitted`.
  var description: String { String(cString: strerror(self.code)) }
}
