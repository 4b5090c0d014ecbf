import Wire

/// What one ``PushEngine/syncAll(_:force:)`` computed once for all the sessions watching the
/// same scope: the scope's state and JSON at the current revision, and each patch frame by its
/// base. A class, so that a watcher's lookup copies nothing out of it.
@usableFromInline
final class SyncCache {
  /// One scope's share of a sync.
  final class Scope {
    /// The scope's state now; `nil` when it no longer exists.
    let state: (any ScopeState)?
    /// Its JSON, once a watcher needed it.
    var json: JSON?
    /// Encoded patch frames by subscription id and base revision (usually one entry: the
    /// watchers of a scope share both); empty when the diff had no operations.
    var frames: [(sub: Int64, base: Int64, frame: [UInt8])] = []

    init(state: (any ScopeState)?) { self.state = state }

    func frame(sub: Int64, base: Int64) -> [UInt8]? {
      for entry in frames where entry.sub == sub && entry.base == base { return entry.frame }
      return nil
    }
  }

  var scopes: [String: Scope] = [:]
  /// When this sync started (monotonic seconds).
  let now: Double
  /// The earliest time a scope put off by its cost may be synced, if any was.
  var deferredUntil: Double?

  init(now: Double) { self.now = now }
}
