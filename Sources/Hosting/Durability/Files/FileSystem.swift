// The durability layer's only contact with the file system calls: everything it does to files
// and directories goes through these wrappers, which retry on EINTR and capture errno at once.
#if canImport(Glibc)
  import Glibc
  import CSystemLinux
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed file-system call: which one, on which path, and the system's reason.
struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The call, e.g. `open`, `write`, `fdatasync`.
  var operation: String
  /// The file or directory it was made on.
  var path: String
  /// The `errno` it failed with.
  var errno: Int32

  /// Whether the failure is `EEXIST`.
  var isAlreadyExisting: Bool { self.errno == EEXIST }
  /// Whether the failure is `ENOENT`.
  var isMissing: Bool { self.errno == ENOENT }

  var description: String {
    "\(self.operation) \(self.path): \(String(cString: strerror(self.errno)))"
  }
}

/// Thin wrappers over the file calls of the C library.
enum FileSystem {
  /// Metadata of a file: its size and permission bits.
  struct Status {
    var size: Int64
    var mode: UInt32
    var isDirectory: Bool
  }

  /// `open(2)` with `O_CLOEXEC`; `create` adds `O_CREAT` with `mode`.
  static func openFile(
    _ path: String, flags: Int32, mode: UInt32 = 0o600
  ) throws(FileError) -> Int32 {
    while true {
      let fd = open(path, flags | O_CLOEXEC, mode_t(mode))
      if fd >= 0 { return fd }
      let code = errno
      if code == EINTR { continue }
      throw FileError(operation: "open", path: path, errno: code)
    }
  }

  /// Opens a file for appending, creating it (mode 0600) if it does not exist.
  static func openForAppending(_ path: String) throws(FileError) -> Int32 {
    try self.openFile(path, flags: O_WRONLY | O_CREAT | O_APPEND)
  }

  /// Creates (or empties) a file and opens it for writing.
  static func createEmpty(_ path: String) throws(FileError) -> Int32 {
    try self.openFile(path, flags: O_WRONLY | O_CREAT | O_TRUNC)
  }

  /// Opens (creating if needed) a file to lock and to write a process id into.
  static func openForLocking(_ path: String) throws(FileError) -> Int32 {
    try self.openFile(path, flags: O_RDWR | O_CREAT)
  }

  /// Opens an existing file for writing (at offset 0, without truncating it).
  static func openForWriting(_ path: String) throws(FileError) -> Int32 {
    try self.openFile(path, flags: O_WRONLY)
  }

  /// Opens a file for reading.
  static func openForReading(_ path: String) throws(FileError) -> Int32 {
    try self.openFile(path, flags: O_RDONLY)
  }

  /// `close(2)`; errors are ignored (the descriptor is gone either way).
  static func closeFile(_ fd: Int32) {
    _ = close(fd)
  }

  /// Writes every byte of `bytes`, continuing after partial writes.
  ///
  /// - Returns: How many bytes were written before a failure, with the failure; `nil` when
  ///   every byte was written.
  static func writeAll(
    _ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String
  ) -> (written: Int, error: FileError)? {
    var offset = 0
    while offset < bytes.count {
      let result = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
      if result >= 0 {
        offset += result
        continue
      }
      let code = errno
      if code == EINTR { continue }
      return (offset, FileError(operation: "write", path: path, errno: code))
    }
    return nil
  }

  /// Reads up to `count` bytes at the file's position into `buffer`; 0 at the end.
  static func readSome(
    _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String
  ) throws(FileError) -> Int {
    while true {
      let result = read(fd, buffer.baseAddress, buffer.count)
      if result >= 0 { return result }
      let code = errno
      if code == EINTR { continue }
      throw FileError(operation: "read", path: path, errno: code)
    }
  }

  /// Reads a whole file.
  static func readAll(_ path: String) throws(FileError) -> [UInt8] {
    let fd = try self.openForReading(path)
    defer { self.closeFile(fd) }
    let size = Int(try self.status(fd: fd, path: path).size)
    var bytes = [UInt8](repeating: 0, count: size)
    var filled = 0
    var failure: FileError?
    while filled < size, failure == nil {
      let count = bytes.withUnsafeMutableBytes { raw -> Int in
        do throws(FileError) {
          return try self.readSome(
            fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]), path: path)
        } catch {
          failure = error
          return 0
        }
      }
      if count == 0 { break }
      filled += count
    }
    if let failure { throw failure }
    if filled < size { bytes.removeSubrange(filled...) }
    return bytes
  }

  /// `fdatasync(2)`: the file's data (and the metadata needed to read it) reach the device.
  static func synchronizeData(_ fd: Int32, path: String) throws(FileError) {
    while true {
      #if canImport(Darwin)
        let result = fcntl(fd, F_FULLFSYNC)
      #else
        let result = fdatasync(fd)
      #endif
      if result == 0 { return }
      let code = errno
      if code == EINTR { continue }
      throw FileError(operation: "fdatasync", path: path, errno: code)
    }
  }

  /// `fsync(2)` of a directory, so that the names created, renamed or removed in it persist.
  static func synchronizeDirectory(_ path: String) throws(FileError) {
    let fd = try self.openFile(path, flags: O_RDONLY | O_DIRECTORY)
    defer { self.closeFile(fd) }
    while true {
      if fsync(fd) == 0 { return }
      let code = errno
      if code == EINTR { continue }
      throw FileError(operation: "fsync", path: path, errno: code)
    }
  }

  /// `ftruncate(2)`.
  static func truncate(_ fd: Int32, to length: Int64, path: String) throws(FileError) {
    while true {
      if ftruncate(fd, off_t(length)) == 0 { return }
      let code = errno
      if code == EINTR { continue }
      throw FileError(operation: "truncate", path: path, errno: code)
    }
  }

  /// `rename(2)`: atomically replaces `destination`.
  static func move(_ source: String, to destination: String) throws(FileError) {
    guard rename(source, destination) == 0 else {
      throw FileError(operation: "rename", path: "\(source) to \(destination)", errno: errno)
    }
  }

  /// `unlink(2)`; a missing file is not an error.
  static func remove(_ path: String) throws(FileError) {
    guard unlink(path) == 0 || errno == ENOENT else {
      throw FileError(operation: "unlink", path: path, errno: errno)
    }
  }

  /// `mkdir(2)`; returns `false` when the directory already exists.
  @discardableResult
  static func makeDirectory(_ path: String, mode: UInt32 = 0o700) throws(FileError) -> Bool {
    if mkdir(path, mode_t(mode)) == 0 { return true }
    let code = errno
    if code == EEXIST, (try? self.status(path))?.isDirectory == true { return false }
    throw FileError(operation: "mkdir", path: path, errno: code)
  }

  /// Creates `path` and its missing parents (each with `mode`).
  static func makeDirectories(_ path: String, mode: UInt32 = 0o700) throws(FileError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      prefix += component
      try self.makeDirectory(prefix, mode: mode)
      prefix += "/"
    }
  }

  /// `chmod(2)`.
  static func setMode(_ path: String, _ mode: UInt32) throws(FileError) {
    guard chmod(path, mode_t(mode)) == 0 else {
      throw FileError(operation: "chmod", path: path, errno: errno)
    }
  }

  /// `stat(2)`.
  static func status(_ path: String) throws(FileError) -> Status {
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw FileError(operation: "stat", path: path, errno: errno)
    }
    return Self.status(info)
  }

  /// `fstat(2)`.
  static func status(fd: Int32, path: String) throws(FileError) -> Status {
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw FileError(operation: "stat", path: path, errno: errno)
    }
    return Self.status(info)
  }

  private static func status(_ info: stat) -> Status {
    Status(
      size: Int64(info.st_size), mode: UInt32(info.st_mode) & 0o7777,
      isDirectory: (UInt32(info.st_mode) & UInt32(S_IFMT)) == UInt32(S_IFDIR))
  }

  /// Whether something exists at `path`.
  static func exists(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0
  }

  /// The names in a directory (without `.` and `..`).
  static func contents(of path: String) throws(FileError) -> [String] {
    guard let directory = opendir(path) else {
      throw FileError(operation: "opendir", path: path, errno: errno)
    }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// Takes an exclusive advisory lock (`flock(2)`) without waiting.
  ///
  /// - Returns: `false` when another open file description holds it.
  static func tryLock(_ fd: Int32, path: String) throws(FileError) -> Bool {
    while true {
      if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
      let code = errno
      if code == EINTR { continue }
      if code == EWOULDBLOCK { return false }
      throw FileError(operation: "flock", path: path, errno: code)
    }
  }

  /// Releases a lock taken by ``tryLock(_:path:)`` and closes its descriptor. Released
  /// explicitly, not by the close alone: a child forked by another thread of this process
  /// shares the lock's open file until it execs (the descriptor is close-on-exec), and would
  /// hold the lock that long after a plain close.
  static func unlockAndClose(_ fd: Int32) {
    while flock(fd, LOCK_UN) != 0 && errno == EINTR {}
    self.closeFile(fd)
  }

  /// Replaces the file's contents with `bytes` (at offset 0) without closing it.
  static func overwrite(_ fd: Int32, with bytes: [UInt8], path: String) throws(FileError) {
    try self.truncate(fd, to: 0, path: path)
    guard lseek(fd, 0, SEEK_SET) == 0 else {
      throw FileError(operation: "lseek", path: path, errno: errno)
    }
    if let failure = bytes.withUnsafeBytes({ self.writeAll(fd, $0, path: path) }) {
      throw failure.error
    }
  }

  // MARK: - Mapped files

  /// Opens (creating if needed) a file to read, write and map.
  static func openForMapping(_ path: String) throws(FileError) -> Int32 {
    try self.openFile(path, flags: O_RDWR | O_CREAT)
  }

  /// Allocates the file's blocks up to `length` bytes (extending it with zeros), so that
  /// writing through a mapping of them never needs space the disk lacks (`fallocate(2)`).
  ///
  /// - Returns: `false` when the file system cannot allocate ahead (then do not map it).
  static func allocate(_ fd: Int32, upTo length: Int, path: String) throws(FileError) -> Bool {
    #if os(Linux)
      while true {
        if fallocate(fd, 0, 0, off_t(length)) == 0 { return true }
        let code = errno
        if code == EINTR { continue }
        if code == EOPNOTSUPP || code == ENOSYS { return false }
        throw FileError(operation: "fallocate", path: path, errno: code)
      }
    #else
      return false
    #endif
  }

  /// Maps `length` bytes of a file from `offset` (a multiple of the page size), shared: what
  /// is written there is the file's page cache, handed to the operating system at once.
  static func map(
    _ fd: Int32, offset: Int, length: Int, path: String
  ) throws(FileError) -> UnsafeMutableRawPointer {
    let pointer = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
    guard let pointer, pointer != MAP_FAILED else {
      throw FileError(operation: "mmap", path: path, errno: errno)
    }
    return pointer
  }

  /// Unmaps what ``map(_:offset:length:path:)`` mapped (its dirty pages stay in the page cache
  /// and are written back as any other).
  static func unmap(_ pointer: UnsafeMutableRawPointer, length: Int) {
    _ = munmap(pointer, length)
  }

  /// `pwrite(2)` of every byte of `bytes` at `offset`.
  static func writeAll(
    _ fd: Int32, _ bytes: [UInt8], at offset: Int, path: String
  ) throws(FileError) {
    var done = 0
    while done < bytes.count {
      let result = bytes.withUnsafeBytes {
        pwrite(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done))
      }
      if result >= 0 {
        done += result
        continue
      }
      let code = errno
      if code == EINTR { continue }
      throw FileError(operation: "write", path: path, errno: code)
    }
  }

  /// `EOPNOTSUPP`: the file system does not support the operation.
  static var notSupported: Int32 { EOPNOTSUPP }

  /// The process id.
  static var processID: Int32 { getpid() }

  /// The current time as a compact UTC timestamp for file names, e.g. `20261122T001051Z`.
  static func fileTimestamp() -> String {
    var now = time(nil)
    var parts = tm()
    gmtime_r(&now, &parts)
    func pad(_ value: Int32, _ width: Int = 2) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(pad(parts.tm_year + 1900, 4))\(pad(parts.tm_mon + 1))\(pad(parts.tm_mday))T"
      + "\(pad(parts.tm_hour))\(pad(parts.tm_min))\(pad(parts.tm_sec))Z"
  }
}

