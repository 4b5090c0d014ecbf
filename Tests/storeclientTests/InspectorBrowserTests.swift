import Foundation
import Testing

/// Whether a headless Chromium can run here: asked once, by loading a blank page.
enum Chromium {
  static let problem: String? = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      ProcessInfo.processInfo.environment["CHROMIUM"] ?? "chromium", "--headless", "--no-sandbox",
      "--disable-gpu", "--dump-dom", "about:blank",
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return "chromium cannot be started: \(error)"
    }
    let deadline = Date().addingTimeInterval(120)
    while process.isRunning && Date() < deadline { usleep(50_000) }
    if process.isRunning {
      process.terminate()
      return "chromium did not finish loading a blank page within 2 minutes"
    }
    return process.terminationStatus == 0
      ? nil : "chromium exited with \(process.terminationStatus)"
  }()

  /// CI must run the browser test: there a missing Chromium is a failure, not a skip.
  static var mustRun: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }
}

/// The inspector's page in a real browser (headless Chromium, driven over the DevTools
/// protocol by clients/chromium/drive_inspector.py): it shows the counter's state, an
/// increment sent from its dispatch box is acknowledged, flashes in the state and appears in
/// the action log with the change it made, an action the counter does not take shows the
/// host's error, time travel shows the past state, the scope list names the ids of
/// `todos/{id}` and follows the list, the `_host` charts show live figures, and a browser
/// without the token is refused.
@Suite(
  .serialized, .timeLimit(.minutes(5)),
  .enabled(if: Binaries.available, "storehost and storeclient must be built next to the tests"),
  .enabled(
    if: Chromium.mustRun || Chromium.problem == nil,
    "Skipped: \(Chromium.problem ?? "") — install Debian's chromium to run the browser test (CI always runs it)"
  ))
struct InspectorBrowserTests {
  static let driver = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("clients/chromium/drive_inspector.py").path

  @Test func thePageShowsTheStateTheLogDispatchesActionsAndFollowsAHostRestart() async throws {
    let socket = makeTemporaryDirectory() + "/host.sock"
    var host = try await HostProcess(socketPath: socket)
    let inspector = try await InspectorProcess(socketPath: socket)
    let driver = Process()
    driver.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    driver.arguments = ["python3", Self.driver, "check", "--host-restart", inspector.url]
    let output = CapturedOutput()
    let errors = CapturedOutput()
    driver.standardOutput = output.handle
    driver.standardError = errors.handle
    try driver.run()
    do {
      try await waitUntil("the page is ready for the host to restart", timeout: 240) {
        output.text.contains("waiting for the host to restart") || !driver.isRunning
      }
      if driver.isRunning {
        try await host.terminate()
        host = try await HostProcess(socketPath: socket)
      }
      try await waitUntil("the browser check finishes", timeout: 240) { !driver.isRunning }
    } catch {
      driver.terminate()
      try? await inspector.stop()
      try? await host.terminate()
      throw error
    }
    try await Task.sleep(for: .milliseconds(100))
    let report = output.text + errors.text
    print(report)
    #expect(driver.terminationStatus == 0, "\(report)")
    #expect(output.text.contains("ok: after the host restarted the page reconnected by itself"))
    #expect(output.text.contains("ok: a browser without the token is refused"))
    try await inspector.stop()
    try await host.terminate()
  }
}
