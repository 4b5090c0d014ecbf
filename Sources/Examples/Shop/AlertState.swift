/// The description of an alert: what a client should show, and the action each button sends.
///
/// A small, `Codable` stand-in for TCA's `AlertState`, so that a remote client can render an
/// alert from JSON and answer it with `{"alert":{"_0":{"presented":{"_0":<button action>}}}}`:
///
/// ```json
/// {"buttons":[{"action":{"didConfirmPurchase":{}},"label":"Pay $19.99"},
///             {"action":{"didCancelConfirmation":{}},"label":"Cancel","role":"cancel"}],
///  "message":"Do you want to proceed with your purchase of $19.99?",
///  "title":"Confirm your purchase"}
/// ```
public struct AlertState<Action>: Identifiable {
  /// The alert's identity: its title, message and buttons.
  public var id: String {
    ([self.title, self.message ?? ""] + self.buttons.map(\.label)).joined(separator: "\u{1F}")
  }
  /// The title.
  public var title: String
  /// The message under the title.
  public var message: String?
  /// The buttons, in order.
  public var buttons: [ButtonState<Action>]

  /// Creates an alert.
  ///
  /// - Parameters:
  ///   - title: The title.
  ///   - message: The message under the title.
  ///   - buttons: The buttons, in order.
  public init(title: String, message: String? = nil, buttons: [ButtonState<Action>]) {
    self.title = title
    self.message = message
    self.buttons = buttons
  }
}

/// A button of an ``AlertState``.
public struct ButtonState<Action> {
  /// What kind of button it is (how clients style it).
  public enum Role: String, Codable, Equatable, Hashable, Sendable {
    /// Dismisses without doing anything.
    case cancel
    /// Does something that cannot be undone.
    case destructive
  }

  /// The action sent (wrapped in `PresentationAction.presented`) when the button is tapped;
  /// `nil` for a button that only dismisses.
  public var action: Action?
  /// The button's text.
  public var label: String
  /// The button's role.
  public var role: Role?

  /// Creates a button.
  ///
  /// - Parameters:
  ///   - role: The button's role.
  ///   - action: The action it sends.
  ///   - label: Its text.
  public init(role: Role? = nil, action: Action?, label: String) {
    self.action = action
    self.label = label
    self.role = role
  }
}

extension AlertState: Equatable where Action: Equatable {}
extension AlertState: Hashable where Action: Hashable {}
extension AlertState: Sendable where Action: Sendable {}
extension AlertState: Encodable where Action: Encodable {}
extension AlertState: Decodable where Action: Decodable {}
extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}
extension ButtonState: Sendable where Action: Sendable {}
extension ButtonState: Encodable where Action: Encodable {}
extension ButtonState: Decodable where Action: Decodable {}
