import Architecture

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One to-do of TCA's classic Todos example.
///
/// State JSON: `{"description":"Milk","id":"…","isComplete":false}`; actions
/// `{"toggleCompleted":{}}` and `{"setDescription":{"_0":"Milk"}}` (the host's `todos/{id}`
/// scope).
public struct Todo: Reducer, Sendable {
  /// A to-do.
  public struct State: Codable, Equatable, Identifiable, Sendable {
    /// What to do.
    public var description: String
    /// The to-do's identity.
    public let id: UUID
    /// Whether it is done.
    public var isComplete: Bool

    /// Creates a to-do.
    ///
    /// - Parameters:
    ///   - description: What to do (empty for a new to-do).
    ///   - id: Its identity.
    ///   - isComplete: Whether it is done.
    public init(description: String = "", id: UUID, isComplete: Bool = false) {
      self.description = description
      self.id = id
      self.isComplete = isComplete
    }
  }

  /// A to-do's actions.
  public enum Action: Codable, Equatable, Sendable, CasePathable {
    /// Replaces the description.
    case setDescription(String)
    /// Marks the to-do done, or not done.
    case toggleCompleted

    /// The case paths of ``Todo/Action``.
    public struct AllCasePaths: Sendable {
      /// `.setDescription`.
      public var setDescription: AnyCasePath<Action, String> {
        .init(Action.setDescription) { if case .setDescription(let v) = $0 { v } else { nil } }
      }
      /// `.toggleCompleted`.
      public var toggleCompleted: AnyCasePath<Action, Void> {
        .init(.toggleCompleted) { if case .toggleCompleted = $0 { true } else { false } }
      }
    }

    /// The case paths of ``Todo/Action``.
    public static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  /// Creates the to-do feature.
  public init() {}

  /// Applies a to-do action.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .setDescription(let description):
      state.description = description
    case .toggleCompleted:
      state.isComplete.toggle()
    }
    return .none
  }
}
