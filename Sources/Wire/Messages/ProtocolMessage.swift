/// What ``ClientMessage`` and ``HostMessage`` share: each describes its members once, in
/// ``members(into:)``, and both of its encodings follow from that one description — the
/// ``JSON`` object of `json` and the compact JSON text that `encodeFrame(into:)` writes in place.
///
/// ```swift
/// extension HostMessage: ProtocolMessage {
///   var opening: StaticString { … #"{"type":"ack""# … }
///   func members<Sink: MessageSink>(into sink: inout Sink) {
///     … sink.member(#","id":"#, id); sink.member(#","rev":"#, rev) …
///   }
/// }
/// ```
protocol ProtocolMessage: Hashable {
  /// Decodes a message from its JSON form.
  init(json: JSON) throws(MessageError)

  /// `{"type":"<type>"`, the start of the message's JSON text; `type` is read out of it.
  var opening: StaticString { get }

  /// Passes the members that follow `type` to `sink`, in the order they are written.
  func members<Sink: MessageSink>(into sink: inout Sink)

  /// Appends the message as one frame; see ``ClientMessage/encodeFrame(into:)``.
  func encodeFrame(into buffer: inout [UInt8])
}

extension ProtocolMessage {
  /// The message `type`: ``opening`` without `{"type":"` and the closing quote.
  var typeName: String {
    let prefix = #"{"type":""#.utf8.count
    return SmallString.ascii(
      self.opening.utf8Start + prefix, self.opening.utf8CodeUnitCount - prefix - 1)
  }

  /// The message as a JSON object, `type` first.
  var jsonObject: JSON {
    var object: JSONObject = ["type": .string(self.typeName)]
    self.members(into: &object)
    return .object(object)
  }

  /// Appends the message's compact JSON text to `out`.
  func writeJSON(into out: inout [UInt8]) {
    JSONByteWriter.append(self.opening, into: &out)
    self.members(into: &out)
    out.append(UInt8(ascii: "}"))
  }
}
