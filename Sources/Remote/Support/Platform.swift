// Remote's contact with the C library for its transports: user lookups, socket pairs, and the
// `ssh` child process. (Everything about the socket itself is Wire's.)
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Thin wrappers over the C library, so the transports need no `#if`.
enum Platform {}

// MARK: - Users

extension Platform {
  /// This process's real user id.
  static var userID: UInt32 { UInt32(getuid()) }

  /// The value of an environment variable.
  static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// The uid of the user named `name` (`getpwnam_r`).
  static func userID(named name: String) -> UInt32? {
    self.lookUp({ entry, buffer, found in
      getpwnam_r(name, &entry, buffer.baseAddress!, buffer.count, &found)
    }) { UInt32($0.pw_uid) }
  }

  /// The name of the user with uid `uid` (`getpwuid_r`), if it has one.
  static func userName(of uid: UInt32) -> String? {
    self.lookUp({ entry, buffer, found in
      getpwuid_r(uid_t(uid), &entry, buffer.baseAddress!, buffer.count, &found)
    }) { $0.pw_name.map { String(cString: $0) } }
  }

  /// Runs a `getpw…_r` call with a buffer that grows while the call says `ERANGE`, and reads
  /// the entry with `read` while the buffer its strings point into is still allocated.
  private static func lookUp<T>(
    _ call: (inout passwd, UnsafeMutableBufferPointer<CChar>, inout UnsafeMutablePointer<passwd>?)
      -> Int32,
    read: (passwd) -> T?
  ) -> T? {
    var size = 16 * 1024
    while size <= 1 << 22 {
      let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: size)
      defer { buffer.deallocate() }
      var entry = passwd()
      var found: UnsafeMutablePointer<passwd>?
      let result = call(&entry, buffer, &found)
      if result == ERANGE {
        size *= 4
        continue
      }
      guard result == 0, found != nil else { return nil }
      return read(entry)
    }
    return nil
  }
}
