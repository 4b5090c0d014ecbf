// storehost: serves the example app's root store over a Unix socket until SIGTERM, SIGINT or SIGHUP.
import ArgumentParsing
import Foundation
import Examples
import Hosting

let command = StorehostCommand.spec
let environment = ProcessInfo.processInfo.environment
let invocation: StorehostCommand.Invocation
do {
  invocation = try StorehostCommand.parse(Array(CommandLine.arguments.dropFirst()), environment: environment)
} catch {
  Terminal.writeError(command.errorText(error))
  exit(ExitCode.usage.rawValue)
}

switch invocation {
case .help:
  print(command.help)
case .version:
  print(StorehostCommand.versionLine)
case .serve(let app, var configuration, let persistence, let explicitSocket):
  // SIGTERM, SIGINT and SIGHUP are caught from the start, so one that arrives while the host is still
  // recovering is not fatal: it is answered by a clean shutdown as soon as the host is up.
  let signals = TerminationSignals()
  let host: StoreHost<AppFeature.State, AppFeature.Action>
  do {
    // Under systemd: its socket (socket activation), its notifications and watchdog.
    try configuration.adoptSystemd(from: environment, explicitSocket: explicitSocket)
    host = try await ExampleApp.start(app, configuration: configuration, persistence: persistence)
  } catch {
    Terminal.writeError("storehost: \(error.message)\n")
    exit(ExitCode.failure.rawValue)
  }
  // Bye to every client, a final snapshot, the socket file removed; then exit 0.
  await host.runUntilTerminated(signals)
}
exit(ExitCode.success.rawValue)
