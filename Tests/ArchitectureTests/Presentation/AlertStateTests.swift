import Architecture
import Foundation
import Testing

/// Alerts, dialogs, buttons and text as data, built with TCA's builder syntax, and the case
/// paths that reach a presented feature's actions.
@Suite struct AlertStateTests {
  @Test func theBuilderTakesTitleButtonsAndMessage() {
    let canArchive = true
    let alert = AlertState<ItemList.Action.Alert> {
      TextState("Delete?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
      if canArchive {
        ButtonState { TextState("Archive") }
      } else {
        ButtonState { TextState("Keep") }
      }
      for label in ["Later", "Never"] {
        ButtonState(action: .send(nil)) { TextState(label) }
      }
      ButtonState(role: .cancel) { TextState("Cancel") }
    } message: {
      TextState("Gone for good.")
    }
    #expect(alert.title == TextState("Delete?"))
    #expect(alert.message == TextState("Gone for good."))
    #expect(
      alert.buttons.map { String(state: $0.label) } == [
        "Delete", "Archive", "Later", "Never", "Cancel",
      ])
    #expect(alert.buttons.map(\.role) == [.destructive, nil, nil, nil, .cancel])
    #expect(alert.buttons.map(\.action.action) == [.confirmDeletion, nil, nil, nil, nil])
  }

  @Test func alertsAreEqualWhateverTheirIdentity() {
    let first = AlertState<ItemList.Action.Alert>.deleteConfirmation(count: 2)
    let second = AlertState<ItemList.Action.Alert>.deleteConfirmation(count: 2)
    #expect(first.id != second.id)
    #expect(first == second)
    #expect(first.hashValue == second.hashValue)
    #expect(first != .deleteConfirmation(count: 3))
    #expect(
      ConfirmationDialogState<ItemList.Action.Dialog>.share
        == ConfirmationDialogState.share.map { $0 })
  }

  @Test func aButtonHandsItsActionToWhoeverTapsIt() {
    var tapped: [ItemList.Action.Alert?] = []
    for button in AlertState<ItemList.Action.Alert>.deleteConfirmation(count: 1).buttons {
      button.withAction { tapped.append($0) }
    }
    #expect(tapped == [.confirmDeletion, nil])
    let mapped = AlertState<ItemList.Action.Alert>.deleteConfirmation(count: 1).map {
      alertAction -> ItemList.Action? in
      alertAction.map { .alert(.presented($0)) } ?? .deleteButtonTapped
    }
    #expect(
      mapped.buttons.map(\.action.action) == [
        .alert(.presented(.confirmDeletion)), .deleteButtonTapped,
      ])
  }

  @Test func aFeatureShowsAnAlertAndHandlesItsButtonByCaseKeyPath() async {
    let store = TestStore(initialState: ItemList.State(items: ["a", "b"])) { ItemList() }
    await store.send(.deleteButtonTapped) {
      $0.alert = .deleteConfirmation(count: 2)
    }
    await store.send(\.alert.confirmDeletion) {
      $0.alert = nil
      $0.items = []
    }
  }

  @Test func dismissingAnAlertRunsNoButton() async {
    let store = TestStore(initialState: ItemList.State(items: ["a"])) { ItemList() }
    await store.send(.deleteButtonTapped) {
      $0.alert = .deleteConfirmation(count: 1)
    }
    await store.send(\.alert.dismiss) {
      $0.alert = nil
    }
  }

  @Test func aConfirmationDialogWorksLikeAnAlert() async {
    let store = TestStore(initialState: ItemList.State()) { ItemList() }
    await store.send(.shareButtonTapped) {
      $0.dialog = .share
    }
    await store.send(\.dialog.email, "blob@example.com") {
      $0.dialog = nil
      $0.log = ["mailed blob@example.com"]
    }
    await store.send(.shareButtonTapped) {
      $0.dialog = .share
    }
    await store.send(.dialog(.presented(.copyLink))) {
      $0.dialog = nil
      $0.log.append("copied")
    }
  }

  @Test func caseKeyPathsReachThroughADestination() async {
    let store = TestStore(initialState: Screen.State(title: "Draft")) { Screen() }
    await store.send(.editButtonTapped) {
      $0.destination = .editor(DraftEditor.State(draft: "Draft"))
    }
    await store.send(\.destination.editor.setDraft, "Final") {
      $0.destination = .editor(DraftEditor.State(draft: "Final"))
    }
    await store.send(\.destination.editor.saveButtonTapped)
    await store.receive(\.destination.editor.delegate.saved, "Final") {
      $0.destination = nil
      $0.title = "Final"
    }
  }

  @Test func anAlertInADestinationEnumIsDismissedByItsButtons() async {
    let store = TestStore(initialState: ConfirmingScreen.State()) { ConfirmingScreen() }
    await store.send(.deleteButtonTapped) {
      $0.destination = .alert(.deleteConfirmation(count: 1))
    }
    await store.send(\.destination.alert.confirmDeletion) {
      $0.destination = nil
      $0.deleted = true
    }
  }

  @Test func aFeatureInADestinationEnumIsNotDismissedByItsActions() async {
    let store = TestStore(
      initialState: ConfirmingScreen.State(destination: .editor(DraftEditor.State()))
    ) {
      ConfirmingScreen()
    }
    await store.send(\.destination.editor.setDraft, "Notes") {
      $0.destination = .editor(DraftEditor.State(draft: "Notes"))
    }
  }

  @Test func aFailureShowsTheAlertWithoutItsIdentity() async {
    await withKnownIssue {
      let store = TestStore(initialState: ItemList.State(items: ["a", "b"])) { ItemList() }
      await store.send(.deleteButtonTapped) { $0.alert = .deleteConfirmation(count: 3) }
    } matching: { issue in
      let message = issue.comments.first?.rawValue ?? ""
      let lines = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      return message.hasPrefix("A state change does not match expectation")
        && lines.contains(#"−     title: "Delete 3 items?","#.trimmingCharacters(in: .whitespaces))
        && lines.contains(#"+     title: "Delete 2 items?","#.trimmingCharacters(in: .whitespaces))
        && lines.contains("role: .destructive,")
        && lines.contains("action: .send(.confirmDeletion),")
        && lines.contains(#"label: "Delete""#) && lines.contains("action: .send(nil),")
        && lines.contains(#"message: "This cannot be undone.""#)
        && !message.contains("id:")
    }
  }

  @Test func textJoinsRunsAndKeepsTheirStyles() {
    #expect(TextState("Hello, ") + TextState("Blob") == TextState("Hello, Blob"))
    #expect(TextState("Hello").bold() != TextState("Hello"))
    #expect(TextState("Hello").bold().bold(false) == TextState("Hello"))
    let styled = TextState("Unsaved").bold() + TextState(" changes").italic()
    #expect(String(state: styled) == "Unsaved changes")
    #expect(styled.description == #""Unsaved".bold() + " changes".italic()"#)
  }

  @Test func theJSONFormLeavesOutIdentitiesAndRoundTrips() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let alert = AlertState<ItemList.Action.Alert>.deleteConfirmation(count: 1)
    let json = String(decoding: try encoder.encode(alert), as: UTF8.self)
    #expect(
      json == #"{"buttons":[{"action":{"confirmDeletion":{}},"label":"Delete","#
        + #""role":"destructive"},{"label":"Cancel","role":"cancel"}],"#
        + #""message":"This cannot be undone.","title":"Delete 1 items?"}"#)
    #expect(
      try JSONDecoder().decode(AlertState<ItemList.Action.Alert>.self, from: Data(json.utf8))
        == alert)

    let dialog = ConfirmationDialogState<ItemList.Action.Dialog>.share
    let dialogJSON = try encoder.encode(dialog)
    #expect(
      try JSONDecoder().decode(
        ConfirmationDialogState<ItemList.Action.Dialog>.self, from: dialogJSON)
        == dialog)
    #expect(String(decoding: dialogJSON, as: UTF8.self).contains(#""titleVisibility":"visible""#))

    let styled = TextState("Unsaved").bold() + TextState(" changes")
    let styledJSON = String(decoding: try encoder.encode(styled), as: UTF8.self)
    #expect(styledJSON == #"[{"styles":["bold"],"text":"Unsaved"},{"text":" changes"}]"#)
    #expect(try JSONDecoder().decode(TextState.self, from: Data(styledJSON.utf8)) == styled)
  }
}
