/// The context of a state change that a feature asks for, as SwiftUI's `Transaction`: an
/// animation, and whether animations are disabled.
///
/// TCA features pass transactions to `send(_:transaction:)` and `dismiss(transaction:)`. This
/// library has no views, so the value is kept for the code to compile unchanged, and the action
/// is applied exactly as without it.
public struct Transaction: Hashable, Sendable {
  /// The animation of the change, if any.
  public var animation: Animation?

  /// Whether the change asks for no animation at all.
  public var disablesAnimations = false

  /// Whether the change is continuous (an interactive drag).
  public var isContinuous = false

  /// A transaction with an animation.
  ///
  /// - Parameter animation: The animation, or `nil`.
  public init(animation: Animation? = nil) {
    self.animation = animation
  }
}

extension Send {
  /// Sends an action back into the store in a transaction, as TCA's `send(_:transaction:)`.
  /// The action is reduced exactly as by ``callAsFunction(_:)``.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - transaction: The transaction the feature asks for.
  public func callAsFunction(_ action: sending Action, transaction: Transaction) async {
    await self(action)
  }
}

extension DismissEffect {
  /// Dismisses the presented feature with an animation, as TCA's `dismiss(animation:)`: the
  /// dismissal is exactly that of ``callAsFunction(fileID:filePath:line:column:)`` (there are
  /// no views to animate).
  ///
  /// ```swift
  /// return .run { _ in await self.dismiss(animation: .default) }
  /// ```
  ///
  /// - Parameters:
  ///   - animation: The animation the feature asks for.
  ///   - fileID: The caller's file, for the runtime warning when nothing can be dismissed.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func callAsFunction(
    animation: Animation?,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await self(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Dismisses the presented feature in a transaction, as TCA's `dismiss(transaction:)`: the
  /// dismissal is exactly that of ``callAsFunction(fileID:filePath:line:column:)``.
  ///
  /// - Parameters:
  ///   - transaction: The transaction the feature asks for.
  ///   - fileID: The caller's file, for the runtime warning when nothing can be dismissed.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func callAsFunction(
    transaction: Transaction,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await self(fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
