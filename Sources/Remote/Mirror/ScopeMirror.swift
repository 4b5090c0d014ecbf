import Wire

/// A client's copy of one subscribed scope: the state at a root revision, kept current by
/// applying the host's patches in order (PROTOCOL.md §4).
struct ScopeMirror: Sendable, Equatable {
  /// The revision of the last snapshot or patch applied.
  private(set) var revision: Revision
  /// The state at ``revision``.
  private(set) var state: JSON

  /// What applying a patch did.
  enum Outcome: Equatable {
    /// The state moved from `base` to `rev`; `before` is the state at `base`.
    case applied(before: JSON)
    /// The patch's `base` is not the mirror's revision: the mirror can no longer be trusted
    /// and the client must resubscribe.
    case baseMismatch(expected: Revision, received: Revision)
    /// The operations could not be applied (or are malformed): resubscribe.
    case invalid(String)
  }

  /// Starts from a snapshot.
  init(_ snapshot: Snapshot) {
    self.revision = snapshot.revision
    self.state = snapshot.state
  }

  /// The mirror as a snapshot.
  var snapshot: Snapshot { Snapshot(revision: self.revision, state: self.state) }

  /// Applies one `patch` push. On anything but ``Outcome/applied(before:)`` the mirror is
  /// left unchanged.
  ///
  /// - Parameters:
  ///   - base: The revision the patch applies to.
  ///   - rev: The revision it produces.
  ///   - ops: Its RFC 6902 operations.
  ///   - keepingBefore: Whether the caller wants the previous state (which costs copying the
  ///     containers the patch changes, as the old state stays alive).
  mutating func apply(
    base: Revision, rev: Revision, ops: [JSON], keepingBefore: Bool = true
  ) -> Outcome {
    guard base == self.revision else {
      return .baseMismatch(expected: self.revision, received: base)
    }
    guard rev > base else {
      return .invalid("a patch from revision \(base) to \(rev) does not move forward")
    }
    guard !ops.isEmpty else { return .invalid("a patch with no operations") }
    let operations: [JSONPatchOperation]
    do {
      operations = try JSONPatch.operations(from: .array(ops))
    } catch {
      return .invalid("malformed patch: \(error)")
    }
    let before = keepingBefore ? self.state : .null
    do {
      try JSONPatch.apply(operations, to: &self.state)
    } catch {
      return .invalid("the patch does not apply to revision \(base): \(error)")
    }
    self.revision = rev
    return .applied(before: before)
  }
}
