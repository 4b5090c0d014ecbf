/// A host's data directory, open and locked: created with mode 0700 if it does not exist, and
/// held with an exclusive lock on its `lock` file for as long as the host runs, so that a
/// second host on the same directory is refused rather than interleave its writes.
///
/// The lock is `flock(2)`'s: the kernel releases it when the process exits however it exits
/// (kill -9 included), so a crash never leaves a stale lock behind.
///
/// `@unchecked Sendable`: its stored properties are constants set in `init`; the lock's file
/// descriptor is only closed by ``unlock()``, which the host calls once, after every other use.
final class DataDirectory: @unchecked Sendable {
  /// The directory's path.
  let path: String
  /// Whether the directory was created by this open (it did not exist, or `--reset` moved the
  /// old one aside).
  let isNew: Bool
  /// Where `--reset` moved the previous directory, if it did.
  let movedAside: String?
  private let lockFD: Int32

  /// Opens (creating if needed) and locks the directory at `path`.
  ///
  /// - Parameters:
  ///   - path: The directory.
  ///   - reset: Move an existing directory aside to `<path>.old-<timestamp>` first, and start
  ///     with an empty one.
  /// - Throws: ``DurabilityFailure`` with what went wrong and what to do.
  init(path: String, reset: Bool) throws(DurabilityFailure) {
    var path = path
    while path.count > 1, path.hasSuffix("/") { path.removeLast() }
    self.path = path
    var movedAside: String?
    if reset, FileSystem.exists(path) {
      // Lock the old directory first: a running host's directory is never moved away.
      let old = try Self.lock(path)
      let destination = "\(path).old-\(FileSystem.fileTimestamp())"
      do {
        try FileSystem.move(path, to: destination)
      } catch {
        FileSystem.unlockAndClose(old)
        throw DurabilityFailure(
          "cannot move \(path) aside for --reset: \(error); move or remove it yourself, then "
            + "start again without --reset")
      }
      FileSystem.unlockAndClose(old)
      movedAside = destination
    }
    self.movedAside = movedAside
    let created: Bool
    do {
      let parent = Self.parent(of: path)
      if !FileSystem.exists(parent) { try FileSystem.makeDirectories(parent, mode: 0o700) }
      created = try FileSystem.makeDirectory(path, mode: 0o700)
      if created { try FileSystem.synchronizeDirectory(parent) }
    } catch {
      throw DurabilityFailure(
        "cannot create the data directory \(path): \(error); choose another with --data")
    }
    self.isNew = created
    self.lockFD = try Self.lock(path)
  }

  /// Releases the lock (when the host has stopped writing).
  func unlock() {
    FileSystem.unlockAndClose(self.lockFD)
  }

  /// The path of a file in the directory.
  func file(_ name: String) -> String {
    self.path + "/" + name
  }

  /// Takes the directory's lock and writes this process's id into the lock file.
  private static func lock(_ path: String) throws(DurabilityFailure) -> Int32 {
    let lockPath = path + "/" + DataLayout.lockName
    let fd: Int32
    do {
      fd = try FileSystem.openForLocking(lockPath)
    } catch {
      throw DurabilityFailure(
        "cannot open \(lockPath): \(error); check the permissions of \(path), or choose "
          + "another directory with --data")
    }
    let locked: Bool
    do {
      locked = try FileSystem.tryLock(fd, path: lockPath)
    } catch {
      FileSystem.closeFile(fd)
      throw DurabilityFailure("cannot lock \(lockPath): \(error)")
    }
    guard locked else {
      let holder = (try? FileSystem.readAll(lockPath)).map {
        String(decoding: $0, as: UTF8.self).filter(\.isNumber)
      }
      FileSystem.closeFile(fd)
      let who = holder.flatMap { $0.isEmpty ? nil : " (pid \($0))" } ?? ""
      throw DurabilityFailure(
        "\(path) is in use by another host\(who); stop it first, or choose another "
          + "directory with --data")
    }
    try? FileSystem.overwrite(fd, with: Array("\(FileSystem.processID)\n".utf8), path: lockPath)
    return fd
  }

  private static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}

/// Why a data directory cannot be used, phrased for the person starting the host: what is
/// wrong, where, and what to do.
@usableFromInline
struct DurabilityFailure: Error, Sendable, CustomStringConvertible {
  /// The message.
  @usableFromInline let message: String

  init(_ message: String) { self.message = message }

  @usableFromInline var description: String { self.message }
}
