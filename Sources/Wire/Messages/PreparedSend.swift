/// A `send` of one action to one scope, encoded once: each frame then costs a copy (and an id),
/// for senders that repeat an action (a load generator, a button held down).
///
/// ```swift
/// let increment = PreparedSend(scope: "counter", action: try JSON(parsing: #"{"increment":{}}"#))
/// increment.appendFrame(id: 7, to: &out)     // {"type":"send","id":7,"scope":"counter",…}
/// increment.appendFrame(id: nil, to: &out)   // fire and forget
/// ```
///
/// The frames are byte for byte those of ``ClientMessage/send(id:scope:action:)``'s
/// ``ClientMessage/encodeFrame(into:)``.
public struct PreparedSend: Sendable, Hashable {
  /// The scope the action goes to.
  public let scope: String
  /// The action.
  public let action: JSON
  /// `,"scope":"…","action":…}`: the payload after the `id`.
  private let tail: [UInt8]
  /// The whole frame of the `send` without an `id`.
  private let frameWithoutID: [UInt8]
  /// `{"type":"send","id":`, the payload before an `id`'s digits.
  private static let opening: StaticString = #"{"type":"send","id":"#

  /// Encodes a `send` of `action` to `scope`.
  ///
  /// - Parameters:
  ///   - scope: A writable scope, e.g. `counter`.
  ///   - action: The action's JSON form.
  public init(scope: String, action: JSON) {
    self.scope = scope
    self.action = action
    var tail: [UInt8] = []
    tail.member(#","scope":"#, scope)
    tail.member(#","action":"#, action)
    tail.append(UInt8(ascii: "}"))
    self.tail = tail
    var frame: [UInt8] = []
    FrameEncoder.appendFrame(to: &frame) { (out: inout [UInt8]) in
      JSONByteWriter.append(#"{"type":"send""#, into: &out)
      out.append(contentsOf: tail)
    }
    self.frameWithoutID = frame
  }

  /// Appends the frame of the `send` with request `id` (`nil`: no acknowledgement asked).
  ///
  /// - Parameters:
  ///   - id: The request id, or `nil`.
  ///   - buffer: The output buffer, e.g. in `withOutboundBuffer`.
  public func appendFrame(id: Int64?, to buffer: inout [UInt8]) {
    guard let id else {
      buffer.append(contentsOf: self.frameWithoutID)
      return
    }
    // The length prefix, the opening and the id's digits are composed on the stack and go in
    // with one append, the tail with a second.
    let opening = Self.opening.utf8CodeUnitCount
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4 + opening + 20) { scratch in
      let base = scratch.baseAddress.unsafelyUnwrapped
      (base + 4).initialize(from: Self.opening.utf8Start, count: opening)
      let digits = JSONByteWriter.formatInteger(
        id, into: UnsafeMutableBufferPointer(rebasing: scratch[(4 + opening)...]))
      let head = 4 + opening + digits
      withUnsafeBytes(of: UInt32(head - 4 + self.tail.count).bigEndian) { prefix in
        for index in 0..<4 { base[index] = prefix[index] }
      }
      buffer.append(contentsOf: UnsafeBufferPointer(start: base, count: head))
    }
    buffer.append(contentsOf: self.tail)
  }
}
