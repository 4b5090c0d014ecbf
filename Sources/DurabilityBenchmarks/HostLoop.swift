import Examples
import Foundation
import Hosting
import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A host and one blocking client in the same process, for counting the host's instructions per
/// action under callgrind: the difference between two action counts, for each storage mode,
/// is what an action costs there (startup and the client's own work cancel out between modes).
enum HostLoop {
  static func run(storage: String, actions: Int) async throws {
    let directory = NSTemporaryDirectory() + "durability-loop-\(getpid())"
    try? FileManager.default.removeItem(atPath: directory)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let persistence: Persistence
    switch storage {
    case "ephemeral": persistence = .inMemory
    default:
      guard let fsync = FsyncPolicy(name: storage) else {
        throw LoopError("storage: ephemeral, always, everysec or no, not \(storage)")
      }
      persistence = .directory(directory, fsync: fsync)
    }
    var configuration = HostConfiguration(socketPath: directory + ".sock")
    configuration.logLevel = .error
    let host = try await StoreHost.start(
      app: "loop", initialState: AppFeature.State(), reducer: { AppFeature() },
      scopes: [.scope("counter", state: \.counter, action: \.counter)],
      configuration: configuration, persistence: persistence)
    try await Task.detached { try Self.drive(path: host.socketPath, actions: actions) }.value
    await host.shutdown()
  }

  struct LoopError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  /// Sends `actions` increments, one in flight, each waiting for its ack.
  private static func drive(path: String, actions: Int) throws {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else { throw LoopError("connect: errno \(errno)") }
    var decoder = FrameDecoder(maxFrameSize: 1 << 20)
    func send(_ text: String) {
      let payload = Array(text.utf8)
      let length = UInt32(payload.count).bigEndian
      let frame = withUnsafeBytes(of: length) { Array($0) } + payload
      _ = frame.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
    var buffer = [UInt8](repeating: 0, count: 65536)
    func next() throws {
      while true {
        if try decoder.nextFrame() != nil { return }
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw LoopError("the host closed the connection") }
        buffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
      }
    }
    send(#"{"type":"hello","protocol":1}"#)
    try next()
    for id in 1...actions {
      send(#"{"type":"send","id":\#(id),"scope":"counter","action":{"incrementButtonTapped":{}}}"#)
      try next()
    }
  }
}
