import Synchronization

extension TestStore {
  /// Whether the feature under test dismissed itself with `@Dependency(\.dismiss)`, as TCA's
  /// `store.isDismissed`.
  ///
  /// A feature at the root of a test store has no parent to dismiss it, so its dismissal is
  /// recorded here:
  ///
  /// ```swift
  /// await store.send(\.destination.alert.confirmDeletion) {
  ///   $0.destination = nil
  /// }
  /// #expect(store.isDismissed)
  /// ```
  ///
  /// Sending an action after the dismissal fails the test. Dismissals of presented or stack
  /// children dismiss those children, not the store.
  public var isDismissed: Bool {
    self.dismissal.isDismissed
  }
}

/// Records that the feature at the root of a test store dismissed itself (from any effect's
/// task, hence atomic).
final class _TestStoreDismissal: Sendable {
  private let dismissed = Atomic(false)

  var isDismissed: Bool { self.dismissed.load(ordering: .acquiring) }

  func dismiss() {
    self.dismissed.store(true, ordering: .releasing)
  }
}
