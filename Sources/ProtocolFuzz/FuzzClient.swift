import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One adversarial connection: it greets (or not), pipelines random requests, learns its
/// subscriptions and tails from the replies to drop them later, stops reading for a while so
/// that the host's side fills up, and ends in one of several rude ways.
final class FuzzClient {
  /// How a connection ends once it has sent what it meant to.
  enum Ending: CaseIterable {
    /// Closes at once, with whatever is still queued unsent (often in the middle of a frame).
    case abrupt
    /// Sends part of a frame, then closes.
    case tornFrame
    /// Announces a frame over the host's limit, then closes.
    case oversizedFrame
    /// Half-closes (the host reads end of input) and keeps reading for a while.
    case halfClose
    /// Stops reading, keeps sending until the host pushes back, then closes.
    case stopReading
    /// Asks for large replies (tails from long ago, long histories, whole states), drops
    /// them again, and leaves without reading: the host's writes fail while it still has
    /// the connection's requests to read and its tails to walk.
    case leaveMidReply
  }

  let fd: Int32
  private var outbound: [UInt8] = []
  private var outboundStart = 0
  private var decoder = FrameDecoder(maxFrameSize: 64 << 20)
  private(set) var subs: [Int64] = []
  private var nextID: Int64 = 1
  private var requestsLeft: Int
  private let ending: Ending
  private var greeted = false
  /// Loop turns left before reading resumes (0: reading).
  private var pausedTurns = 0
  /// Loop turns left before a half-closed or non-reading connection is dropped.
  private var lingerTurns = 0
  private(set) var isFinished = false
  /// The last requests, for a report if the host dies.
  private(set) var recent: [String] = []
  private(set) var framesReceived = 0
  /// The id of the `ping` that ends the last burst: the next burst waits for its `pong`, so the
  /// fuzzer's pace follows the host's instead of burying it under a backlog it would spend
  /// minutes working through.
  private var awaitedPong: Int64?

  init(fd: Int32, random: inout SplitMix64) {
    self.fd = fd
    self.requestsLeft = Int.random(in: 1...400, using: &random)
    self.ending = random.pick(Ending.allCases)
  }

  /// Whether the connection reads now (it pauses now and then, so that the host's side fills).
  var wantsRead: Bool { self.pausedTurns == 0 }
  /// Whether bytes are queued to send.
  var wantsWrite: Bool { self.outbound.count > self.outboundStart }

  /// Queues one frame with `text` as its payload.
  private func queue(_ text: String, _ random: inout SplitMix64) {
    let payload = Array(text.utf8)
    var length = UInt32(payload.count)
    if random.chance(1) { length = 0 }  // an empty frame: bad_frame, then close
    withUnsafeBytes(of: length.bigEndian) { self.outbound.append(contentsOf: $0) }
    if length > 0 { self.outbound.append(contentsOf: payload) }
    self.recent.append(text.count > 160 ? String(text.prefix(160)) + "…" : text)
    if self.recent.count > 12 { self.recent.removeFirst() }
  }

  /// One turn of the driver's loop: reads, writes, and decides what to send next.
  ///
  /// - Returns: The number of requests queued.
  func turn(readable: Bool, writable: Bool, generator: inout RequestGenerator, _ random: inout SplitMix64) -> Int {
    if readable { self.readAvailable(generator: &generator) }
    if self.isFinished { return 0 }
    if writable || self.wantsWrite { self.writeAvailable() }
    if self.isFinished { return 0 }
    if self.pausedTurns > 0 { self.pausedTurns -= 1 }
    if self.lingerTurns > 0 {
      self.lingerTurns -= 1
      if self.lingerTurns == 0 { self.finish() }
      return 0
    }
    guard self.outbound.count - self.outboundStart < 32 << 10 else {
      if self.ending == .stopReading && self.requestsLeft == 0 { self.finish() }
      return 0
    }
    if self.requestsLeft == 0 {
      self.end(&random)
      return 0
    }
    guard self.awaitedPong == nil else { return 0 }
    if !self.greeted {
      self.greeted = true
      self.queue(generator.hello(&random), &random)
      return 1
    }
    if random.chance(3) { self.pausedTurns = Int.random(in: 1...200, using: &random) }
    let burst = min(self.requestsLeft, Int.random(in: 1...8, using: &random))
    for _ in 0..<burst {
      self.queue(generator.request(id: self.nextID, subs: self.subs, &random), &random)
      self.nextID += 1
    }
    self.requestsLeft -= burst
    // Now and then a burst is not waited for: requests then pile up in the host's socket.
    if !random.chance(5) {
      self.queue(#"{"type":"ping","id":\#(self.nextID)}"#, &random)
      self.awaitedPong = self.nextID
      self.nextID += 1
    }
    return burst
  }

  private func end(_ random: inout SplitMix64) {
    switch self.ending {
    case .abrupt:
      self.finish()
    case .tornFrame:
      var frame: [UInt8] = []
      let payload = Array(#"{"type":"send","scope":"counter","action":{"incrementButtonTapped":{}},"id":1}"#.utf8)
      withUnsafeBytes(of: UInt32(payload.count).bigEndian) { frame.append(contentsOf: $0) }
      frame.append(contentsOf: payload)
      let cut = Int.random(in: 1..<frame.count, using: &random)
      _ = RawSocket.write(self.fd, frame[..<cut])
      self.finish()
    case .oversizedFrame:
      var header: [UInt8] = []
      withUnsafeBytes(of: UInt32(0x7FFF_FFFF).bigEndian) { header.append(contentsOf: $0) }
      _ = RawSocket.write(self.fd, header[...])
      self.lingerTurns = Int.random(in: 1...20, using: &random)
    case .halfClose:
      RawSocket.shutdownWrite(self.fd)
      self.lingerTurns = Int.random(in: 1...50, using: &random)
    case .stopReading:
      self.pausedTurns = Int.max / 2
      self.lingerTurns = Int.random(in: 20...200, using: &random)
    case .leaveMidReply:
      let base = (self.subs.max() ?? 0) + 1
      for offset in 0..<Int64.random(in: 1...6, using: &random) {
        let large = random.pick([
          #"{"type":"tail","id":\#(self.nextID),"since":0}"#,
          #"{"type":"history","id":\#(self.nextID),"since":0,"limit":10000}"#,
          #"{"type":"subscribe","id":\#(self.nextID),"scope":"shop"}"#,
          #"{"type":"get","id":\#(self.nextID),"scope":"todos"}"#,
        ])
        self.queue(large, &random)
        self.nextID += 1
        if random.chance(70) {
          self.queue(#"{"type":"unsubscribe","id":\#(self.nextID),"sub":\#(base + offset)}"#, &random)
          self.nextID += 1
        }
      }
      self.writeAvailable()
      self.finish()
    }
  }

  private func readAvailable(generator: inout RequestGenerator) {
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    for _ in 0..<8 {
      switch RawSocket.read(self.fd, into: &buffer) {
      case .done(let count):
        let chunk = buffer[..<count]
        do {
          try self.decoder.decode(Array(chunk)) { payload in
            self.framesReceived += 1
            let text = String(decoding: payload, as: UTF8.self)
            self.learn(from: text, generator: &generator)
          }
        } catch {
          // The host never sends a bad frame: that is a finding, not noise.
          fatalError("the host sent a bad frame: \(error)")
        }
        if count < buffer.count { return }
      case .wouldBlock:
        return
      case .closed:
        self.finish()
        return
      }
    }
  }

  private func learn(from text: String, generator: inout RequestGenerator) {
    if let awaited = self.awaitedPong, text.hasPrefix(#"{"type":"pong","id":\#(awaited)}"#) {
      self.awaitedPong = nil
    }
    if text.hasPrefix(#"{"type":"subscribed""#) || text.hasPrefix(#"{"type":"tailing""#),
      let range = text.range(of: #""sub":"#)
    {
      let digits = text[range.upperBound...].prefix { $0.isNumber }
      if let sub = Int64(digits) { self.subs.append(sub) }
    }
    if text.hasPrefix(#"{"type":"state""#) || text.hasPrefix(#"{"type":"subscribed""#)
      || text.hasPrefix(#"{"type":"ack""#) || text.hasPrefix(#"{"type":"history""#)
    {
      generator.learn(from: text[...])
    }
    if self.subs.count > 300 { self.subs.removeFirst(100) }
  }

  private func writeAvailable() {
    while self.outboundStart < self.outbound.count {
      switch RawSocket.write(self.fd, self.outbound[self.outboundStart...]) {
      case .done(let count):
        self.outboundStart += count
      case .wouldBlock:
        if self.outboundStart > 1 << 20 {
          self.outbound.removeFirst(self.outboundStart)
          self.outboundStart = 0
        }
        return
      case .closed:
        self.finish()
        return
      }
    }
    self.outbound.removeAll(keepingCapacity: true)
    self.outboundStart = 0
  }

  /// Closes the socket, whatever is still queued.
  func finish() {
    guard !self.isFinished else { return }
    self.isFinished = true
    close(self.fd)
  }
}
