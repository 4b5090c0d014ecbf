import Foundation
import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A well-behaved client's visit after the storm: hello, a `get`, a `send` that must be
/// acknowledged, a `ping` — each reply checked.
enum HealthCheck {
  /// Runs the visit.
  ///
  /// - Parameter socketPath: The host's socket.
  /// - Throws: ``FuzzFailure/unhealthy(_:)`` naming the first reply that is missing or wrong.
  static func run(socketPath: String, host: HostWatch) throws(FuzzFailure) {
    guard let fd = RawSocket.connect(path: socketPath) else {
      throw .unhealthy("cannot connect to \(socketPath): \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    var frames: [UInt8] = []
    for text in [
      #"{"type":"hello","protocol":1,"client":"fuzz-health"}"#,
      #"{"type":"get","id":1,"scope":"counter"}"#,
      #"{"type":"send","id":2,"scope":"counter","action":{"incrementButtonTapped":{}}}"#,
      #"{"type":"ping","id":3}"#,
    ] {
      let payload = Array(text.utf8)
      withUnsafeBytes(of: UInt32(payload.count).bigEndian) { frames.append(contentsOf: $0) }
      frames.append(contentsOf: payload)
    }
    var sent = 0
    while sent < frames.count {
      switch RawSocket.write(fd, frames[sent...]) {
      case .done(let count): sent += count
      case .wouldBlock: usleep(1_000)
      case .closed: throw .unhealthy("the host closed the connection while it was being greeted")
      }
    }
    var decoder = FrameDecoder(maxFrameSize: 64 << 20)
    var replies: [String] = []
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    // Waits for the pong as long as the host lives: a loaded machine may be slow, never wrong.
    while !replies.contains(where: { $0.hasPrefix(#"{"type":"pong""#) }) {
      if let death = host.deathNotice() { throw .unhealthy(death) }
      var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 1_000) > 0 else { continue }
      switch RawSocket.read(fd, into: &buffer) {
      case .done(let count):
        let failure: FrameError? = {
          do throws(FrameError) {
            try decoder.decode(Array(buffer[..<count])) { replies.append(String(decoding: $0, as: UTF8.self)) }
            return nil
          } catch { return error }
        }()
        if let failure { throw .unhealthy("a bad frame from the host: \(failure)") }
      case .wouldBlock: continue
      case .closed: throw .unhealthy("the host closed the connection; replies so far: \(replies)")
      }
    }
    let expected = [#"{"type":"welcome""#, #"{"type":"state","id":1"#, #"{"type":"ack","id":2"#, #"{"type":"pong","id":3"#]
    // Pushes may come between replies (the counter's timer, effects): only replies are checked.
    let answers = replies.filter { !$0.hasPrefix(#"{"type":"patch""#) && !$0.hasPrefix(#"{"type":"entry""#) }
    for (want, got) in zip(expected, answers) where !got.hasPrefix(want) {
      throw .unhealthy("expected a reply starting \(want), got \(got.prefix(200))")
    }
    guard answers.count >= expected.count else {
      throw .unhealthy("expected \(expected.count) replies, got \(answers)")
    }
  }
}
