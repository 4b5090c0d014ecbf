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
case .serve(let app, let configuration, let persistence):
  // SIGTERM/SIGINT are caught from the start, so one that arrives while the host is still
  // starting is not fatal: it is answered by a clean shutdown as soon as the host is up.
  let (terminations, requestTermination) = AsyncStream<Void>.makeStream()
  let signals = Signals.onTermination { requestTermination.yield() }
  let host: StoreHost<AppFeature.State, AppFeature.Action>
  do {
    host = try await ExampleApp.start(app, configuration: configuration, persistence: persistence)
  } catch {
    Terminal.writeError("storehost: \(error.message)\n")
    exit(ExitCode.failure.rawValue)
  }
  for await _ in terminations {
    // Say bye to every client, remove the socket file, exit 0.
    await host.shutdown(reason: "shutdown")
    break
  }
  withExtendedLifetime(signals) {}
}
exit(ExitCode.success.rawValue)
