// Navigation by pointer tokens, for reading and for in-place mutation.
//
// Mutation goes through `withValue(atPointerTokens:)`, which hands the addressed value to a closure as
// `inout` while every container on the way holds no other reference to it, so that changing
// an element of a 100,000-element array copies nothing but the path. Only the public surface
// of `JSON` and `JSONObject` is used: their storage belongs to the JSON module's owner.

extension JSON {
  /// The value that `path` names inside this one.
  func value(atPointerTokens path: [String]) throws(JSONPatchError) -> JSON {
    var current = self
    for depth in path.indices {
      let token = path[depth]
      switch current {
      case .object(let object):
        guard let member = object[token] else {
          throw JSONPatchError(.noValue(JSONPointer(tokens: Array(path[...depth]))))
        }
        current = member
      case .array(let array):
        current =
          array[try Self.existingArrayIndex(token, count: array.count, path: path, depth: depth)]
      default:
        throw JSONPatchError(.notAContainer(JSONPointer(tokens: Array(path[...depth]))))
      }
    }
    return current
  }

  /// Calls `body` with the value that `path[depth...]` names inside this one, mutable in place.
  ///
  /// - Parameters:
  ///   - path: The whole pointer, for error locations.
  ///   - depth: How many tokens of `path` have already been followed to reach this value.
  ///   - body: Changes the addressed value. If it throws, the document keeps whatever `body`
  ///     did before throwing.
  mutating func withValue<R>(
    atPointerTokens path: [String],
    depth: Int = 0,
    _ body: (inout JSON) throws(JSONPatchError) -> R
  ) throws(JSONPatchError) -> R {
    guard depth < path.count else { return try body(&self) }
    let token = path[depth]
    if var object = self.takeObjectForMutation() {
      defer { self = .object(object) }
      guard var member = object[token] else {
        throw JSONPatchError(.noValue(JSONPointer(tokens: Array(path[...depth]))))
      }
      // Leave the object no reference to `member`, so that `member` owns its storage alone.
      object[token] = .null
      defer { object[token] = member }
      return try member.withValue(atPointerTokens: path, depth: depth + 1, body)
    }
    if var array = self.takeArrayForMutation() {
      defer { self = .array(array) }
      let index = try Self.existingArrayIndex(token, count: array.count, path: path, depth: depth)
      return try array[index].withValue(atPointerTokens: path, depth: depth + 1, body)
    }
    throw JSONPatchError(.notAContainer(JSONPointer(tokens: Array(path[...depth]))))
  }

  /// Moves the members out of an object, leaving `.null`, so that the caller holds the only
  /// reference to their storage and can change it without a copy; `nil` if not an object.
  ///
  /// Matching with `switch self { case .object(var o): ... }` is not enough: an unoptimised
  /// build keeps a copy of the switch subject alive for the whole case body.
  mutating func takeObjectForMutation() -> JSONObject? {
    guard case .object(let object) = self else { return nil }
    self = .null
    return object
  }

  /// Moves the elements out of an array, leaving `.null` (see ``takeObjectForMutation()``); `nil` if not
  /// an array.
  mutating func takeArrayForMutation() -> [JSON]? {
    guard case .array(let array) = self else { return nil }
    self = .null
    return array
  }

  /// The index that `path[depth]` denotes when it must name an existing element of an array
  /// of `count` elements.
  static func existingArrayIndex(
    _ token: String,
    count: Int,
    path: [String],
    depth: Int
  ) throws(JSONPatchError) -> Int {
    guard let index = JSONPointer.arrayIndex(token) else {
      throw JSONPatchError(.invalidArrayIndex(JSONPointer(tokens: Array(path[...depth]))))
    }
    guard index < count else {
      throw JSONPatchError(
        .indexOutOfBounds(JSONPointer(tokens: Array(path[...depth])), count: count))
    }
    return index
  }
}
