import Wire

/// A host's whole receive path for one `send`, as HostCore runs it: the frame as read from the
/// socket, through `FrameDecoder` (append + nextFrame), the compact-send envelope (or the
/// general path), the action's JSON and its `Codable` decoding.
struct SendPath {
  private let frame: [UInt8]
  private var frames = FrameDecoder()
  private let decoder = JSONValueDecoder()

  /// The path for a `send` of `action` to scope `counter`.
  init(action: JSON) {
    var frame: [UInt8] = []
    ClientMessage.send(id: 7, scope: "counter", action: action).encodeFrame(into: &frame)
    self.frame = frame
  }

  /// Receives the frame once and decodes its action as `type`; `compact` takes the compact-send
  /// fast path first, as the host does.
  @inline(__always)
  mutating func receive<Action: Decodable>(_ type: Action.Type, compact: Bool = true) -> Action {
    self.frame.withUnsafeBytes { self.frames.append($0) }
    let payload = try! self.frames.nextFrame()!
    let message =
      (compact ? ClientMessage(compactSend: payload) : nil)
      ?? (try! ClientMessage(json: try! JSON(parsing: payload)))
    guard case .send(_, _, let action) = message else { fatalError("not a send") }
    return try! self.decoder.decode(type, from: action)
  }
}
