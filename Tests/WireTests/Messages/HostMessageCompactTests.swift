import Testing

@testable import Wire

@Suite struct HostMessageCompactTests {
  private func payload(_ message: HostMessage) -> [UInt8] {
    var frame: [UInt8] = []
    message.encodeFrame(into: &frame)
    return Array(frame.dropFirst(4))
  }

  private func compactReply(_ bytes: [UInt8]) -> HostMessage? {
    bytes.withUnsafeBytes { HostMessage(compactReply: $0) }
  }

  private func patchRevisions(_ bytes: [UInt8]) -> (sub: Int64, base: Int64, rev: Int64)? {
    bytes.withUnsafeBytes { HostMessage.compactPatchRevisions($0) }
  }

  @Test(arguments: [
    HostMessage.ack(id: 42, rev: 9_876_543_210), .ack(id: 0, rev: 0), .ok(id: 7),
    .pong(id: 123_456_789_012_345_678), .ack(id: -3, rev: 1),
  ])
  func readsTheRepliesTheHostWrites(message: HostMessage) {
    #expect(self.compactReply(self.payload(message)) == message)
  }

  @Test func leavesEverythingElseToTheGeneralPath() {
    for text in [
      #"{"type":"ack","id":1,"rev":2,"x":3}"#, #"{"type":"ack","id":01,"rev":2}"#,
      #"{"type":"ack","rev":2,"id":1}"#, #"{"type":"ack","id":1}"#,
      #"{"type":"ack","id":1.0,"rev":2}"#, #"{"type":"ack","id":1,"rev":1e3}"#,
      #"{"type":"pong","id":1}x"#, #"{"type":"pong","id":1234567890123456789}"#,
      #"{"type":"ok","id":null}"#, #"{"type":"state","id":1,"scope":"a","rev":1,"state":1}"#,
      #"{"type":"ack","id":1,"rev":2"#, "", "{",
    ] {
      #expect(self.compactReply(Array(text.utf8)) == nil, "\(text)")
    }
    // Whitespace around the whole is allowed, as the general path allows it.
    #expect(self.compactReply(Array(#"  {"type":"pong","id":1}  "#.utf8)) == .pong(id: 1))
  }

  @Test func agreesWithTheGeneralPathOnEveryOneByteChange() throws {
    let replacements = Array(#"x "0:,}-1.e"#.utf8) + [0x00, 0x7F, 0xFF]
    var readOnFastPath = 0
    for message in [HostMessage.ack(id: 42, rev: 907), .pong(id: 12), .ok(id: 3)] {
      let bytes = self.payload(message)
      for position in bytes.indices {
        for replacement in replacements where replacement != bytes[position] {
          var changed = bytes
          changed[position] = replacement
          guard let fast = self.compactReply(changed) else { continue }
          readOnFastPath += 1
          let general = try? HostMessage(json: JSON(parsing: changed))
          #expect(general == fast, "\(String(decoding: changed, as: UTF8.self))")
        }
      }
    }
    // Some changes keep a valid compact reply (the digits, a sign).
    #expect(readOnFastPath > 0)
  }

  @Test func readsAPatchsRevisionsWithoutItsOperations() throws {
    let patch = HostMessage.patch(
      sub: 3, base: 41, rev: 42,
      ops: [try JSON(parsing: #"{"op":"replace","path":"/rev","value":"\"rev\":1"}"#)])
    let read = self.patchRevisions(self.payload(patch))
    #expect(read?.sub == 3 && read?.base == 41 && read?.rev == 42)
    for text in [
      // Members in another order: the revisions could be anywhere, even inside `ops`' strings.
      #"{"type":"patch","sub":1,"ops":[{"op":"add","path":"/a","value":"\"base\":1,\"rev\":2"}],"base":5,"rev":6}"#,
      #"{"type":"patch","sub":1,"base":5,"rev":6}"#,
      #"{"type":"ack","id":1,"rev":2}"#,
    ] {
      #expect(self.patchRevisions(Array(text.utf8)) == nil, "\(text)")
    }
  }
}
