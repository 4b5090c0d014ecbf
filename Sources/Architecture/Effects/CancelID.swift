/// The internal identity of a cancellable effect: the user's id, erased, plus the navigation
/// path (outermost first) of the `forEach`/`ifLet` scopes the effect was returned through, so
/// that the same id used by two elements names two different effects.
@usableFromInline
struct _CancelID: Hashable, @unchecked Sendable {
  // @unchecked: `AnyHashable` is not `Sendable`, but it is only ever built here from values
  // that are `Hashable & Sendable` (see `init(_:)`), and it is immutable.
  let base: AnyHashable
  let discriminator: ObjectIdentifier
  var path: [AnyHashable]

  init<ID: Hashable & Sendable>(_ id: ID) {
    self.base = AnyHashable(id)
    self.discriminator = ObjectIdentifier(ID.self)
    self.path = []
  }

  /// Whether this is the id of a presented or stack element (see `_NavigationID`).
  var isNavigation: Bool {
    self.discriminator == ObjectIdentifier(_NavigationID.self)
  }

  /// The id as seen from one navigation level further out.
  func scoped(in navigationID: _CancelID) -> _CancelID {
    var copy = self
    copy.path.insert(AnyHashable(navigationID), at: 0)
    return copy
  }
}

/// The navigation identity of a child state, used to cancel the child's effects when it goes
/// away: the scope's key path plus the child's own identity.
struct _NavigationID: Hashable, @unchecked Sendable {
  // @unchecked: holds a key path (immutable, from a literal) and an id built from a
  // `Hashable & Sendable` value; neither is mutated after init.
  let scope: AnyHashable
  let identity: AnyHashable?
}
