#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A button of an ``AlertState`` or a ``ConfirmationDialogState``: its label, its role, and the
/// action it sends.
///
/// ```swift
/// ButtonState(role: .destructive, action: .confirmDeletion) {
///   TextState("Delete")
/// }
/// ButtonState(role: .cancel) {
///   TextState("Cancel")
/// }
/// ```
///
/// Tapping a button sends its action wrapped in `PresentationAction.presented`
/// (`.alert(.presented(.confirmDeletion))`) and dismisses the alert; a button without an action
/// only dismisses it. Equality and hashing ignore ``id``; so does the JSON form,
/// `{"action":{"confirmDeletion":{}},"label":"Delete","role":"destructive"}`.
public struct ButtonState<Action>: Identifiable {
  /// The button's identity (a new one for each button made).
  public let id: UUID
  /// What the button sends.
  public let action: ButtonStateAction<Action>
  /// The button's text.
  public let label: TextState
  /// How the button is styled, if it has a role.
  public let role: ButtonStateRole?

  init(id: UUID, action: ButtonStateAction<Action>, label: TextState, role: ButtonStateRole?) {
    self.id = id
    self.action = action
    self.label = label
    self.role = role
  }

  /// Creates a button.
  ///
  /// - Parameters:
  ///   - role: How the button is styled.
  ///   - action: What it sends; `.send(nil)` (the default) only dismisses.
  ///   - label: Its text.
  public init(
    role: ButtonStateRole? = nil,
    action: ButtonStateAction<Action> = .send(nil),
    label: () -> TextState
  ) {
    self.init(id: UUID(), action: action, label: label(), role: role)
  }

  /// Creates a button that sends an action.
  ///
  /// - Parameters:
  ///   - role: How the button is styled.
  ///   - action: What it sends.
  ///   - label: Its text.
  public init(role: ButtonStateRole? = nil, action: Action, label: () -> TextState) {
    self.init(id: UUID(), action: .send(action), label: label(), role: role)
  }

  /// Calls `perform` with the button's action (`nil` for a button that only dismisses), as a
  /// client does when the button is tapped.
  ///
  /// - Parameter perform: Receives the action.
  public func withAction(_ perform: (Action?) -> Void) {
    perform(self.action.action)
  }

  /// The same button sending another action.
  ///
  /// - Parameter transform: Maps the action (`nil` when the button only dismisses).
  /// - Returns: The button, with the same identity.
  public func map<NewAction>(_ transform: (Action?) -> NewAction?) -> ButtonState<NewAction> {
    ButtonState<NewAction>(
      id: self.id, action: .send(transform(self.action.action), animation: self.action.animation),
      label: self.label,
      role: self.role)
  }
}

/// What a ``ButtonState`` sends when tapped.
public struct ButtonStateAction<Action> {
  /// The action, or `nil` for a button that only dismisses.
  public let action: Action?

  /// The animation the button asks for when it sends ``action`` (see ``Animation``), or `nil`.
  public let animation: Animation?

  /// Sends an action (or, with `nil`, nothing), optionally with an animation, as TCA's
  /// `.send(.confirm, animation: .default)`.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - animation: The animation the button asks for; buttons that differ only by it are
  ///     different, as in TCA.
  /// - Returns: The button action.
  public static func send(_ action: Action?, animation: Animation? = nil) -> Self {
    Self(action: action, animation: animation)
  }
}

/// How a button is styled.
public enum ButtonStateRole: String, Codable, Hashable, Sendable {
  /// Dismisses without doing anything.
  case cancel
  /// Does something that cannot be undone.
  case destructive
}

extension ButtonState: Equatable where Action: Equatable {
  /// Compares role, action and label (not ``id``).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.role == rhs.role && lhs.action == rhs.action && lhs.label == rhs.label
  }
}

extension ButtonState: Hashable where Action: Hashable {
  /// Hashes role, action and label (not ``id``).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.role)
    hasher.combine(self.action)
    hasher.combine(self.label)
  }
}

extension ButtonState: Sendable where Action: Sendable {}

extension ButtonState: CustomReflectable {
  /// Reflects role, action and label (not ``id``), so that test failures show what differs.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: ["role": self.role as Any, "action": self.action, "label": self.label],
      displayStyle: .struct)
  }
}

extension ButtonState: Encodable where Action: Encodable {
  /// Encodes `{"action":…,"label":…,"role":…}`, leaving out a missing action or role.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: _ButtonStateCodingKeys.self)
    try container.encodeIfPresent(self.action.action, forKey: .action)
    try container.encode(self.label, forKey: .label)
    try container.encodeIfPresent(self.role, forKey: .role)
  }
}

extension ButtonState: Decodable where Action: Decodable {
  /// Decodes `{"action":…,"label":…,"role":…}`; the button gets a new ``id``.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: _ButtonStateCodingKeys.self)
    self.init(
      id: UUID(),
      action: .send(try container.decodeIfPresent(Action.self, forKey: .action)),
      label: try container.decode(TextState.self, forKey: .label),
      role: try container.decodeIfPresent(ButtonStateRole.self, forKey: .role))
  }
}

extension ButtonStateAction: Equatable where Action: Equatable {}
extension ButtonStateAction: Hashable where Action: Hashable {}
extension ButtonStateAction: Sendable where Action: Sendable {}

extension ButtonStateAction: CustomReflectable {
  /// Reflects as `.send(action)`, or `.animatedSend(action, animation:)` with an animation.
  public var customMirror: Mirror {
    guard let animation = self.animation else {
      return Mirror(self, children: ["send": self.action as Any], displayStyle: .enum)
    }
    return Mirror(
      self,
      children: [
        "animatedSend": (action: self.action as Any, animation: animation.description)
      ],
      displayStyle: .enum)
  }
}

/// Builds the buttons of an alert or a dialog from a list, with `if`, `if`/`else` and `for`.
///
/// ```swift
/// AlertState {
///   TextState("Delete?")
/// } actions: {
///   ButtonState(role: .destructive, action: .confirm) { TextState("Delete") }
///   if canArchive {
///     ButtonState(action: .archive) { TextState("Archive") }
///   }
///   ButtonState(role: .cancel) { TextState("Cancel") }
/// }
/// ```
@resultBuilder
public enum ButtonStateBuilder<Action> {
  /// Buttons in order.
  public static func buildBlock(_ components: [ButtonState<Action>]...) -> [ButtonState<Action>] {
    components.flatMap { $0 }
  }

  /// One button.
  public static func buildExpression(_ expression: ButtonState<Action>) -> [ButtonState<Action>] {
    [expression]
  }

  /// An `if` without `else`.
  public static func buildOptional(_ component: [ButtonState<Action>]?) -> [ButtonState<Action>] {
    component ?? []
  }

  /// The `if` branch of an `if`/`else`.
  public static func buildEither(first component: [ButtonState<Action>]) -> [ButtonState<Action>] {
    component
  }

  /// The `else` branch of an `if`/`else`.
  public static func buildEither(second component: [ButtonState<Action>]) -> [ButtonState<Action>] {
    component
  }

  /// A `for` loop.
  public static func buildArray(_ components: [[ButtonState<Action>]]) -> [ButtonState<Action>] {
    components.flatMap { $0 }
  }

  /// An `if #available` block.
  public static func buildLimitedAvailability(
    _ component: [ButtonState<Action>]
  ) -> [ButtonState<Action>] {
    component
  }
}

/// The keys of the JSON form (outside the generic type, so that the encoding and the decoding
/// extensions, constrained differently, share them).
private enum _ButtonStateCodingKeys: String, CodingKey {
  case action, label, role
}
