import Architecture

/// The quantity stepper of a product: how many of it go in the cart.
public struct AddToCart: Reducer, Sendable {
  /// The most of one product a cart can hold.
  public static let maximumCount = 99

  /// The quantity chosen.
  public struct State: Codable, Equatable, Sendable {
    /// How many of the product go in the cart, from 0 to ``AddToCart/maximumCount``.
    public var count: Int

    /// Creates a stepper state.
    ///
    /// - Parameter count: The quantity.
    public init(count: Int = 0) {
      self.count = count
    }
  }

  /// The stepper's buttons.
  public enum Action: Codable, Equatable, Sendable, CasePathable {
    /// One less (not below 0).
    case didTapMinusButton
    /// One more (not above ``AddToCart/maximumCount``).
    case didTapPlusButton

    /// The case paths of ``AddToCart/Action``.
    public struct AllCasePaths: Sendable {
      /// `.didTapMinusButton`.
      public var didTapMinusButton: AnyCasePath<Action, Void> {
        .init(.didTapMinusButton) { if case .didTapMinusButton = $0 { true } else { false } }
      }
      /// `.didTapPlusButton`.
      public var didTapPlusButton: AnyCasePath<Action, Void> {
        .init(.didTapPlusButton) { if case .didTapPlusButton = $0 { true } else { false } }
      }
    }

    /// The case paths of ``AddToCart/Action``.
    public static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  /// Creates the stepper feature.
  public init() {}

  /// Steps the quantity within its bounds.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .didTapMinusButton:
      state.count = max(0, state.count - 1)
    case .didTapPlusButton:
      state.count = min(Self.maximumCount, state.count + 1)
    }
    return .none
  }
}
