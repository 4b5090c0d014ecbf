import Dispatch
import Synchronization
import Wire

// Transport benchmarks: framing and frame-level message encoding, then real Unix sockets.
// Every figure is the median of 5 runs; run in release mode (`swift run -c release WireBenchmarks`).

/// Runs the transport benchmarks and prints one line per figure.
func runTransportBenchmarks() {
  print("== Transport (median of 5 runs)")
  benchmarkFrameDecoding()
  benchmarkFrameEncoding()
  benchmarkSockets()
}

// MARK: - Helpers

/// Runs `body` 5 times (after one warm-up) and returns the median duration in seconds.
private func medianSeconds(_ body: () -> Void) -> Double {
  body()
  var samples: [Double] = []
  for _ in 0..<5 {
    let start = ContinuousClock.now
    body()
    let elapsed = ContinuousClock.now - start
    let (seconds, attoseconds) = elapsed.components
    samples.append(Double(seconds) + Double(attoseconds) * 1e-18)
  }
  return samples.sorted()[2]
}

private func report(_ name: String, _ value: Double, _ unit: String) {
  let padded = name + String(repeating: " ", count: max(0, 58 - name.count))
  let number = value >= 100 ? String(Int(value.rounded())) : String((value * 10).rounded() / 10)
  print("  \(padded) \(number) \(unit)")
}

/// A 60-byte `send` message payload.
private let smallPayload = Array(
  #"{"type":"send","id":12,"scope":"counter","action":{"inc":{}}}"#.utf8)

// MARK: - Framing

private func benchmarkFrameDecoding() {
  // Many small frames: 100,000 × 60 bytes, fed in 64 KiB chunks as a socket would deliver them.
  var small: [UInt8] = []
  for _ in 0..<100_000 { FrameEncoder.appendFrame(to: &small, bytes: smallPayload) }
  // A few big frames: 4 × 4 MiB.
  var big: [UInt8] = []
  let bigPayload = [UInt8](repeating: 0x61, count: 4 << 20)
  for _ in 0..<4 { FrameEncoder.appendFrame(to: &big, bytes: bigPayload) }

  for (label, stream, count) in [
    ("small frames (60 B)", small, 100_000), ("big frames (4 MiB)", big, 4),
  ] {
    var checksum = 0
    let streaming = medianSeconds {
      var decoder = FrameDecoder()
      stream.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
          let end = min(offset + 65536, raw.count)
          try! decoder.decode(UnsafeRawBufferPointer(rebasing: raw[offset..<end])) {
            checksum &+= $0.count
          }
          offset = end
        }
      }
    }
    let buffering = medianSeconds {
      var decoder = FrameDecoder()
      stream.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
          let end = min(offset + 65536, raw.count)
          decoder.append(UnsafeRawBufferPointer(rebasing: raw[offset..<end]))
          while let frame = try! decoder.nextFrame() { checksum &+= frame.count }
          offset = end
        }
      }
    }
    precondition(checksum > 0)
    let megabytes = Double(stream.count) / 1e6
    report("frame decode, \(label), decode(_:onFrame:)", megabytes / streaming, "MB/s")
    report("frame decode, \(label), append + nextFrame", megabytes / buffering, "MB/s")
    if count > 1000 {
      report("  ns per small frame, decode(_:onFrame:)", streaming / Double(count) * 1e9, "ns")
      report("  ns per small frame, append + nextFrame", buffering / Double(count) * 1e9, "ns")
    }
  }
}

private func benchmarkFrameEncoding() {
  let count = 100_000
  var buffer: [UInt8] = []
  buffer.reserveCapacity(1 << 20)
  let raw = medianSeconds {
    for index in 0..<count {
      if index % 1000 == 0 { buffer.removeAll(keepingCapacity: true) }
      FrameEncoder.appendFrame(to: &buffer, bytes: smallPayload)
    }
  }
  report("frame encode, 60 B payload (prefix + copy)", raw / Double(count) * 1e9, "ns")

  let ack = HostMessage.ack(id: 12, rev: 4242)
  let ackTime = medianSeconds {
    for index in 0..<count {
      if index % 1000 == 0 { buffer.removeAll(keepingCapacity: true) }
      ack.encodeFrame(into: &buffer)
    }
  }
  report("HostMessage.ack → frame bytes (encodeFrame)", ackTime / Double(count) * 1e9, "ns")

  let patch = HostMessage.patch(
    sub: 1, base: 41, rev: 42,
    ops: [.object(["op": .string("replace"), "path": .string("/count"), "value": .int(4)])])
  let patchTime = medianSeconds {
    for index in 0..<count {
      if index % 1000 == 0 { buffer.removeAll(keepingCapacity: true) }
      patch.encodeFrame(into: &buffer)
    }
  }
  report("HostMessage.patch (1 replace op) → frame bytes", patchTime / Double(count) * 1e9, "ns")

  let send = ClientMessage.send(
    id: 12, scope: "counter", action: .object(["incrementButtonTapped": .object([:])]))
  let sendTime = medianSeconds {
    for index in 0..<count {
      if index % 1000 == 0 { buffer.removeAll(keepingCapacity: true) }
      send.encodeFrame(into: &buffer)
    }
  }
  report("ClientMessage.send → frame bytes (encodeFrame)", sendTime / Double(count) * 1e9, "ns")

  let sendJSON = send.json
  var decoded = 0
  let decodeTime = medianSeconds {
    for _ in 0..<count {
      if case .send = try! ClientMessage(json: sendJSON) { decoded += 1 }
    }
  }
  precondition(decoded > 0)
  report(
    "ClientMessage(json:) for a send (typed decode only)", decodeTime / Double(count) * 1e9, "ns")
}

// MARK: - Sockets

/// An echo host on its own loop: every frame read is written back, in the read callback.
private final class EchoHost: Sendable {
  let loop = EventLoop(name: "bench-host")
  let path: String

  init() {
    self.path = "/tmp/wire-bench-\(UInt32.random(in: 0...UInt32.max)).sock"
    let loop = self.loop
    let path = self.path
    let ready = DispatchSemaphore(value: 0)
    loop.execute {
      let listener = try! UnixListener.listen(path: path, replaceStaleSocket: true, loop: loop) {
        connection in
        var decoder = FrameDecoder()
        connection.onRead = { bytes in
          try! decoder.decode(bytes) { payload in
            connection.withOutboundBuffer { FrameEncoder.appendFrame(to: &$0, bytes: payload) }
          }
        }
      }
      _ = listener
      ready.signal()
    }
    ready.wait()
  }

  func stop() { self.loop.shutdownGracefully() }
}

/// A client on its own loop that keeps `inFlight` frames outstanding for `duration` and counts
/// round trips — all inside loop callbacks, the transport's floor with no task hops.
private func echoRoundTrips(path: String, inFlight: Int, duration: Duration) -> Double {
  let loop = EventLoop(name: "bench-client")
  defer { loop.shutdownGracefully() }
  let done = DispatchSemaphore(value: 0)
  let result = Mutex<Double>(0)
  loop.execute {
    let connection = try! UnixConnection.connect(path: path, loop: loop)
    var decoder = FrameDecoder()
    var completed = 0
    let start = ContinuousClock.now
    let deadline = start + duration
    var finished = false
    connection.onRead = { bytes in
      try! decoder.decode(bytes) { _ in
        guard !finished else { return }
        completed += 1
        if ContinuousClock.now >= deadline {
          finished = true
          let seconds =
            Double((ContinuousClock.now - start).components.seconds)
            + Double((ContinuousClock.now - start).components.attoseconds) * 1e-18
          result.withLock { $0 = Double(completed) / seconds }
          connection.close()
          done.signal()
          return
        }
        connection.withOutboundBuffer { FrameEncoder.appendFrame(to: &$0, bytes: smallPayload) }
      }
    }
    connection.withOutboundBuffer { out in
      for _ in 0..<inFlight { FrameEncoder.appendFrame(to: &out, bytes: smallPayload) }
    }
  }
  done.wait()
  return result.withLock { $0 }
}

private func benchmarkSockets() {
  let host = EchoHost()
  defer { host.stop() }
  for inFlight in [1, 16, 256] {
    var samples: [Double] = []
    for _ in 0..<5 {
      samples.append(
        echoRoundTrips(path: host.path, inFlight: inFlight, duration: .milliseconds(400)))
    }
    report("Unix socket echo, 60 B frames, \(inFlight) in flight", samples.sorted()[2], "frames/s")
  }
}
