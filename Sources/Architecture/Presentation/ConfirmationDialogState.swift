#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A confirmation dialog (an action sheet), as data: like ``AlertState``, with a choice of
/// whether its title is shown.
///
/// ```swift
/// struct State: Equatable {
///   @Presents var confirmationDialog: ConfirmationDialogState<Action.Dialog>?
/// }
///
/// state.confirmationDialog = ConfirmationDialogState(titleVisibility: .visible) {
///   TextState("Share")
/// } actions: {
///   ButtonState(action: .copyLink) { TextState("Copy link") }
///   ButtonState(role: .cancel) { TextState("Cancel") }
/// } message: {
///   TextState("Choose how to share this item.")
/// }
/// ```
///
/// It is presented and dismissed like an alert: `.ifLet(\.$confirmationDialog, action:
/// \.confirmationDialog)`, and `\.confirmationDialog.copyLink` names a button's action in
/// tests. Equality, hashing, dumps and the JSON form ignore ``id``; the JSON form adds
/// `"titleVisibility":"visible"` (or `"hidden"`, or `"automatic"`).
public struct ConfirmationDialogState<Action>: Identifiable {
  /// The dialog's identity (a new one for each dialog made).
  public let id: UUID
  /// The buttons, in order.
  public var buttons: [ButtonState<Action>]
  /// The message under the title.
  public var message: TextState?
  /// The title.
  public var title: TextState
  /// Whether the title is shown.
  public var titleVisibility: ConfirmationDialogStateTitleVisibility

  init(
    id: UUID, buttons: [ButtonState<Action>], message: TextState?, title: TextState,
    titleVisibility: ConfirmationDialogStateTitleVisibility
  ) {
    self.id = id
    self.buttons = buttons
    self.message = message
    self.title = title
    self.titleVisibility = titleVisibility
  }

  /// Creates a confirmation dialog.
  ///
  /// - Parameters:
  ///   - titleVisibility: Whether the title is shown.
  ///   - title: The title.
  ///   - actions: The buttons.
  ///   - message: The message under the title.
  public init(
    titleVisibility: ConfirmationDialogStateTitleVisibility = .automatic,
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.init(
      id: UUID(), buttons: actions(), message: message?(), title: title(),
      titleVisibility: titleVisibility)
  }

  /// The same dialog with its buttons sending other actions.
  ///
  /// - Parameter transform: Maps each button's action.
  /// - Returns: The dialog, with the same identity.
  public func map<NewAction>(
    _ transform: (Action?) -> NewAction?
  ) -> ConfirmationDialogState<NewAction> {
    ConfirmationDialogState<NewAction>(
      id: self.id, buttons: self.buttons.map { $0.map(transform) }, message: self.message,
      title: self.title, titleVisibility: self.titleVisibility)
  }
}

/// Whether a confirmation dialog shows its title.
public enum ConfirmationDialogStateTitleVisibility: String, Codable, Hashable, Sendable {
  /// As the platform decides.
  case automatic
  /// Never.
  case hidden
  /// Always.
  case visible
}

extension ConfirmationDialogState: Equatable where Action: Equatable {
  /// Compares everything but ``id``.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.titleVisibility == rhs.titleVisibility
      && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension ConfirmationDialogState: Hashable where Action: Hashable {
  /// Hashes everything but ``id``.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.title)
    hasher.combine(self.titleVisibility)
    hasher.combine(self.message)
    hasher.combine(self.buttons)
  }
}

extension ConfirmationDialogState: Sendable where Action: Sendable {}

extension ConfirmationDialogState: CustomReflectable {
  /// Reflects everything but ``id``, in the order the initializer takes it.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "titleVisibility": self.titleVisibility, "title": self.title, "actions": self.buttons,
        "message": self.message as Any,
      ],
      displayStyle: .struct)
  }
}

extension ConfirmationDialogState: Encodable where Action: Encodable {
  /// Encodes `{"buttons":[…],"message":…,"title":…,"titleVisibility":…}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: _ConfirmationDialogStateCodingKeys.self)
    try container.encode(self.buttons, forKey: .buttons)
    try container.encodeIfPresent(self.message, forKey: .message)
    try container.encode(self.title, forKey: .title)
    try container.encode(self.titleVisibility, forKey: .titleVisibility)
  }
}

extension ConfirmationDialogState: Decodable where Action: Decodable {
  /// Decodes the JSON form; a missing `titleVisibility` is `automatic`. The dialog gets a new
  /// ``id``.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: _ConfirmationDialogStateCodingKeys.self)
    self.init(
      id: UUID(),
      buttons: try container.decode([ButtonState<Action>].self, forKey: .buttons),
      message: try container.decodeIfPresent(TextState.self, forKey: .message),
      title: try container.decode(TextState.self, forKey: .title),
      titleVisibility: try container.decodeIfPresent(
        ConfirmationDialogStateTitleVisibility.self, forKey: .titleVisibility) ?? .automatic)
  }
}

/// The keys of the JSON form (outside the generic type, so that the encoding and the decoding
/// extensions, constrained differently, share them).
private enum _ConfirmationDialogStateCodingKeys: String, CodingKey {
  case buttons, message, title, titleVisibility
}
