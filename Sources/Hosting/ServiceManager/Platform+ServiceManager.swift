// The service-manager half of the host's contact with libc: the notification datagram
// socket, and whether standard error is the journal. (Platform.swift holds the rest.)
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Platform {
  /// This process's id.
  static var processID: Int32 { getpid() }

  /// A new close-on-exec `AF_UNIX` datagram socket for notifications, or `nil`.
  static func makeDatagramSocket() -> Int32? {
    #if canImport(Glibc)
      let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
      let fd = socket(AF_UNIX, SOCK_DGRAM, 0)
      if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    #endif
    return fd >= 0 ? fd : nil
  }

  /// Sends `message` as one datagram to the socket at `path` — in the abstract namespace
  /// when it starts with `@`, as `NOTIFY_SOCKET` may. Returns 0 or an errno.
  static func sendDatagram(_ fd: Int32, _ message: String, to path: String) -> Int32 {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    var bytes = Array(path.utf8)
    // `@name` is the abstract socket `\0name` (Linux).
    if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else { return ENAMETOOLONG }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      if bytes.count < raw.count { raw[bytes.count] = 0 }
    }
    // An abstract address is exactly as long as its name; a path one includes the NUL.
    let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count
      + (bytes.first == 0 ? 0 : 1)
    var text = message
    let sent = text.withUTF8 { body in
      withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          sendto(fd, body.baseAddress, body.count, 0, $0, socklen_t(length))
        }
      }
    }
    return sent >= 0 ? 0 : errno
  }

  /// Whether standard error is the journal's stream: `JOURNAL_STREAM` holds the device and
  /// inode (`DEV:INO`) of the stream systemd connected, and they are standard error's own —
  /// not merely inherited by a process whose stderr was redirected since.
  static func standardErrorIsJournal(_ journalStream: String?) -> Bool {
    guard let journalStream else { return false }
    let parts = journalStream.split(separator: ":")
    guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else {
      return false
    }
    var info = stat()
    guard fstat(2, &info) == 0 else { return false }
    return UInt64(truncatingIfNeeded: info.st_dev) == device && UInt64(info.st_ino) == inode
  }

  /// Closes a descriptor.
  static func closeDescriptor(_ fd: Int32) { _ = close(fd) }

  /// The value of an environment variable of this process.
  static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}
