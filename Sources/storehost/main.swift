// storehost: serves the example app's root store over a Unix socket until SIGTERM/SIGINT.
import ArgumentParsing
import Foundation
import Examples
import Hosting

let command = StorehostCommand.spec
let invocation: StorehostCommand.Invocation
do {
  invocation = try StorehostCommand.parse(
    Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch {
  Terminal.writeError(command.errorText(error))
  exit(ExitCode.usage.rawValue)
}

switch invocation {
case .help:
  print(command.help)
case .version:
  print("storehost 1.0")
case .serve(let app, let configuration):
  let host: StoreHost<AppFeature.State, AppFeature.Action>
  do {
    host = try await ExampleApp.start(app, configuration: configuration)
  } catch {
    Terminal.writeError("storehost: \(error.message)\n")
    exit(ExitCode.failure.rawValue)
  }
  // SIGTERM/SIGINT: say bye to every client, remove the socket file, exit 0.
  let signals = Signals.onTermination {
    Task {
      await host.shutdown(reason: "shutdown")
    }
  }
  await host.waitUntilStopped()
  withExtendedLifetime(signals) {}
}
exit(ExitCode.success.rawValue)
