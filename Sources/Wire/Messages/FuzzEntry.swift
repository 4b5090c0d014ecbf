// The fuzz target's entry point (Fuzz/FuzzMain.swift calls `fuzzOne` for every input that
// libFuzzer generates). It lives in the module so that it can use internal API, and so that
// `swift test` runs it over the seed corpus too (FuzzEntryTests).

/// The parse step of the pipeline frame decoder → JSON parser → message decoder.
///
/// Whatever the parser accepts, the serializer must write back as text that parses to the
/// same value (a crash here is a bug in one of them).
func fuzzParseJSON(_ payload: UnsafeRawBufferPointer) -> JSON? {
  guard let json = try? JSON(parsing: payload) else { return nil }
  let text = json.serialized()
  guard let again = try? JSON(parsing: text) else {
    preconditionFailure("the serializer wrote text the parser rejects: \(json.compactString)")
  }
  precondition(again == json, "a serialize/parse round trip changed \(json.compactString)")
  return json
}

/// Runs one fuzz input through framing and message decoding, trapping on any inconsistency.
///
/// - Frames: the input is decoded as a byte stream, in chunks whose size derives from the
///   input, through both decoder interfaces; they must yield the same frames and error.
/// - Messages: each frame goes through ``fuzzParseJSON(_:)`` to the message decoders, and the
///   input is also read as a recipe for JSON values shaped like messages; every message that
///   decodes must re-encode to JSON that decodes to the same message, and to a well-formed
///   frame of valid UTF-8.
func fuzzOne(_ data: UnsafeRawBufferPointer) {
  guard !data.isEmpty else { return }
  // The whole input as a JSON text, then as a framed byte stream.
  if let json = fuzzParseJSON(data) { fuzzMessages(json) }
  fuzzCompactSend(data)
  let frames = fuzzFraming(data)
  for frame in frames {
    let json = frame.withUnsafeBytes { fuzzParseJSON($0) }
    if let json { fuzzMessages(json) }
    frame.withUnsafeBytes { fuzzCompactSend($0) }
  }
  var recipe = FuzzJSONRecipe(data)
  while let json = recipe.nextMessage() { fuzzMessages(json) }
}

private func fuzzFraming(_ data: UnsafeRawBufferPointer) -> [[UInt8]] {
  let step = Int(data[data.count - 1]) % 23 + 1
  let limit = 4096
  var buffering = FrameDecoder(maxFrameSize: limit)
  var streaming = FrameDecoder(maxFrameSize: limit)
  var buffered: [[UInt8]] = []
  var streamed: [[UInt8]] = []
  var bufferingError: FrameError?
  var streamingError: FrameError?
  var offset = 0
  while offset < data.count {
    let chunk = UnsafeRawBufferPointer(rebasing: data[offset..<min(offset + step, data.count)])
    offset += step
    if bufferingError == nil {
      buffering.append(chunk)
      do {
        while let frame = try buffering.nextFrame() { buffered.append(Array(frame)) }
      } catch {
        bufferingError = error
      }
    }
    if streamingError == nil {
      do {
        try streaming.decode(chunk) { streamed.append(Array($0)) }
      } catch {
        streamingError = error
      }
    }
  }
  precondition(buffered == streamed, "the two decoder interfaces disagree on frames")
  precondition(bufferingError == streamingError, "the two decoder interfaces disagree on errors")
  precondition(buffered.allSatisfy { !$0.isEmpty && $0.count <= limit })
  if bufferingError == nil {
    precondition(buffering.bufferedByteCount == streaming.bufferedByteCount)
    precondition(buffering.bufferedByteCount < 4 + limit)
  }
  // Re-framing the frames must give back the consumed prefix of the input.
  var reframed: [UInt8] = []
  for frame in buffered { FrameEncoder.appendFrame(to: &reframed, bytes: frame) }
  precondition(reframed.elementsEqual(data.prefix(reframed.count)))
  return buffered
}

/// The compact-send fast path must agree with the general path on every payload it accepts.
private func fuzzCompactSend(_ payload: UnsafeRawBufferPointer) {
  guard let fast = ClientMessage(compactSend: payload) else { return }
  guard let json = try? JSON(parsing: payload), let message = try? ClientMessage(json: json) else {
    preconditionFailure("the compact-send path accepted a payload the general path rejects")
  }
  precondition(fast == message, "the compact-send path read \(fast), the general path \(message)")
  if case .send(_, _, let action) = message { fuzzDecodeAction(action) }
}

/// A feature action of the kind hosts decode from `send` messages.
private indirect enum FuzzAction: Decodable, Equatable {
  case increment
  case set(Int)
  case rename(String, note: String?)
  case nested(FuzzAction?)
  case many([FuzzAction])
  case flags([String: Bool])
}

/// Decodes `json` with ``JSONValueDecoder``: twice (the second decode may use keys the first
/// one resolved), agreeing with itself, and with an error path that stays inside `json`.
private func fuzzDecodeAction(_ json: JSON) {
  let decoder = JSONValueDecoder()
  let first = Result { () throws(JSONDecodingError) in try decoder.decode(FuzzAction.self, from: json) }
  let second = Result { () throws(JSONDecodingError) in try decoder.decode(FuzzAction.self, from: json) }
  switch (first, second) {
  case (.success(let a), .success(let b)): precondition(a == b, "two decodes disagree")
  case (.failure(let a), .failure(let b)): precondition(a == b, "two decodes fail differently")
  default: preconditionFailure("one decode failed and the other did not")
  }
  guard case .failure(let error) = first else { return }
  // All of the path but its last key must exist in `json` (the last may be the missing one).
  var current = json
  for component in error.path.dropLast() {
    switch current {
    case .object(let object) where object[component] != nil: current = object[component]!
    case .array(let elements):
      guard let index = Int(component), elements.indices.contains(index) else {
        preconditionFailure("the error path \(error.path) leaves the value")
      }
      current = elements[index]
    default: preconditionFailure("the error path \(error.path) leaves the value")
    }
  }
}

private func fuzzMessages(_ json: JSON) {
  fuzzDecodeAction(json)
  fuzzRoundTrip(ClientMessage.self, json)
  fuzzRoundTrip(HostMessage.self, json)
}

/// Decodes `json` as a `Message`; one that decodes must come back from its `json` and from its
/// frame unchanged, and one that does not must fail with an error that holds.
private func fuzzRoundTrip<Message: ProtocolMessage>(_: Message.Type, _ json: JSON) {
  do {
    let message = try Message(json: json)
    let again: Message
    do { again = try Message(json: message.jsonObject) } catch {
      preconditionFailure("\(Message.self) does not round-trip: \(message) → \(error)")
    }
    precondition(again == message, "\(Message.self) does not round-trip: \(message)")
    var out: [UInt8] = []
    message.encodeFrame(into: &out)
    fuzzCheckFrame(out, expected: message.jsonObject)
  } catch {
    fuzzCheckError(error, json)
  }
}

private func fuzzCheckFrame(_ frame: [UInt8], expected: JSON) {
  precondition(frame.count > 4)
  let length = Int(frame[0]) << 24 | Int(frame[1]) << 16 | Int(frame[2]) << 8 | Int(frame[3])
  precondition(length == frame.count - 4, "the prefix does not match the payload")
  let payload = frame[4...]
  precondition(String(validating: payload, as: UTF8.self) != nil, "payload is not UTF-8")
  let parsed = payload.withUnsafeBytes { fuzzParseJSON($0) }
  if let parsed { precondition(parsed == expected, "encodeFrame disagrees with json") }
}

private func fuzzCheckError(_ error: MessageError, _ json: JSON) {
  precondition(!error.message.isEmpty)
  guard case .object(let object) = json else {
    precondition(error.code == .badJSON)
    return
  }
  precondition(error.code == .badMessage)
  precondition(error.id == object["id"].flatMap(MessageReader.integer), "id not carried")
}

/// Reads fuzz bytes as a recipe for JSON objects shaped like protocol messages: mostly known
/// `type`s and member names, with values of every JSON type (finite numbers only, as a parser
/// produces), nesting bounded.
struct FuzzJSONRecipe {
  private let bytes: UnsafeRawBufferPointer
  private var index = 0

  private static let types = [
    "hello", "scopes", "get", "subscribe", "unsubscribe", "send", "ping", "welcome", "state",
    "subscribed", "patch", "unsubscribed", "ack", "ok", "pong", "error", "bye", "", "HELLO",
  ]
  private static let keys = [
    "type", "id", "scope", "sub", "action", "protocol", "client", "rev", "base", "ops", "state",
    "reason", "code", "message", "scopes", "pattern", "writable", "description", "host", "app",
    "session", "op", "path", "value",
  ]
  private static let strings = [
    "counter", "todos/{id}", "bad_message", "frame_too_large", "scope_gone", "", "é\u{0}\"\\\n",
    "🎉", "replace", "/count", "unknown_code",
  ]

  init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  private mutating func byte() -> UInt8? {
    guard self.index < self.bytes.count else { return nil }
    defer { self.index += 1 }
    return self.bytes[self.index]
  }

  private mutating func pick<T>(_ options: [T]) -> T {
    options[Int(self.byte() ?? 0) % options.count]
  }

  /// The next message-shaped value, or `nil` when the bytes are used up.
  mutating func nextMessage() -> JSON? {
    guard let selector = self.byte() else { return nil }
    if selector % 16 == 0 { return self.value(depth: 2) }  // sometimes not even an object
    var object = JSONObject()
    if selector % 8 != 1 { object["type"] = .string(self.pick(Self.types)) }
    let members = Int(self.byte() ?? 0) % 8
    for _ in 0..<members {
      object[self.pick(Self.keys)] = self.value(depth: 0)
    }
    return .object(object)
  }

  private mutating func value(depth: Int) -> JSON {
    let kind = self.byte() ?? 0
    switch kind % 11 {
    case 0: return .null
    case 1: return .bool(kind & 0x80 != 0)
    case 2, 3: return .int(Int64(Int8(bitPattern: self.byte() ?? 0)))
    case 4:
      let extremes: [Int64] = [.min, .max, 0, -1, 1 << 53, 1 << 32]
      return .int(self.pick(extremes))
    case 5:
      let doubles: [Double] = [0.5, -0.0, 1e300, -1e-300, 3.0, 9.3e18, .ulpOfOne, 2.0e-308]
      return .double(self.pick(doubles))
    case 6, 7: return .string(self.pick(Self.strings))
    case 8:
      let length = Int(self.byte() ?? 0) % 6
      let scalars = (0..<length).compactMap { _ in Unicode.Scalar(UInt32(self.byte() ?? 0x41)) }
      return .string(String(String.UnicodeScalarView(scalars)))
    case 9:
      guard depth < 4 else { return .null }
      let count = Int(self.byte() ?? 0) % 4
      return .array((0..<count).map { _ in self.value(depth: depth + 1) })
    default:
      guard depth < 4 else { return .int(0) }
      var object = JSONObject()
      for _ in 0..<(Int(self.byte() ?? 0) % 4) {
        object[self.pick(Self.keys)] = self.value(depth: depth + 1)
      }
      return .object(object)
    }
  }
}
