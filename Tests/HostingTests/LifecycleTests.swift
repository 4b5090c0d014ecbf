import Foundation
import Testing
import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Starting, refusing, replacing and stopping hosts: real processes, real socket files.
@Suite(.serialized)
struct LifecycleTests {
  @Test func socketFileIsPrivateByDefault() throws {
    let host = try HostProcess()
    var info = stat()
    #expect(stat(host.socketPath, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o600)

    let open = try HostProcess(arguments: ["--mode", "660"])
    #expect(stat(open.socketPath, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o660)
  }

  @Test func secondHostOnTheSamePathIsRefused() throws {
    let first = try HostProcess()
    let second = try HostProcess(directory: first.directory, waitForListening: false)
    let status = second.stop(signal: 0, timeout: 10)
    #expect(status != 0)
    #expect(second.stderr.contains(first.socketPath), "stderr: \(second.stderr)")
    #expect(second.stderr.contains("already listening"))
    // The first host is unharmed.
    _ = try WireClient.greeted(path: first.socketPath)
  }

  @Test func staleSocketFileIsReplaced() throws {
    let directory = HostProcess.makeDirectory()
    let path = directory + "/host.sock"
    // A socket file with nothing listening, as a crashed host leaves behind.
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    #expect(bound == 0)
    close(fd)
    #expect(FileManager.default.fileExists(atPath: path))
    #expect(!UnixListener.isListenerAlive(path: path))

    let host = try HostProcess(directory: directory)
    _ = try WireClient.greeted(path: host.socketPath)
  }

  @Test func sigtermSaysByeRemovesTheSocketAndExitsZero() throws {
    let host = try HostProcess()
    let clients = try (0..<3).map { _ in try WireClient(path: host.socketPath) }
    for client in clients { try client.hello() }
    _ = try clients[0].request(#"{"type":"subscribe","id":1,"scope":"counter"}"#)
    kill(host.processID, SIGTERM)
    for client in clients {
      let bye = try client.expect("bye")
      #expect(bye["reason"] == .string("shutdown"))
      #expect(client.waitForClose())
    }
    #expect(host.stop() == 0)
    #expect(!FileManager.default.fileExists(atPath: host.socketPath))
    #expect(host.stderr.contains("stopped"))
  }

  @Test func sigintStopsTooAndLogsOneLinePerEvent() throws {
    let host = try HostProcess()
    let client = try WireClient.greeted(path: host.socketPath)
    try client.send("{nope")
    _ = try client.expect("error")
    #expect(host.stop(signal: SIGINT) == 0)
    let log = host.stderr
    #expect(log.contains(" info listening on \(host.socketPath)"))
    #expect(log.contains(" info connect session="))
    #expect(log.contains(" info disconnect session="))
    #expect(log.contains(" warning ") || log.contains(" debug "))
  }

  @Test func usageErrorsExit64WithoutStarting() throws {
    for arguments in [
      ["--max-frame", "tiny"], ["--log-level", "loud"], ["--bogus"], ["--app", "nope"],
      ["--max-buffered", "1000"], ["--max-frame", "4096", "--max-buffered", "4095"],
      ["--frame-timeout", "0"], ["--frame-timeout", "soon"],
    ] {
      let host = try HostProcess(arguments: arguments, waitForListening: false)
      #expect(host.stop(signal: 0) == 64, "arguments \(arguments)")
      #expect(host.stderr.hasPrefix("Error: "), "arguments \(arguments): \(host.stderr)")
      #expect(host.stderr.contains("Usage: storehost"))
    }
  }

  @Test func memoryLimitsAreCheckedBeforeStarting() throws {
    let cases: [([String], String)] = [
      (
        ["--max-frame", "4096", "--max-buffered", "4095"],
        "Error: The value '4095' is invalid for '--max-buffered': it must be at least the largest frame, 4096 bytes"
      ),
      (["--frame-timeout", "0"], "Error: The value '0' is invalid for '--frame-timeout': expected an integer from 1 to 86400"),
    ]
    for (arguments, message) in cases {
      let host = try HostProcess(arguments: arguments, waitForListening: false)
      #expect(host.stop(signal: 0) == 64, "arguments \(arguments)")
      #expect(host.stderr.hasPrefix(message), "arguments \(arguments): \(host.stderr)")
    }
  }

  @Test func pythonClientFromTheProtocolAloneWorks() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/python3") else {
      print("skipped: python3 is not installed")
      return
    }
    let host = try HostProcess()
    let script = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("clients/python/store_client.py").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script, "--socket", host.socketPath, "--sends", "50"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    process.waitUntilExit()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 0, "\(text)")
    #expect(text.contains("acked 50"))
  }
}
