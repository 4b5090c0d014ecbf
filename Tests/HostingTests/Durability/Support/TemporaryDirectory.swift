import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A fresh directory under /tmp, removed with everything in it when the value goes away:
/// the durability tests write nowhere else.
final class TemporaryDirectory {
  let path: String

  init() {
    var template = Array("/tmp/sd-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    self.path = String(cString: made!)
  }

  /// A path inside the directory.
  func file(_ name: String) -> String { self.path + "/" + name }

  deinit {
    try? FileManager.default.removeItem(atPath: self.path)
  }
}

/// Files of a data directory, for tests that read or damage them.
enum DataFiles {
  static func names(in directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
  }

  static func segments(in directory: String) -> [String] {
    self.names(in: directory).filter { $0.hasPrefix("journal-") && $0.hasSuffix(".log") }
  }

  static func snapshots(in directory: String) -> [String] {
    self.names(in: directory).filter { $0.hasPrefix("snapshot-") && $0.hasSuffix(".snap") }
  }

  static func read(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  static func write(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  /// Copies a directory's files into a new temporary directory.
  static func copy(_ directory: String) throws -> TemporaryDirectory {
    let copy = TemporaryDirectory()
    for name in self.names(in: directory) where name != "lock" {
      try self.write(try self.read(directory + "/" + name), to: copy.file(name))
    }
    return copy
  }
}

/// Waits until `condition` holds, polling; throws after `timeout` seconds.
func waitUntil(
  _ what: String, timeout: Double = 20, _ condition: () throws -> Bool
) async throws {
  let deadline = Date().addingTimeInterval(timeout)
  while Date() < deadline {
    if try condition() { return }
    try await Task.sleep(for: .milliseconds(5))
  }
  throw HarnessError("timed out after \(timeout) s waiting until \(what)")
}
