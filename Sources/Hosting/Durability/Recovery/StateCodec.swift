import Wire

/// How a durable host writes its root state into a snapshot and reads it back: as JSON, through
/// the state's `Codable` conformance.
@usableFromInline
struct StateCodec<State>: Sendable {
  /// The state's JSON text.
  let encode: @Sendable (State) throws -> [UInt8]
  /// The state from JSON text; throws ``StateDecodingFailure`` saying where it fails.
  let decode: @Sendable (ArraySlice<UInt8>) throws(StateDecodingFailure) -> State

  @usableFromInline
  init(
    encode: @escaping @Sendable (State) throws -> [UInt8],
    decode: @escaping @Sendable (ArraySlice<UInt8>) throws(StateDecodingFailure) -> State
  ) {
    self.encode = encode
    self.decode = decode
  }
}

extension StateCodec where State: Codable & SendableMetatype {
  /// The JSON codec of a `Codable` state (inlinable: its closures are specialized for the
  /// app's `State` where the host is).
  @inlinable
  static var json: StateCodec {
    StateCodec(
      encode: { state in try JSONValueEncoder().encode(state).serialized() },
      decode: { (bytes) throws(StateDecodingFailure) -> State in
        let json: JSON
        do {
          json = try JSON(parsing: bytes)
        } catch {
          throw StateDecodingFailure(description: "not valid JSON: \(error)")
        }
        do throws(JSONDecodingError) {
          return try JSONValueDecoder().decode(State.self, from: json)
        } catch {
          throw StateDecodingFailure(description: error.pathDescription)
        }
      })
  }
}

/// Why a snapshot's JSON does not decode as the app's state, e.g.
/// `todos.todos[3].isComplete: expected bool, found number`.
@usableFromInline
struct StateDecodingFailure: Error, CustomStringConvertible {
  @usableFromInline let description: String

  @usableFromInline
  init(description: String) {
    self.description = description
  }
}

extension JSONDecodingError {
  /// The path to the failing value, with array indices in brackets, and the reason:
  /// `todos.todos[3].isComplete: expected bool, found number`.
  @usableFromInline
  var pathDescription: String {
    var path = ""
    for component in self.path {
      if !component.isEmpty, component.allSatisfy({ $0.isASCII && $0.isNumber }) {
        path += "[\(component)]"
      } else {
        path += path.isEmpty ? component : ".\(component)"
      }
    }
    return path.isEmpty ? self.reason : "\(path): \(self.reason)"
  }
}
