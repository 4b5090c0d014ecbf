import Wire

/// Turns a journaled action back into the root action it was: a client's through the scope it
/// was sent to (the same lookup and decoding the live `send` made), an effect's or the host's
/// by decoding the root action.
@usableFromInline
struct ActionResolver<Action>: Sendable {
  /// A client's action: the scope's name and the JSON sent to it. Throws a message.
  let client: @Sendable (_ scope: String, _ action: JSON) throws(ResolutionFailure) -> Action
  /// An effect's or the hosting program's action: the root action's JSON. Throws a message.
  let root: @Sendable (_ action: JSON) throws(ResolutionFailure) -> Action

  /// Why a journaled action does not resolve any more.
  @usableFromInline
  struct ResolutionFailure: Error, CustomStringConvertible {
    @usableFromInline let description: String

    @usableFromInline
    init(description: String) {
      self.description = description
    }
  }
}

extension ActionResolver {
  /// Resolves client actions through `registry`, and root actions with `decodeRoot`.
  init<State>(
    registry: ScopeRegistry<State, Action>,
    decodeRoot: @escaping @Sendable (JSON) throws(ResolutionFailure) -> Action
  ) {
    // The registry's closures are pure functions of their arguments, built once at start and
    // never changed; the registry is only read here, on whichever one thread recovers or
    // reads history at a time.
    nonisolated(unsafe) let registry = registry
    self.client = { (name, json) throws(ResolutionFailure) -> Action in
      switch registry.lookup(name) {
      case .scope(let scope, let bound):
        guard let embed = bound.embed else {
          throw ResolutionFailure(description: "the scope '\(scope.pattern)' is read-only now")
        }
        do {
          return try embed(json)
        } catch {
          throw ResolutionFailure(
            description: (error as? ActionDecodingFailure)?.message ?? "action: \(error)")
        }
      case .unavailable(let scope):
        throw ResolutionFailure(
          description: "'\(name)' names no element of '\(scope.pattern)' any more")
      case .unknown, .host:
        throw ResolutionFailure(description: "the app has no scope '\(name)' any more")
      }
    }
    self.root = decodeRoot
  }
}

extension ActionResolver where Action: Decodable {
  /// Decodes root actions as JSON through the action's `Decodable` conformance.
  @inlinable
  static func decodingRoot(_ json: JSON) throws(ResolutionFailure) -> Action {
    do {
      return try JSONValueDecoder().decode(Action.self, from: json)
    } catch {
      throw ResolutionFailure(description: error.pathDescription)
    }
  }
}

/// The last journaled action resolved, kept so that a run of identical records (a counter
/// incremented a million times) is resolved once: resolving is a pure function of the scope's
/// name and the action's JSON, as the live send cache assumes too.
struct ResolvedActionCache<Action> {
  private var isClient = false
  private var scope: [UInt8] = []
  private var json: [UInt8] = []
  private var action: Action?

  /// The root action of `record`.
  mutating func action(
    for record: JournalDecoder.ActionView, resolver: ActionResolver<Action>
  ) throws(DurabilityFailure) -> Action {
    guard let json = record.action else {
      throw DurabilityFailure(
        "revision \(record.revision) was journaled without its action (it could not be "
          + "written as JSON), so the state after it cannot be rebuilt; start with --reset to "
          + "move the directory aside and begin empty")
    }
    let isClient = record.originKind == 2
    if let action = self.action, isClient == self.isClient,
      Self.equal(json, self.json), Self.equal(record.scope, self.scope)
    {
      return action
    }
    let value: JSON
    do {
      value = try JSON(parsing: json)
    } catch {
      throw DurabilityFailure(
        "the journaled action of revision \(record.revision) is not valid JSON (\(error)); "
          + "the journal is damaged: restore the directory from a backup, or start with --reset")
    }
    let scopeName = record.scope.map { String(decoding: $0, as: UTF8.self) }
    let action: Action
    do {
      if isClient, let scopeName {
        action = try resolver.client(scopeName, value)
      } else {
        action = try resolver.root(value)
      }
    } catch {
      let sentTo = scopeName.map { " (sent to '\($0)')" } ?? ""
      throw DurabilityFailure(
        "the action of revision \(record.revision)\(sentTo) no longer decodes: \(error); the "
          + "app changed since it was journaled. Run the version that wrote the directory and "
          + "stop it cleanly (its final snapshot makes the journal unnecessary), or start with "
          + "--reset to move the directory aside and begin empty")
    }
    self.isClient = isClient
    self.scope = record.scope.map(Array.init) ?? []
    self.json = Array(json)
    self.action = action
    return action
  }

  private static func equal(_ bytes: UnsafeRawBufferPointer?, _ stored: [UInt8]) -> Bool {
    guard let bytes else { return stored.isEmpty }
    guard bytes.count == stored.count else { return false }
    return stored.withUnsafeBytes { stored in
      var offset = 0
      while offset + 8 <= bytes.count {
        if bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          != stored.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        {
          return false
        }
        offset += 8
      }
      while offset < bytes.count {
        if bytes[offset] != stored[offset] { return false }
        offset += 1
      }
      return true
    }
  }
}
