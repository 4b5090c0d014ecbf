import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The host process under test, watched through `/proc`: whether it is still alive, and its
/// resident memory.
struct HostWatch {
  /// The host's process id, when given (`--host-pid`); without it only its socket is watched.
  let processID: Int32?

  /// Why the host is known to be dead, or `nil` while it lives.
  func deathNotice() -> String? {
    guard let pid = self.processID else { return nil }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
      return kill(pid, 0) == 0 ? nil : "process \(pid) has exited"
    }
    // The state is the field after the parenthesized command name.
    if let close = stat.lastIndex(of: ")") {
      let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
      if state == "Z" || state == "X" { return "process \(pid) has exited (it is a zombie)" }
    }
    return nil
  }

  /// The host's resident set size in bytes (`VmRSS`), when it can be read.
  func residentBytes() -> Int? {
    guard let pid = self.processID,
      let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      let digits = line.split(separator: " ").dropFirst().first.map(String.init) ?? ""
      return Int(digits).map { $0 * 1024 }
    }
    return nil
  }
}
