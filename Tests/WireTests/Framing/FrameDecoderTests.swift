import Testing

@testable import Wire

/// Frames `payloads` back to back.
func framed(_ payloads: [[UInt8]]) -> [UInt8] {
  var out: [UInt8] = []
  for payload in payloads { FrameEncoder.appendFrame(to: &out, bytes: payload) }
  return out
}

/// Feeds `chunks` through the buffering interface (`append`, then `nextFrame`), collecting
/// frames and the error.
func decodeBuffered(
  _ chunks: [ArraySlice<UInt8>], maxFrameSize: Int = 1 << 24
) -> (frames: [[UInt8]], error: FrameError?, buffered: Int) {
  decode(chunks, maxFrameSize: maxFrameSize) { decoder, chunk, frames throws(FrameError) in
    decoder.append(chunk)
    while let frame = try decoder.nextFrame() { frames.append(Array(frame)) }
  }
}

/// Feeds `chunks` through the streaming interface (`decode(_:_:)`), collecting frames and the
/// error.
func decodeStreaming(
  _ chunks: [ArraySlice<UInt8>], maxFrameSize: Int = 1 << 24
) -> (frames: [[UInt8]], error: FrameError?, buffered: Int) {
  decode(chunks, maxFrameSize: maxFrameSize) { decoder, chunk, frames throws(FrameError) in
    try decoder.decode(chunk) { frames.append(Array($0)) }
  }
}

/// Feeds each chunk to a fresh decoder with `feed`, until it throws.
private func decode(
  _ chunks: [ArraySlice<UInt8>], maxFrameSize: Int,
  feed: (inout FrameDecoder, [UInt8], inout [[UInt8]]) throws(FrameError) -> Void
) -> (frames: [[UInt8]], error: FrameError?, buffered: Int) {
  var decoder = FrameDecoder(maxFrameSize: maxFrameSize)
  var frames: [[UInt8]] = []
  do {
    for chunk in chunks { try feed(&decoder, Array(chunk), &frames) }
    return (frames, nil, decoder.bufferedByteCount)
  } catch {
    return (frames, error, decoder.bufferedByteCount)
  }
}

/// Splits `bytes` at the given offsets.
func split(_ bytes: [UInt8], at points: [Int]) -> [ArraySlice<UInt8>] {
  var chunks: [ArraySlice<UInt8>] = []
  var start = 0
  for point in points.sorted() where point > start && point < bytes.count {
    chunks.append(bytes[start..<point])
    start = point
  }
  chunks.append(bytes[start...])
  return chunks
}

@Suite struct FrameDecoderTests {
  let payloads: [[UInt8]] = [Array("{\"a\":1}".utf8), [0x7B], Array(repeating: 0x41, count: 300)]

  @Test func decodesFramesSplitAtEveryByteBoundary() {
    let stream = framed(self.payloads)
    for point in 0...stream.count {
      let chunks = split(stream, at: [point])
      #expect(decodeBuffered(chunks).frames == self.payloads, "split at \(point)")
      #expect(decodeStreaming(chunks).frames == self.payloads, "split at \(point)")
    }
  }

  @Test func decodesFramesSplitAtEveryPairOfBoundaries() {
    let stream = framed(Array(self.payloads.prefix(2)) + [Array("xyz".utf8)])
    for first in 0...stream.count {
      for second in first...stream.count {
        let chunks = split(stream, at: [first, second])
        #expect(decodeBuffered(chunks).frames.count == 3)
        #expect(decodeStreaming(chunks).frames.count == 3)
      }
    }
  }

  @Test func decodesOneByteAtATime() {
    let stream = framed(self.payloads)
    let chunks = stream.indices.map { stream[$0...$0] }
    #expect(decodeBuffered(chunks).frames == self.payloads)
    #expect(decodeStreaming(chunks).frames == self.payloads)
  }

  @Test func decodesManyFramesPerChunk() {
    let many = (0..<5000).map { Array("{\"n\":\($0)}".utf8) }
    let stream = framed(many)
    let bufferedMatches = decodeBuffered([stream[...]]).frames == many
    let streamingMatches = decodeStreaming([stream[...]]).frames == many
    #expect(bufferedMatches)
    #expect(streamingMatches)
  }

  @Test(arguments: [1 as UInt64, 2, 3, 4, 5])
  func randomChunkingYieldsTheSameFramesBothWays(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let payloads = (0..<400).map { _ in
      (0..<Int.random(in: 1...700, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }
    let stream = framed(payloads)
    var points: [Int] = []
    var at = 0
    while at < stream.count {
      at += Int.random(in: 1...1500, using: &rng)
      points.append(at)
    }
    let chunks = split(stream, at: points)
    let buffered = decodeBuffered(chunks)
    let streaming = decodeStreaming(chunks)
    // Compared as Booleans: a failure must not print megabytes of bytes.
    let bufferedMatches = buffered.frames == payloads
    let streamingMatches = streaming.frames == payloads
    #expect(bufferedMatches)
    #expect(streamingMatches)
    #expect(buffered.buffered == 0 && streaming.buffered == 0)
  }

  @Test func decodesLargeFramesInSmallChunks() {
    var rng = SplitMix64(seed: 7)
    let big = (0..<(3 << 20)).map { _ in UInt8.random(in: 0...255, using: &rng) }
    let payloads = [big, [1, 2, 3], Array(big.prefix(1 << 20))]
    let stream = framed(payloads)
    let chunks = stride(from: 0, to: stream.count, by: 65536).map {
      stream[$0..<min($0 + 65536, stream.count)]
    }
    let bufferedMatches = decodeBuffered(chunks).frames == payloads
    let streamingMatches = decodeStreaming(chunks).frames == payloads
    #expect(bufferedMatches)
    #expect(streamingMatches)
  }

  @Test func rejectsZeroLengthFrameAfterTheFramesBeforeIt() {
    let stream = framed([[1], [2]]) + [0, 0, 0, 0] + framed([[3]])
    for result in [decodeBuffered([stream[...]]), decodeStreaming([stream[...]])] {
      #expect(result.frames == [[1], [2]])
      #expect(result.error == .emptyFrame)
    }
  }

  @Test func rejectsOversizePrefixBeforeBufferingItsPayload() throws {
    // A valid frame, then a prefix announcing 101 bytes (limit 100) followed by 60 bytes of it.
    let stream = framed([[9]]) + [0, 0, 0, 101] + Array(repeating: 0x20, count: 60)
    var decoder = FrameDecoder(maxFrameSize: 100)
    decoder.append(stream)
    #expect(decoder.error == .frameTooLarge(length: 101, limit: 100))
    // Only the valid frame is buffered: nothing of the oversize payload.
    #expect(decoder.bufferedByteCount == 5)
    #expect(try decoder.nextFrame() == [9])
    #expect(throws: FrameError.frameTooLarge(length: 101, limit: 100)) { try decoder.nextFrame() }
    // The decoder stays failed and buffers nothing more.
    decoder.append([1, 2, 3, 4, 5, 6])
    #expect(decoder.bufferedByteCount == 0)
    #expect(throws: FrameError.frameTooLarge(length: 101, limit: 100)) { try decoder.nextFrame() }
  }

  @Test func rejectsOversizePrefixSplitInsideThePrefix() {
    let stream: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF] + Array(repeating: 0, count: 10)
    for point in 1..<4 {
      let chunks = split(stream, at: [point])
      for result in [decodeBuffered(chunks), decodeStreaming(chunks)] {
        #expect(result.error == .frameTooLarge(length: Int(UInt32.max), limit: 1 << 24))
        #expect(result.buffered == 0)
      }
    }
  }

  @Test func streamingHandsOutFramesInPlace() throws {
    let stream = framed([[1, 2, 3], [4, 5]])
    var decoder = FrameDecoder()
    var addresses: [UnsafeRawPointer?] = []
    try stream.withUnsafeBytes { raw in
      try decoder.decode(raw) { addresses.append($0.baseAddress) }
      #expect(addresses == [raw.baseAddress! + 4, raw.baseAddress! + 11])
    }
  }

  @Test func keepsBufferSmallWhileDecodingALongStream() throws {
    // 100,000 frames fed in 7-byte chunks: consumed bytes must be dropped as we go.
    let stream = framed((0..<100_000).map { [UInt8(truncatingIfNeeded: $0), 1, 2, 3, 4, 5] })
    var decoder = FrameDecoder()
    var count = 0
    var maxCapacity = 0
    for start in stride(from: 0, to: stream.count, by: 7) {
      decoder.append(Array(stream[start..<min(start + 7, stream.count)]))
      while (try decoder.nextFrame()) != nil { count += 1 }
      maxCapacity = max(maxCapacity, decoder.bufferCapacity)
    }
    #expect(count == 100_000)
    #expect(maxCapacity < 256)
  }

  @Test func holdsOnlyTheBytesThatArrivedOfAnAnnouncedFrame() throws {
    let length = 16 << 20
    var decoder = FrameDecoder(maxFrameSize: length)
    // The prefix announces 16 MiB; 100 bytes of it arrive.
    decoder.append([0x01, 0x00, 0x00, 0x00] + [UInt8](repeating: 0x20, count: 100))
    #expect(decoder.bufferCapacity < 4096, "an announced length is not memory to reserve")
    // As bytes arrive, the buffer grows with them (doubling), never to the announced length.
    var arrived = 100
    while arrived < length / 2 {
      decoder.append([UInt8](repeating: 0x20, count: 64 * 1024))
      arrived += 64 * 1024
      #expect(decoder.bufferCapacity <= 2 * (4 + arrived) + 4096)
    }
    decoder.append([UInt8](repeating: 0x20, count: length - arrived))
    #expect(decoder.bufferCapacity <= 4 + length + 4096, "never past the end of the frame")
    let frame = try #require(try decoder.nextFrame())
    #expect(frame.count == length)
  }

  @Test func reportsPartialFrameAtEndOfInput() throws {
    var decoder = FrameDecoder()
    decoder.append(Array(framed([[1, 2, 3]]).dropLast()))
    #expect(try decoder.nextFrame() == nil)
    #expect(decoder.bufferedByteCount == 6)
  }
}

@Suite struct FrameEncoderTests {
  @Test func writesBigEndianPrefixThenPayload() {
    var out: [UInt8] = [0xAA]
    FrameEncoder.appendFrame(to: &out) { $0.append(contentsOf: Array(repeating: 7, count: 258)) }
    #expect(out.count == 1 + 4 + 258)
    #expect(Array(out[0..<5]) == [0xAA, 0, 0, 1, 2])
    #expect(out[5...].allSatisfy { $0 == 7 })
  }

  @Test func roundTripsThroughTheDecoder() throws {
    var out: [UInt8] = []
    FrameEncoder.appendFrame(to: &out, bytes: Array("hello".utf8))
    FrameEncoder.appendFrame(to: &out, bytes: [0])
    #expect(FrameEncoder.frame([1, 2]) == [0, 0, 0, 2, 1, 2])
    var decoder = FrameDecoder()
    decoder.append(out)
    #expect(try decoder.nextFrame() == ArraySlice("hello".utf8))
    #expect(try decoder.nextFrame() == [0])
    #expect(try decoder.nextFrame() == nil)
  }

  @Test func restoresTheBufferWhenThePayloadThrows() {
    struct Failure: Error {}
    var out: [UInt8] = [1, 2]
    #expect(throws: Failure.self) {
      try FrameEncoder.appendFrame(to: &out) { (payload: inout [UInt8]) throws(Failure) in
        payload.append(9)
        throw Failure()
      }
    }
    #expect(out == [1, 2])
  }

  @Test func enforcesTheMaximumFrameSize() {
    var out: [UInt8] = [1]
    #expect(throws: FrameError.frameTooLarge(length: 11, limit: 10)) {
      try FrameEncoder.appendFrame(to: &out, maxFrameSize: 10) {
        $0.append(contentsOf: Array(repeating: 0, count: 11))
      }
    }
    #expect(throws: FrameError.emptyFrame) {
      try FrameEncoder.appendFrame(to: &out, maxFrameSize: 10) { _ in }
    }
    #expect(out == [1])
    #expect(throws: Never.self) {
      try FrameEncoder.appendFrame(to: &out, maxFrameSize: 10) { $0.append(5) }
    }
    #expect(out == [1, 0, 0, 0, 1, 5])
  }
}
