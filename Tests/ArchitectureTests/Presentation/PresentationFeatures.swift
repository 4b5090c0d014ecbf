import Architecture

/// A list that confirms deletions with an alert and shares with a confirmation dialog, as in
/// TCA's alerts and dialogs article.
struct ItemList: Reducer {
  struct State: Equatable {
    @Presents var alert: AlertState<Action.Alert>?
    @Presents var dialog: ConfirmationDialogState<Action.Dialog>?
    var items: [String] = []
    var log: [String] = []
  }

  enum Action: Equatable, CasePathable {
    case alert(PresentationAction<Alert>)
    case deleteButtonTapped
    case dialog(PresentationAction<Dialog>)
    case shareButtonTapped

    enum Alert: Codable, Equatable, CasePathable {
      case confirmDeletion

      struct AllCasePaths {
        var confirmDeletion: AnyCasePath<Alert, Void> {
          .init(.confirmDeletion) { if case .confirmDeletion = $0 { true } else { false } }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    enum Dialog: Codable, Equatable, CasePathable {
      case copyLink
      case email(String)

      struct AllCasePaths {
        var copyLink: AnyCasePath<Dialog, Void> {
          .init(.copyLink) { if case .copyLink = $0 { true } else { false } }
        }
        var email: AnyCasePath<Dialog, String> {
          .init(Dialog.email) { if case .email(let v) = $0 { v } else { nil } }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    struct AllCasePaths {
      var alert: AnyCasePath<Action, PresentationAction<Alert>> {
        .init(Action.alert) { if case .alert(let v) = $0 { v } else { nil } }
      }
      var dialog: AnyCasePath<Action, PresentationAction<Dialog>> {
        .init(Action.dialog) { if case .dialog(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmDeletion)):
        state.items = []
        return .none
      case .alert:
        return .none
      case .deleteButtonTapped:
        state.alert = .deleteConfirmation(count: state.items.count)
        return .none
      case .dialog(.presented(.copyLink)):
        state.log.append("copied")
        return .none
      case .dialog(.presented(.email(let address))):
        state.log.append("mailed \(address)")
        return .none
      case .dialog:
        return .none
      case .shareButtonTapped:
        state.dialog = .share
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
    .ifLet(\.$dialog, action: \.dialog)
  }
}

extension AlertState where Action == ItemList.Action.Alert {
  static func deleteConfirmation(count: Int) -> Self {
    Self {
      TextState("Delete \(count) items?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmDeletion) {
        TextState("Delete")
      }
      ButtonState(role: .cancel) {
        TextState("Cancel")
      }
    } message: {
      TextState("This cannot be undone.")
    }
  }
}

extension ConfirmationDialogState where Action == ItemList.Action.Dialog {
  static let share = Self(titleVisibility: .visible) {
    TextState("Share")
  } actions: {
    ButtonState(action: .copyLink) { TextState("Copy link") }
    ButtonState(action: .email("blob@example.com")) { TextState("Email Blob") }
    ButtonState(role: .cancel) { TextState("Cancel") }
  }
}

/// A screen with a destination enum (an editor sheet or an alert), for case paths that go
/// through `.presented` and a destination's cases: `\.destination.editor.delegate.saved`.
struct Screen: Reducer {
  struct State: Equatable {
    @Presents var destination: Destination.State?
    var title = ""
  }

  enum Action: Equatable, CasePathable {
    case destination(PresentationAction<Destination.Action>)
    case editButtonTapped

    struct AllCasePaths {
      var destination: AnyCasePath<Action, PresentationAction<Destination.Action>> {
        .init(Action.destination) { if case .destination(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  struct Destination: Reducer {
    enum State: Equatable, CasePathable {
      case editor(DraftEditor.State)

      struct AllCasePaths {
        var editor: AnyCasePath<State, DraftEditor.State> {
          .init(State.editor) { if case .editor(let v) = $0 { v } else { nil } }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    enum Action: Equatable, CasePathable {
      case editor(DraftEditor.Action)

      struct AllCasePaths {
        var editor: AnyCasePath<Action, DraftEditor.Action> {
          .init(Action.editor) { if case .editor(let v) = $0 { v } else { nil } }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    var body: some ReducerOf<Self> {
      Scope(state: \.editor, action: \.editor) { DraftEditor() }
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .destination(.presented(.editor(.delegate(.saved(let title))))):
        state.title = title
        state.destination = nil
        return .none
      case .destination:
        return .none
      case .editButtonTapped:
        state.destination = .editor(DraftEditor.State(draft: state.title))
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination) { Destination() }
  }
}

struct DraftEditor: Reducer {
  struct State: Equatable {
    var draft = ""
  }

  enum Action: Equatable, CasePathable {
    case delegate(Delegate)
    case saveButtonTapped
    case setDraft(String)

    enum Delegate: Equatable, CasePathable {
      case saved(String)

      struct AllCasePaths {
        var saved: AnyCasePath<Delegate, String> {
          .init(Delegate.saved) { if case .saved(let v) = $0 { v } else { nil } }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    struct AllCasePaths {
      var delegate: AnyCasePath<Action, Delegate> {
        .init(Action.delegate) { if case .delegate(let v) = $0 { v } else { nil } }
      }
      var saveButtonTapped: AnyCasePath<Action, Void> {
        .init(.saveButtonTapped) { if case .saveButtonTapped = $0 { true } else { false } }
      }
      var setDraft: AnyCasePath<Action, String> {
        .init(Action.setDraft) { if case .setDraft(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .delegate:
      return .none
    case .saveButtonTapped:
      return .send(.delegate(.saved(state.draft)))
    case .setDraft(let draft):
      state.draft = draft
      return .none
    }
  }
}

/// A screen whose destination enum holds an alert among its features, as TCA's SyncUps detail
/// has: the alert is dismissed by its buttons although the destination has a reducer.
struct ConfirmingScreen: Reducer {
  struct State: Equatable {
    @Presents var destination: Destination.State?
    var deleted = false
  }

  enum Action: Equatable, CasePathable {
    case deleteButtonTapped
    case destination(PresentationAction<Destination.Action>)

    struct AllCasePaths {
      var destination: AnyCasePath<Action, PresentationAction<Destination.Action>> {
        .init(Action.destination) { if case .destination(let v) = $0 { v } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  struct Destination: Reducer {
    enum State: Equatable, CasePathable {
      case alert(AlertState<ItemList.Action.Alert>)
      case editor(DraftEditor.State)

      struct AllCasePaths {
        var alert: AnyCasePath<State, AlertState<ItemList.Action.Alert>> {
          .init(State.alert) { if case .alert(let v) = $0 { v } else { nil } }
        }
        var editor: AnyCasePath<State, DraftEditor.State> {
          .init(State.editor) { if case .editor(let v) = $0 { v } else { nil } }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    enum Action: Equatable, CasePathable {
      case alert(ItemList.Action.Alert)
      case editor(DraftEditor.Action)

      struct AllCasePaths {
        var alert: AnyCasePath<Action, ItemList.Action.Alert> {
          .init(Action.alert) { if case .alert(let v) = $0 { v } else { nil } }
        }
        var editor: AnyCasePath<Action, DraftEditor.Action> {
          .init(Action.editor) { if case .editor(let v) = $0 { v } else { nil } }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    var body: some ReducerOf<Self> {
      Scope(state: \.editor, action: \.editor) { DraftEditor() }
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .deleteButtonTapped:
        state.destination = .alert(.deleteConfirmation(count: 1))
        return .none
      case .destination(.presented(.alert(.confirmDeletion))):
        state.deleted = true
        return .none
      case .destination:
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination) { Destination() }
  }
}
