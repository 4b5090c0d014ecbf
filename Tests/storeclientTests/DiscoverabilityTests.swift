import Foundation
import Testing
import Wire

/// What a newcomer meets first, with the real `storeclient` against the real `storehost`:
/// the actions a scope takes, and messages that say what to write instead.
@Suite(
  .serialized, .timeLimit(.minutes(5)),
  .enabled(
    if: Binaries.available,
    "storehost and storeclient must be built next to the tests (run `swift build` first)"))
struct DiscoverabilityTests {
  private func withHost(_ body: (HostProcess) async throws -> Void) async throws {
    let host = try await HostProcess(socketPath: makeTemporaryDirectory() + "/host.sock")
    do {
      try await body(host)
    } catch {
      try? await host.terminate()
      throw error
    }
    try await host.terminate()
  }

  private static func elements(_ json: JSON) -> [JSON]? {
    if case .array(let elements) = json { elements } else { nil }
  }

  private static func text(_ json: JSON) -> String? {
    if case .string(let text) = json { text } else { nil }
  }

  @Test func actionsListsEachCaseWithTheJSONItTakes() async throws {
    try await self.withHost { host in
      let text = try await storeclient(["actions", "counter", "--socket", host.socketPath])
      #expect(text.status == 0, "\(text.errors)")
      #expect(text.outputLines.first?.hasPrefix("ACTION") == true)
      #expect(text.output.contains(#"incrementButtonTapped    {"incrementButtonTapped":{}}"#), "\(text.output)")
      #expect(text.output.contains(#"{"factResponse":"<String>"}"#), "\(text.output)")

      let json = try await storeclient(["actions", "todos/{id}", "--json", "--socket", host.socketPath])
      #expect(json.status == 0, "\(json.errors)")
      let listing = try JSON(parsing: json.output)
      let names = listing["actions"].flatMap(Self.elements)?.compactMap { $0["name"].flatMap(Self.text) }
      #expect(names == ["setDescription", "toggleCompleted"], "\(json.output)")

      // Every template it prints is an action the host takes, as printed.
      let scopes = try await storeclient(["scopes", "--json", "--socket", host.socketPath])
      #expect(scopes.output.contains(#""actions":"#), "scopes --json carries the shapes: \(scopes.output)")
      let counterForms = try JSON(parsing: try await storeclient(
        ["actions", "counter", "--json", "--socket", host.socketPath]).output)["actions"].flatMap(Self.elements) ?? []
      for form in counterForms {
        guard let template = form["template"].flatMap(Self.text), !template.contains("<") else { continue }
        let sent = try await storeclient(["send", "counter", template, "--socket", host.socketPath])
        #expect(sent.status == 0, "\(template): \(sent.errors)")
      }
    }
  }

  @Test func aWrongActionNamesTheValidCasesNearestFirst() async throws {
    try await self.withHost { host in
      let wrong = try await storeclient(["send", "counter", #"{"increment":{}}"#, "--socket", host.socketPath])
      #expect(wrong.status != 0)
      #expect(wrong.errors.contains("unknown case 'increment'"), "\(wrong.errors)")
      #expect(wrong.errors.contains("did you mean 'incrementButtonTapped'?"), "\(wrong.errors)")
      #expect(wrong.errors.contains("'decrementButtonTapped'"), "lists the other cases: \(wrong.errors)")
      #expect(wrong.errors.contains("'storeclient actions counter'"), "\(wrong.errors)")
      // A case written as a bare string is shown in its object form.
      let bare = try await storeclient(["send", "counter", #""incrementButtonTapped""#, "--socket", host.socketPath])
      #expect(bare.errors.contains(#"{"incrementButtonTapped":{}}"#), "\(bare.errors)")
    }
  }

  @Test func aSingleUnlabeledPayloadMayBeWrittenWithoutItsWrapper() async throws {
    try await self.withHost { host in
      for action in [#"{"factResponse":"plain"}"#, #"{"factResponse":{"_0":"wrapped"}}"#] {
        let sent = try await storeclient(["send", "counter", action, "--socket", host.socketPath])
        #expect(sent.status == 0, "\(action): \(sent.errors)")
      }
      let state = try JSON(parsing: try await storeclient(["get", "counter", "--socket", host.socketPath]).output)
      #expect(state["fact"] == .string("wrapped"))
      let wrongType = try await storeclient(["send", "counter", #"{"factResponse":2}"#, "--socket", host.socketPath])
      #expect(wrongType.status != 0)
      #expect(wrongType.errors.contains("action.factResponse"), "the path as written: \(wrongType.errors)")
    }
  }

  @Test func aScopeNameThatNamesNoElementSaysWhatToWrite() async throws {
    try await self.withHost { host in
      let pattern = try await storeclient(["get", "todos/{id}", "--socket", host.socketPath])
      #expect(pattern.status != 0)
      #expect(pattern.errors.contains("is a pattern, not a scope: put the id of one element in place of {id}"), "\(pattern.errors)")
      #expect(pattern.errors.contains("as in 'todos/"), "\(pattern.errors)")
      let missing = try await storeclient(
        ["get", "todos/00000000-0000-0000-0000-000000000000", "--socket", host.socketPath])
      #expect(missing.errors.contains("no element has the id '00000000-0000-0000-0000-000000000000'"), "\(missing.errors)")
    }
  }

  @Test func theFirstMistakesAreAnsweredInWords() async throws {
    let unknown = try await storeclient(["frob"])
    #expect(unknown.status == 64)
    #expect(unknown.errors.contains("Unknown command 'frob'"), "\(unknown.errors)")
    #expect(unknown.errors.contains("The commands: scopes, actions, get"), "\(unknown.errors)")
    let near = try await storeclient(["wath", "counter"])
    #expect(near.errors.contains("did you mean 'watch'?"), "\(near.errors)")

    let file = makeTemporaryDirectory() + "/not-a-socket"
    #expect(FileManager.default.createFile(atPath: file, contents: Data()))
    let regular = try await storeclient(["get", "counter", "--socket", file])
    #expect(regular.status != 0)
    #expect(regular.errors.contains("is a regular file, not a socket"), "\(regular.errors)")
    #expect(!regular.errors.contains("start one with"), "\(regular.errors)")

    let version = try await storeclient(["--version"])
    #expect(version.output == "storeclient \(PackageVersion.current)\n")
    // Both tools state their version alike.
    let host = Process()
    host.executableURL = URL(fileURLWithPath: try #require(Binaries.storehost))
    host.arguments = ["--version"]
    let output = Pipe()
    host.standardOutput = output
    try host.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    host.waitUntilExit()
    #expect(String(decoding: printed, as: UTF8.self) == "storehost \(PackageVersion.current)\n")

    // The usage line after an error is wrapped to the terminal's width.
    let process = try ClientProcess(
      ["bench", "--clients", "x", "--socket", file], environment: ["COLUMNS": "60", "PATH": "/usr/bin:/bin"])
    _ = try await process.wait()
    let lines = process.errors.text.split(separator: "\n")
    #expect(lines.count > 3, "\(process.errors.text)")
    #expect(lines.allSatisfy { $0.count <= 60 || $0.hasPrefix("Error:") }, "\(process.errors.text)")
  }
}
