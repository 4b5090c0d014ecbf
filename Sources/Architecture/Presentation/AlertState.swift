#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An alert, as data: its title, message and buttons, each button with the action it sends.
///
/// Hold it in presentation state and let `ifLet` dismiss it when a button is tapped, as in
/// TCA:
///
/// ```swift
/// struct State: Equatable {
///   @Presents var alert: AlertState<Action.Alert>?
/// }
/// enum Action {
///   case alert(PresentationAction<Alert>)
///   case deleteButtonTapped
///   enum Alert { case confirmDeletion }
/// }
///
/// extension AlertState where Action == Feature.Action.Alert {
///   static let deleteConfirmation = Self {
///     TextState("Delete Item")
///   } actions: {
///     ButtonState(role: .destructive, action: .confirmDeletion) {
///       TextState("Delete")
///     }
///     ButtonState(role: .cancel) {
///       TextState("Cancel")
///     }
///   } message: {
///     TextState("Are you sure you want to delete this item?")
///   }
/// }
///
/// // body:
/// Reduce { state, action in
///   switch action {
///   case .alert(.presented(.confirmDeletion)): …
///   case .deleteButtonTapped:
///     state.alert = .deleteConfirmation
///     return .none
///   …
///   }
/// }
/// .ifLet(\.$alert, action: \.alert)
///
/// // test:
/// await store.send(.deleteButtonTapped) { $0.alert = .deleteConfirmation }
/// await store.send(\.alert.confirmDeletion) { $0.alert = nil }
/// ```
///
/// With no SwiftUI here, a client shows it however it can: a CLI prints it, a remote client
/// renders its JSON and answers with the chosen button's action. Equality, hashing, test
/// failure dumps and the JSON form ignore ``id``:
///
/// ```json
/// {"buttons":[{"action":{"confirmDeletion":{}},"label":"Delete","role":"destructive"},
///             {"label":"Cancel","role":"cancel"}],
///  "message":"Are you sure you want to delete this item?","title":"Delete Item"}
/// ```
public struct AlertState<Action>: Identifiable {
  /// The alert's identity (a new one for each alert made), so that a client can tell a new
  /// alert from the same one shown again.
  public let id: UUID
  /// The buttons, in order.
  public var buttons: [ButtonState<Action>]
  /// The message under the title.
  public var message: TextState?
  /// The title.
  public var title: TextState

  init(id: UUID, buttons: [ButtonState<Action>], message: TextState?, title: TextState) {
    self.id = id
    self.buttons = buttons
    self.message = message
    self.title = title
  }

  /// Creates an alert.
  ///
  /// - Parameters:
  ///   - title: The title.
  ///   - actions: The buttons; none means a single button that only dismisses.
  ///   - message: The message under the title.
  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.init(id: UUID(), buttons: actions(), message: message?(), title: title())
  }

  /// The same alert with its buttons sending other actions.
  ///
  /// - Parameter transform: Maps each button's action.
  /// - Returns: The alert, with the same identity.
  public func map<NewAction>(_ transform: (Action?) -> NewAction?) -> AlertState<NewAction> {
    AlertState<NewAction>(
      id: self.id, buttons: self.buttons.map { $0.map(transform) }, message: self.message,
      title: self.title)
  }
}

extension AlertState: Equatable where Action: Equatable {
  /// Compares title, message and buttons (not ``id``).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension AlertState: Hashable where Action: Hashable {
  /// Hashes title, message and buttons (not ``id``).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.title)
    hasher.combine(self.message)
    hasher.combine(self.buttons)
  }
}

extension AlertState: Sendable where Action: Sendable {}

extension AlertState: CustomReflectable {
  /// Reflects title, actions and message (not ``id``), in the order the builder takes them.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "title": self.title, "actions": self.buttons, "message": self.message as Any,
      ],
      displayStyle: .struct)
  }
}

extension AlertState: Encodable where Action: Encodable {
  /// Encodes `{"buttons":[…],"message":…,"title":…}`, leaving out a missing message.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: _AlertStateCodingKeys.self)
    try container.encode(self.buttons, forKey: .buttons)
    try container.encodeIfPresent(self.message, forKey: .message)
    try container.encode(self.title, forKey: .title)
  }
}

extension AlertState: Decodable where Action: Decodable {
  /// Decodes `{"buttons":[…],"message":…,"title":…}`; the alert gets a new ``id``.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: _AlertStateCodingKeys.self)
    self.init(
      id: UUID(),
      buttons: try container.decode([ButtonState<Action>].self, forKey: .buttons),
      message: try container.decodeIfPresent(TextState.self, forKey: .message),
      title: try container.decode(TextState.self, forKey: .title))
  }
}

/// The keys of the JSON form (outside the generic type, so that the encoding and the decoding
/// extensions, constrained differently, share them).
private enum _AlertStateCodingKeys: String, CodingKey {
  case buttons, message, title
}
