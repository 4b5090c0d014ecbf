import ArgumentParsing
import Remote

/// `storeclient ping`: the round-trip time to the host.
struct PingCommand: ClientCommand {
  static var spec: CommandSpec {
    CommandSpec(
      name: "storeclient ping",
      abstract: "Measure the round-trip time to the host.",
      options: CommonOptions.endpoint + [
        .option("count", short: "c", value: "n", help: "Pings to send, one after another.", default: "1"),
      ])
  }

  var endpoint: HostEndpoint
  var count: Int

  init(_ arguments: ParsedArguments, endpoint: HostEndpoint) throws(UsageError) {
    self.endpoint = endpoint
    self.count = try arguments.integer("count", in: 1...1_000_000) ?? 1
  }

  func run(console: Console) async throws(CommandFailure) {
    let count = self.count
    let (host, times) = try await withClient(self.endpoint) { client throws(RemoteError) in
      var times: [Duration] = []
      for _ in 0..<count {
        let time = try await client.ping()
        times.append(time)
      }
      return (await client.host, times)
    }
    for time in times {
      console.print("pong from \(host.host) (app \(host.app)) in \(Durations.describe(time))")
    }
    if times.count > 1, let fastest = times.min(), let slowest = times.max() {
      let mean = times.reduce(.zero, +) / times.count
      console.print(
        "\(times.count) pings: min \(Durations.describe(fastest)), avg \(Durations.describe(mean)), max \(Durations.describe(slowest))")
    }
  }
}
