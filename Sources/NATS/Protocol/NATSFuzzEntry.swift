// The body of the NATS protocol fuzz target (Fuzz/NATSFuzzMain.swift, built by Fuzz/run-nats.sh
// with this folder alone): whatever bytes a server sends must never crash the parser, and the
// parser must read them the same way whatever the chunks they arrive in.

/// Parses `data` as a server's byte stream twice — whole, and cut into chunks whose sizes come
/// from the data — and traps if the two readings differ. Every header block read is parsed,
/// and one that parses is encoded again and must read back the same.
func fuzzNATSProtocol(_ data: UnsafeRawBufferPointer) {
  // Small limits, so that the fuzzer reaches them.
  let limits = NATSProtocolLimits(maxControlLineBytes: 256, maxInfoBytes: 1024, maxMessageBytes: 2048)
  let whole = fuzzParse(data, limits: limits, chunkSizes: [])
  var sizes: [Int] = []
  var state = UInt64(data.count) &* 0x9E37_79B9_7F4A_7C15
  for byte in data.prefix(8) { state = (state ^ UInt64(byte)) &* 0x100_0000_01B3 }
  for _ in 0..<32 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    sizes.append(Int(state >> 60) + 1)
  }
  let split = fuzzParse(data, limits: limits, chunkSizes: sizes)
  precondition(whole.operations == split.operations, "chunking changed the operations read")
  precondition(whole.error?.reason == split.error?.reason, "chunking changed the error")
  for operation in whole.operations {
    guard case .message(let message) = operation else { continue }
    _ = NATSSubject.publishProblem(message.subject)
    _ = NATSSubject.subscribeProblem(message.replyTo ?? message.subject)
    guard let block = message.headerBytes, let headers = try? NATSHeaders(parsing: block) else {
      continue
    }
    guard headers.encodingProblem == nil else { continue }
    var encoded: [UInt8] = []
    headers.encode(into: &encoded)
    precondition(encoded.count == headers.encodedCount, "encodedCount is wrong")
    let again = try? NATSHeaders(parsing: encoded)
    precondition(again == headers, "headers did not survive encoding")
  }
}

private func fuzzParse(
  _ data: UnsafeRawBufferPointer, limits: NATSProtocolLimits, chunkSizes: [Int]
) -> (operations: [NATSServerOperation], error: NATSProtocolError?) {
  var parser = NATSProtocolParser(limits: limits)
  var operations: [NATSServerOperation] = []
  var offset = 0
  var chunk = 0
  do {
    while offset < data.count {
      let size = chunkSizes.isEmpty ? data.count : chunkSizes[chunk % chunkSizes.count]
      chunk += 1
      let end = min(data.count, offset + size)
      try parser.parse(UnsafeRawBufferPointer(rebasing: data[offset..<end]), into: &operations)
      offset = end
    }
    return (operations, nil)
  } catch {
    return (operations, error)
  }
}
