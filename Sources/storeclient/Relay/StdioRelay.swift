/// Relays bytes between this process's standard input and output and a connected socket, in
/// both directions at once, until either side closes — what `storeclient dial-stdio` does
/// for a client at the other end of an `ssh` connection.
///
/// ```
///   standard input  ──▶ to the host ──▶ socket
///   standard output ◀── to the client ◀── socket
/// ```
///
/// Nothing is parsed: bytes go through as they come. Each direction buffers at most
/// ``bufferLimit`` bytes and stops reading its source while that is full, so a slow reader on
/// one side slows the other down instead of growing memory. When standard input ends, the
/// socket's writing side is shut down (the host sees the end of the client's requests) and
/// what the host still sends is delivered before the relay ends.
struct StdioRelay {
  /// The connected socket; the relay closes it when it ends.
  let socket: Int32
  /// Where the client's bytes come from.
  var input = Platform.standardInput
  /// Where the host's bytes go.
  var output = Platform.standardOutput

  /// The most bytes waiting in one direction before its source is no longer read.
  static let bufferLimit = 256 * 1024

  /// How a relay ended.
  enum Outcome: Equatable {
    /// The client's input ended, and everything the host sent until it closed was delivered.
    case clientFinished
    /// The host closed the connection, or it failed (`error`), while the client was there.
    case hostClosed(error: String?)
    /// Standard output (or input) failed: the client at the other end is gone.
    case clientGone(error: String)
  }

  /// Runs until one side closes; blocks the calling thread.
  ///
  /// - Returns: How it ended.
  func run() -> Outcome {
    defer { Platform.closeDescriptor(self.socket) }
    var toHost = Pending()
    var toClient = Pending()
    var inputOpen = true
    var hostReading = true  // the host may still send
    var hostWriting = true  // we may still write to the host
    var hostError: String?
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
    defer { scratch.deallocate() }
    while true {
      if !hostReading && toClient.isEmpty {
        return inputOpen || hostError != nil ? .hostClosed(error: hostError) : .clientFinished
      }
      if !inputOpen && toHost.isEmpty && hostWriting {
        Platform.shutdownWriting(self.socket)
        hostWriting = false
      }
      var socketEvents: Int16 = 0
      if hostReading && toClient.count < Self.bufferLimit { socketEvents |= Platform.readable }
      if hostWriting && !toHost.isEmpty { socketEvents |= Platform.writable }
      let ready = Platform.waitForReadiness([
        (inputOpen && toHost.count < Self.bufferLimit ? self.input : -1, Platform.readable),
        (self.socket, socketEvents),
        (self.output, toClient.isEmpty ? 0 : Platform.writable),
      ])
      // The client's side: its bytes in, the host's bytes out.
      if inputOpen && ready[0] & (Platform.readable | Platform.hangUp) != 0 {
        switch Platform.readSome(self.input, into: scratch) {
        case .moved(let count): toHost.append(UnsafeRawBufferPointer(rebasing: scratch[..<count]))
        case .end: inputOpen = false
        case .wouldBlock: break
        case .failed(let error): return .clientGone(error: "reading standard input: \(error)")
        }
      }
      if !toClient.isEmpty && ready[2] & (Platform.writable | Platform.hangUp) != 0 {
        switch toClient.drain(into: self.output) {
        case .failed(let error): return .clientGone(error: "writing standard output: \(error)")
        default: break
        }
      } else if toClient.isEmpty && ready[2] & Platform.hangUp != 0 {
        return .clientGone(error: "standard output was closed")
      }
      // The host's side.
      if hostReading && ready[1] & (Platform.readable | Platform.hangUp) != 0 {
        switch Platform.readSome(self.socket, into: scratch) {
        case .moved(let count): toClient.append(UnsafeRawBufferPointer(rebasing: scratch[..<count]))
        case .end: hostReading = false
        case .wouldBlock: break
        case .failed(let error):
          hostReading = false
          hostError = "\(error)"
        }
      }
      if hostWriting && !toHost.isEmpty && ready[1] & (Platform.writable | Platform.hangUp) != 0 {
        if case .failed(let error) = toHost.drain(into: self.socket) {
          // The host is gone; what it sent before may still be unread, and is delivered.
          hostWriting = false
          toHost = Pending()
          hostError = hostError ?? "\(error)"
        }
      }
    }
  }
}

/// Bytes waiting to be written, in order.
private struct Pending {
  private var bytes: [UInt8] = []
  private var start = 0

  var count: Int { self.bytes.count - self.start }
  var isEmpty: Bool { self.count == 0 }

  mutating func append(_ chunk: UnsafeRawBufferPointer) {
    if self.start > 0 && self.start == self.bytes.count {
      self.bytes.removeAll(keepingCapacity: true)
      self.start = 0
    }
    self.bytes.append(contentsOf: chunk)
  }

  /// Writes what `fd` takes now (at most 64 KiB at a time).
  mutating func drain(into fd: Int32) -> Platform.Transfer {
    let end = min(self.bytes.count, self.start + 64 * 1024)
    let result = self.bytes.withUnsafeBytes {
      Platform.writeSome(fd, UnsafeRawBufferPointer(rebasing: $0[self.start..<end]))
    }
    if case .moved(let count) = result {
      self.start += count
      if self.start == self.bytes.count {
        self.bytes.removeAll(keepingCapacity: self.bytes.capacity <= 1 << 20)
        self.start = 0
      }
    }
    return result
  }
}
