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
/// task, hence atomic), and ends the effects still running then: a dismissed feature's work
/// is over, as in TCA (where the test store skips its in-flight effects without reporting them).
final class _TestStoreDismissal: Sendable {
  private let dismissed = Atomic(false)
  /// Cancels the store's running effects; set once the store's runtime exists.
  private let cancelEffects = Mutex<(@Sendable () -> Void)?>(nil)

  var isDismissed: Bool { self.dismissed.load(ordering: .acquiring) }

  /// Sets what dismissing does to the store's effects.
  func onDismiss(cancelEffects: @escaping @Sendable () -> Void) {
    self.cancelEffects.withLock { $0 = cancelEffects }
  }

  func dismiss() {
    self.dismissed.store(true, ordering: .releasing)
    self.cancelEffects.withLock { $0 }?()
  }
}
