// Navigation by pointer tokens, for reading and for in-place mutation.
//
// Mutation goes through `withValue(at:)`, which hands the addressed value to a closure as
// `inout` while every container on the way holds no other reference to it, so that changing
// an element of a 100,000-element array copies nothing but the path. Only the public surface
// of `JSON` and `JSONObject` is used: their storage belongs to the JSON module's owner.

extension JSON {
  /// The value that `path` names inside this one.
  func value(at path: [String]) throws(JSONPatchError) -> JSON {
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
        current = array[try Self.existingIndex(token, count: array.count, path: path, depth: depth)]
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
    at path: [String],
    depth: Int = 0,
    _ body: (inout JSON) throws(JSONPatchError) -> R
  ) throws(JSONPatchError) -> R {
    guard depth < path.count else { return try body(&self) }
    let token = path[depth]
    switch self {
    case .object(var object):
      guard var member = object[token] else {
        throw JSONPatchError(.noValue(JSONPointer(tokens: Array(path[...depth]))))
      }
      // Drop both outer references so that `member` is the only owner of its storage.
      self = .null
      object[token] = .null
      defer {
        object[token] = member
        self = .object(object)
      }
      return try member.withValue(at: path, depth: depth + 1, body)
    case .array(var array):
      let index = try Self.existingIndex(token, count: array.count, path: path, depth: depth)
      self = .null
      defer { self = .array(array) }
      return try array[index].withValue(at: path, depth: depth + 1, body)
    default:
      throw JSONPatchError(.notAContainer(JSONPointer(tokens: Array(path[...depth]))))
    }
  }

  /// The index that `path[depth]` denotes when it must name an existing element of an array
  /// of `count` elements.
  static func existingIndex(
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
