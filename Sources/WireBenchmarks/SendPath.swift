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

  /// Receives the frame once: appends its bytes and takes its payload out.
  @inline(__always)
  mutating func nextPayload() -> ArraySlice<UInt8> {
    self.frame.withUnsafeBytes { self.frames.append($0) }
    return try! self.frames.nextFrame()!
  }

  /// Receives the frame once and reads its envelope (and the action's JSON) on the compact-send
  /// path, without decoding the action.
  @inline(__always)
  mutating func envelope() -> ClientMessage? {
    ClientMessage(compactSend: self.nextPayload())
  }

  /// Receives the frame once and decodes its action as `type`; `compact` takes the compact-send
  /// fast path first, as the host does.
  @inline(__always)
  mutating func receive<Action: Decodable>(_ type: Action.Type, compact: Bool = true) -> Action {
    let payload = self.nextPayload()
    let message =
      (compact ? ClientMessage(compactSend: payload) : nil)
      ?? (try! ClientMessage(json: try! JSON(parsing: payload)))
    guard case .send(_, _, let action) = message else { fatalError("not a send") }
    return try! self.decoder.decode(type, from: action)
  }
}
