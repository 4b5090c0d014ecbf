/// The identity of a presented (or child) value, as TCA's navigation ids have it: the value's
/// case when it is an enum, and its `id` when it is `Identifiable` (or its case's payload is).
/// Two values of the same identity are one presentation; a struct that is not `Identifiable`
/// has one identity whatever its contents.
struct _PresentationIdentity: Hashable, @unchecked Sendable {
  // @unchecked: `id` is built from `Identifiable.ID` values, which the library only ever reads
  // for hashing and equality; the case name is a `String`.
  let caseName: String?
  let id: AnyHashable?

  init(of value: Any) {
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .enum {
      let payload = mirror.children.first
      self.caseName = payload?.label ?? String(describing: value)
      self.id = _identifiableID(value) ?? payload.flatMap { _identifiableID($0.value) }
    } else {
      self.caseName = nil
      self.id = _identifiableID(value)
    }
  }
}

/// The `id` of a value that is `Identifiable`, else `nil`.
func _identifiableID(_ value: Any) -> AnyHashable? {
  guard let identifiable = value as? any Identifiable else { return nil }
  func open<T: Identifiable>(_ value: T) -> AnyHashable { AnyHashable(value.id) }
  return open(identifiable)
}
