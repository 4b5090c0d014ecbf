/// Dismisses the feature that calls it: the presented feature (`ifLet` over ``PresentationState``)
/// or the stack element (`forEach` over ``StackState``) whose effect is running.
///
/// ```swift
/// struct EditItem: Reducer {
///   @Dependency(\.dismiss) var dismiss
///
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     switch action {
///     case .saveButtonTapped:
///       return .run { _ in await self.dismiss() }
///     }
///   }
/// }
/// ```
///
/// Call it from an effect. For a presented feature it sends `.dismiss` to the parent's
/// presentation action; for a stack element, `.popFrom(id:)` with the element's id. The parent
/// reduces it as any other action (it can see it), and the child's effects — including the one
/// that called `dismiss` — are cancelled.
///
/// Outside a presented feature it dismisses nothing and reports a runtime warning (a test
/// failure in a ``TestStore``). To test a child feature on its own, override it:
///
/// ```swift
/// let isDismissed = LockIsolated(false)
/// let store = TestStore(initialState: EditItem.State()) {
///   EditItem()
/// } withDependencies: {
///   $0.dismiss = DismissEffect { isDismissed.setValue(true) }
/// }
/// ```
public struct DismissEffect: Sendable {
  let dismiss: (@Sendable () async -> Void)?

  /// The dismissal of the presented feature an effect runs for.
  init() {
    self.dismiss = nil
  }

  /// A dismissal that runs a closure instead, for testing a child feature on its own.
  ///
  /// - Parameter dismiss: Called in place of dismissing.
  public init(_ dismiss: @escaping @Sendable () async -> Void) {
    self.dismiss = dismiss
  }

  /// Dismisses the presented feature (or stack element) whose effect calls it.
  ///
  /// - Parameters:
  ///   - fileID: The caller's file, for the runtime warning when nothing can be dismissed.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    // The presentation the effect runs in wins, as TCA's presentation reducers override this
    // dependency for their child.
    if let dismiss = _DismissContext.dismiss ?? self.dismiss {
      await dismiss()
      return
    }
    DependencyValues._effective.runtimeWarnings(
      "A reducer requested dismissal at \"\(fileID):\(line)\", but nothing could be dismissed."
        + " Only a feature presented with \"ifLet\" (over @Presents state) or pushed on a"
        + " \"forEach\" stack can dismiss itself, and only from an effect it returned.")
  }
}

/// How the effects of a presented feature reach its parent: set by the presentation and stack
/// reducers around their child's effects.
enum _DismissContext {
  @TaskLocal static var dismiss: (@Sendable () async -> Void)?
}

private enum DismissKey: DependencyKey {
  static let liveValue = DismissEffect()
  static let testValue = DismissEffect()
}

extension DependencyValues {
  /// Dismisses the presented feature (or stack element) whose effect calls it: see
  /// ``DismissEffect``.
  public var dismiss: DismissEffect {
    get { self[DismissKey.self] }
    set { self[DismissKey.self] = newValue }
  }
}

extension _Operation {
  /// The same effect tree, with every `.run` able to dismiss its feature by sending `action()`
  /// (what `@Dependency(\.dismiss)` does in it).
  func _dismissing(with action: @escaping @Sendable () -> Action) -> _Operation {
    switch self {
    case .none, .send, .cancel:
      return self
    case .run(let priority, let dependencies, let body):
      return .run(priority, dependencies) { send in
        await _DismissContext.$dismiss.withValue({ await send(action()) }) {
          await body(send)
        }
      }
    case .merge(let operations):
      return .merge(operations.map { $0._dismissing(with: action) })
    case .concatenate(let operations):
      return .concatenate(operations.map { $0._dismissing(with: action) })
    case .cancellable(let id, let cancelInFlight, let operation):
      return .cancellable(id, cancelInFlight: cancelInFlight, operation._dismissing(with: action))
    case .debounce(let id, let duration, let clock, let operation):
      return .debounce(id, duration, clock, operation._dismissing(with: action))
    }
  }
}

extension Effect {
  /// This effect, able to dismiss its feature by sending `action()`.
  func _dismissing(with action: @escaping @Sendable () -> Action) -> Self {
    if self.isNone { return self }
    return Self(operation: self._operation._dismissing(with: action))
  }
}
