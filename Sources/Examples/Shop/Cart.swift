import Architecture

/// The cart, presented by ``Shop``: its lines, their total, and the purchase flow (a
/// confirmation alert, the order sent through ``APIClient``, then a success or error alert).
public struct Cart: Reducer, Sendable {
  /// The cart.
  public struct State: Codable, Equatable, Sendable {
    /// The alert shown, if any.
    @Presents public var alert: AlertState<Action.Alert>?
    /// Whether the order is being sent.
    public var isSendingOrder: Bool
    /// The lines.
    public var items: IdentifiedArrayOf<CartItem.State>
    /// The total price, in cents (kept in sync with ``items``).
    public var totalPriceInCents: Int

    /// Creates a cart.
    ///
    /// - Parameters:
    ///   - items: The lines.
    ///   - alert: The alert shown.
    ///   - isSendingOrder: Whether the order is being sent.
    public init(
      items: IdentifiedArrayOf<CartItem.State> = [],
      alert: AlertState<Action.Alert>? = nil,
      isSendingOrder: Bool = false
    ) {
      self.alert = alert
      self.isSendingOrder = isSendingOrder
      self.items = items
      self.totalPriceInCents = items.reduce(0) { $0 + $1.totalPriceInCents }
    }
  }

  /// The cart's actions.
  public enum Action: Codable, Equatable, Sendable, CasePathable {
    /// An alert button, or the alert's dismissal.
    case alert(PresentationAction<Alert>)
    /// Closes the cart (handled by ``Shop``).
    case closeButtonTapped
    /// An action of one line: `\.items[id: id]`.
    case items(IdentifiedActionOf<CartItem>)
    /// Asks to confirm the purchase.
    case payButtonTapped
    /// The order could not be sent, with a reason.
    case purchaseFailed(String)
    /// The order was placed, with the API's confirmation.
    case purchaseSucceeded(String)

    /// The actions of the cart's alerts.
    public enum Alert: Codable, Equatable, Sendable, CasePathable {
      /// "Cancel" on the confirmation.
      case didCancelConfirmation
      /// "Pay" on the confirmation: sends the order.
      case didConfirmPurchase
      /// "Done" on the error alert.
      case dismissErrorAlert
      /// "Done" on the success alert: ``Shop`` empties the cart and closes it.
      case dismissSuccessAlert

      /// The case paths of ``Cart/Action/Alert``.
      public struct AllCasePaths: Sendable {
        /// `.didCancelConfirmation`.
        public var didCancelConfirmation: AnyCasePath<Alert, Void> {
          .init(.didCancelConfirmation) {
            if case .didCancelConfirmation = $0 { true } else { false }
          }
        }
        /// `.didConfirmPurchase`.
        public var didConfirmPurchase: AnyCasePath<Alert, Void> {
          .init(.didConfirmPurchase) { if case .didConfirmPurchase = $0 { true } else { false } }
        }
        /// `.dismissErrorAlert`.
        public var dismissErrorAlert: AnyCasePath<Alert, Void> {
          .init(.dismissErrorAlert) { if case .dismissErrorAlert = $0 { true } else { false } }
        }
        /// `.dismissSuccessAlert`.
        public var dismissSuccessAlert: AnyCasePath<Alert, Void> {
          .init(.dismissSuccessAlert) { if case .dismissSuccessAlert = $0 { true } else { false } }
        }
      }

      /// The case paths of ``Cart/Action/Alert``.
      public static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    /// The case paths of ``Cart/Action``.
    public struct AllCasePaths: Sendable {
      /// `.alert`.
      public var alert: AnyCasePath<Action, PresentationAction<Alert>> {
        .init(Action.alert) { if case .alert(let v) = $0 { v } else { nil } }
      }
      /// `.closeButtonTapped`.
      public var closeButtonTapped: AnyCasePath<Action, Void> {
        .init(.closeButtonTapped) { if case .closeButtonTapped = $0 { true } else { false } }
      }
      /// `.items`; `\.items[id: id]` reaches one line's actions.
      public var items: AnyCasePath<Action, IdentifiedActionOf<CartItem>> {
        .init(Action.items) { if case .items(let v) = $0 { v } else { nil } }
      }
      /// `.payButtonTapped`.
      public var payButtonTapped: AnyCasePath<Action, Void> {
        .init(.payButtonTapped) { if case .payButtonTapped = $0 { true } else { false } }
      }
      /// `.purchaseFailed`.
      public var purchaseFailed: AnyCasePath<Action, String> {
        .init(Action.purchaseFailed) { if case .purchaseFailed(let v) = $0 { v } else { nil } }
      }
      /// `.purchaseSucceeded`.
      public var purchaseSucceeded: AnyCasePath<Action, String> {
        .init(Action.purchaseSucceeded) {
          if case .purchaseSucceeded(let v) = $0 { v } else { nil }
        }
      }
    }

    /// The case paths of ``Cart/Action``.
    public static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  @Dependency(\.apiClient) var apiClient

  /// Creates the cart feature.
  public init() {}

  /// The purchase flow and line removal; alerts are dismissed by any of their buttons.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.didConfirmPurchase)):
        state.isSendingOrder = true
        let items = Array(state.items)
        return .run { send in
          await send(.purchaseSucceeded(try await self.apiClient.sendOrder(items)))
        } catch: { error, send in
          await send(.purchaseFailed("\(error)"))
        }

      case .alert:
        return .none

      case .closeButtonTapped:
        return .none

      case .items(.element(let id, .deleteButtonTapped)):
        state.items.remove(id: id)
        state.totalPriceInCents = state.items.reduce(0) { $0 + $1.totalPriceInCents }
        return .none

      case .payButtonTapped:
        guard !state.items.isEmpty, !state.isSendingOrder else { return .none }
        state.alert = .confirmPurchase(totalPriceInCents: state.totalPriceInCents)
        return .none

      case .purchaseFailed(let reason):
        state.isSendingOrder = false
        state.alert = .orderFailed(reason: reason)
        return .none

      case .purchaseSucceeded(let confirmation):
        state.isSendingOrder = false
        state.alert = .orderPlaced(confirmation: confirmation)
        return .none
      }
    }
    .forEach(\.items, action: \.items) {
      CartItem()
    }
    .ifLet(\.$alert, action: \.alert)
  }
}

extension AlertState where Action == Cart.Action.Alert {
  /// Asks to confirm paying the total.
  ///
  /// - Parameter totalPriceInCents: The total to pay.
  /// - Returns: The alert.
  public static func confirmPurchase(totalPriceInCents: Int) -> Self {
    let total = formatPrice(totalPriceInCents)
    return Self {
      TextState("Confirm your purchase")
    } actions: {
      ButtonState(action: .didConfirmPurchase) {
        TextState("Pay \(total)")
      }
      ButtonState(role: .cancel, action: .didCancelConfirmation) {
        TextState("Cancel")
      }
    } message: {
      TextState("Do you want to proceed with your purchase of \(total)?")
    }
  }

  /// Says the order was placed.
  ///
  /// - Parameter confirmation: The API's confirmation.
  /// - Returns: The alert.
  public static func orderPlaced(confirmation: String) -> Self {
    Self {
      TextState("Thank you!")
    } actions: {
      ButtonState(action: .dismissSuccessAlert) {
        TextState("Done")
      }
    } message: {
      TextState(confirmation)
    }
  }

  /// Says the order could not be sent.
  ///
  /// - Parameter reason: Why.
  /// - Returns: The alert.
  public static func orderFailed(reason: String) -> Self {
    Self {
      TextState("Oops!")
    } actions: {
      ButtonState(action: .dismissErrorAlert) {
        TextState("Done")
      }
    } message: {
      TextState("Unable to send your order, try again later. (\(reason))")
    }
  }
}
