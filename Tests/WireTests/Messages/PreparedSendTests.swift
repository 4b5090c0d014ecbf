import Testing

@testable import Wire

@Suite struct PreparedSendTests {
  @Test(arguments: [
    ("counter", #"{"incrementButtonTapped":{}}"#),
    ("todos/\"q\"\n", #"{"set":{"_0":5,"name":"é\u0001"}}"#),
    ("", "null"),
  ])
  func writesTheFramesOfTheSameClientMessage(scope: String, action: String) throws {
    let action = try JSON(parsing: action)
    let prepared = PreparedSend(scope: scope, action: action)
    for id: Int64? in [1234, 0, -7, Int64.max, nil] {
      var fast: [UInt8] = []
      prepared.appendFrame(id: id, to: &fast)
      var general: [UInt8] = []
      ClientMessage.send(id: id, scope: scope, action: action).encodeFrame(into: &general)
      #expect(fast == general, "id \(String(describing: id))")
    }
  }

  @Test func appendsAfterWhatTheBufferHolds() throws {
    let action = JSON.object(["incrementButtonTapped": .object([:])])
    let prepared = PreparedSend(scope: "counter", action: action)
    var buffer: [UInt8] = [9, 9]
    prepared.appendFrame(id: 1, to: &buffer)
    prepared.appendFrame(id: nil, to: &buffer)
    var decoder = FrameDecoder()
    decoder.append(Array(buffer.dropFirst(2)))
    var messages: [ClientMessage] = []
    while let frame = try decoder.nextFrame() {
      messages.append(try ClientMessage(json: JSON(parsing: frame)))
    }
    #expect(buffer.prefix(2) == [9, 9])
    #expect(
      messages == [
        .send(id: 1, scope: "counter", action: action),
        .send(id: nil, scope: "counter", action: action),
      ])
  }
}
