// Publish-with-ack latency and pipelined throughput of the NATS client against a real 3-node
// JetStream cluster on loopback (bench/nats-client.sh builds it in release mode and runs it).
//
//   NATSBenchmarks [--runs N] [--messages N] [--size BYTES]
//
// Streams R1 and R3; the client connects to the stream's leader (as the issue's raw-socket
// figures were taken). Each figure is the median of the runs. Publishes are driven from the
// event loop through the loop-confined API (what a host's commit point will do: no hop), and,
// for comparison, awaited one by one through the async NATSClient API (one hop per publish).

import Foundation
import NATS
import NATSTestSupport
import Wire

struct Options {
  var runs = 3
  var messages = 5000
  var size = 200
  var pipelinedMessages = 40_000

  init(_ arguments: [String]) {
    var iterator = arguments.dropFirst().makeIterator()
    while let argument = iterator.next() {
      let value = iterator.next().flatMap(Int.init)
      switch (argument, value) {
      case ("--runs", let value?): self.runs = value
      case ("--messages", let value?): self.messages = value
      case ("--size", let value?): self.size = value
      case ("--pipelined-messages", let value?): self.pipelinedMessages = value
      default:
        FileHandle.standardError.write(Data("usage: NATSBenchmarks [--runs N] [--messages N] [--pipelined-messages N] [--size BYTES]\n".utf8))
        exit(2)
      }
    }
  }
}

/// How the publishes of one measurement are made.
enum Headers: String, CaseIterable {
  /// No header.
  case none = "plain"
  /// `Nats-Msg-Id` on each.
  case messageID = "msg-id"
  /// `Nats-Msg-Id` and `Nats-Expected-Last-Msg-Id` (the fencing chain a replicating primary needs).
  case chain = "msg-id chain"
  /// `Nats-Expected-Last-Sequence` on each.
  case expectedSequence = "expected seq"
}

/// One measurement's outcome.
struct Outcome {
  var latencies: [Duration]
  var elapsed: Duration
  var count: Int
  var rate: Double { Double(self.count) / (Double(self.elapsed.components.seconds) + Double(self.elapsed.components.attoseconds) / 1e18) }

  func percentile(_ p: Double) -> Duration {
    let sorted = self.latencies.sorted()
    guard !sorted.isEmpty else { return .zero }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
  }
}

/// Publishes `count` messages with at most `window` in flight, from the loop, and reports each
/// one's latency (publish to ack).
final class Driver {
  let jetStream: JetStream
  let subject: String
  let payload: [UInt8]
  let count: Int
  let window: Int
  let headers: Headers
  let base: UInt64
  let run: String
  let done: (Result<Outcome, NATSError>) -> Void
  var sent = 0
  var acked = 0
  var started = ContinuousClock.now
  var latencies: [Duration] = []
  var failed = false

  init(
    connection: NATSConnection, subject: String, size: Int, count: Int, window: Int,
    headers: Headers, base: UInt64, run: String, done: @escaping (Result<Outcome, NATSError>) -> Void
  ) {
    self.jetStream = JetStream(connection: connection, timeout: .seconds(30))
    self.subject = subject
    self.payload = [UInt8](repeating: 0x61, count: size)
    self.count = count
    self.window = window
    self.headers = headers
    self.base = base
    self.run = run
    self.done = done
    self.latencies.reserveCapacity(count)
  }

  func start() {
    self.started = .now
    while self.sent < min(self.window, self.count) { self.sendNext() }
  }

  private func sendNext() {
    let index = self.sent
    self.sent += 1
    var options = JetStreamPublishOptions()
    switch self.headers {
    case .none: break
    case .messageID: options.messageID = "\(self.run)-\(index)"
    case .chain:
      options.messageID = "\(self.run)-\(index)"
      if index > 0 { options.expectedLastMessageID = "\(self.run)-\(index - 1)" } else { options.expectedLastSequence = self.base }
    case .expectedSequence: options.expectedLastSequence = self.base + UInt64(index)
    }
    let sentAt = ContinuousClock.now
    do {
      try self.jetStream.publish(self.payload, to: self.subject, options: options) { result in
        guard !self.failed else { return }
        switch result {
        case .success:
          self.latencies.append(sentAt.duration(to: .now))
          self.acked += 1
          if self.acked == self.count {
            self.done(.success(Outcome(latencies: self.latencies, elapsed: self.started.duration(to: .now), count: self.count)))
          } else if self.sent < self.count {
            self.sendNext()
          }
        case .failure(let error):
          self.failed = true
          self.done(.failure(error))
        }
      }
    } catch {
      self.failed = true
      self.done(.failure(error))
    }
  }
}

func measure(
  _ client: NATSClient, subject: String, stream: String, size: Int, count: Int, window: Int,
  headers: Headers
) async throws -> Outcome {
  let base = try await client.jetStream.streamInfo(stream).state.lastSequence
  let run = UUID().uuidString.prefix(8)
  let result: Result<Outcome, NATSError> = await withCheckedContinuation { continuation in
    Task {
      await client.withConnection { connection in
        Driver(
          connection: connection, subject: subject, size: size, count: count, window: window,
          headers: headers, base: base, run: String(run), done: { continuation.resume(returning: $0) }
        ).start()
      }
    }
  }
  return try result.get()
}

/// One publish at a time through the async API: each awaits its ack (two hops per publish).
func measureAsync(_ client: NATSClient, subject: String, size: Int, count: Int) async throws -> Outcome {
  let payload = [UInt8](repeating: 0x61, count: size)
  var latencies: [Duration] = []
  let started = ContinuousClock.now
  for _ in 0..<count {
    let sentAt = ContinuousClock.now
    _ = try await client.jetStream.publish(payload, to: subject)
    latencies.append(sentAt.duration(to: .now))
  }
  return Outcome(latencies: latencies, elapsed: started.duration(to: .now), count: count)
}

/// This process's CPU time so far (user and system), in microseconds.
func processCPU() -> Double {
  var usage = rusage()
  #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
  #else
    getrusage(RUSAGE_SELF, &usage)
  #endif
  return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6
    + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
}

func microseconds(_ duration: Duration) -> String {
  let (seconds, attoseconds) = duration.components
  return String(format: "%.0f", Double(seconds) * 1e6 + Double(attoseconds) / 1e12)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

let options = Options(CommandLine.arguments)
print("NATS client benchmark: nats-server \(NATSServerBinary.path ?? "missing"), 3-node cluster on 127.0.0.1, \(options.size)-byte messages, median of \(options.runs) runs")
let cluster = try await NATSCluster.start()
do {
  let admin = try await cluster.connect()
  for (name, replicas) in [("BENCH1", 1), ("BENCH3", 3)] {
    var configuration = JetStreamStreamConfiguration(name: name, subjects: ["\(name.lowercased()).>"])
    configuration.replicas = replicas
    configuration.maxMessages = 1_000_000
    _ = try await admin.jetStream.createStream(configuration)
  }
  print("")
  print("stream  mode                               p50 µs  p99 µs     msgs/s  client CPU µs/msg")
  for (stream, replicas) in [("BENCH1", 1), ("BENCH3", 3)] {
    let leader = try await cluster.waitForStreamLeader(stream, client: admin)
    let client = try await NATSClient.connect(try NATSConfiguration(urls: cluster.node(named: leader)!.url))
    let subject = "\(stream.lowercased()).records"
    _ = try await measure(client, subject: subject, stream: stream, size: options.size, count: 500, window: 1, headers: .none)  // warm-up
    let port = cluster.node(named: leader)!.clientPort
    let raw = try RawPublisher(port: port)
    var cases: [(String, () async throws -> Outcome)] = [
      ("1 in flight, raw socket (floor)", { try raw.publish(subject: subject, size: options.size, count: options.messages, window: 1) }),
      ("1 in flight, loop API", { try await measure(client, subject: subject, stream: stream, size: options.size, count: options.messages, window: 1, headers: .none) }),
      ("1 in flight, async API", { try await measureAsync(client, subject: subject, size: options.size, count: options.messages) }),
    ]
    cases.append(("64 in flight, raw socket (floor)", { try raw.publish(subject: subject, size: options.size, count: options.pipelinedMessages, window: 64) }))
    for headers in Headers.allCases {
      cases.append(("64 in flight, \(headers.rawValue)", { try await measure(client, subject: subject, stream: stream, size: options.size, count: options.pipelinedMessages, window: 64, headers: headers) }))
    }
    cases.append(("256 in flight, plain", { try await measure(client, subject: subject, stream: stream, size: options.size, count: options.pipelinedMessages, window: 256, headers: .none) }))
    // Runs alternate between the cases, so that a change of the machine's load spreads over
    // all of them.
    var p50: [String: [Double]] = [:]
    var p99: [String: [Double]] = [:]
    var rates: [String: [Double]] = [:]
    var cpu: [String: [Double]] = [:]
    for _ in 0..<options.runs {
      for (label, body) in cases {
        let cpuBefore = processCPU()
        let outcome = try await body()
        // This process's CPU time per message: the client's cost alone (the servers are
        // other processes).
        cpu[label, default: []].append((processCPU() - cpuBefore) / Double(outcome.count))
        p50[label, default: []].append(Double(microseconds(outcome.percentile(0.5)))!)
        p99[label, default: []].append(Double(microseconds(outcome.percentile(0.99)))!)
        rates[label, default: []].append(outcome.rate)
      }
    }
    for (label, _) in cases {
      print(
        "R\(replicas)      \(label.padding(toLength: 33, withPad: " ", startingAt: 0))\(String(format: "%7.0f %7.0f %10.0f %18.1f", median(p50[label]!), median(p99[label]!), median(rates[label]!), median(cpu[label]!)))")
    }
    let floorLatency = median(p50["1 in flight, raw socket (floor)"]!)
    let floorRate = median(rates["64 in flight, raw socket (floor)"]!)
    print(
      "R\(replicas)      client / floor: p50 one in flight \(String(format: "%.2f", median(p50["1 in flight, loop API"]!) / floorLatency))×, 64 in flight throughput \(String(format: "%.2f", median(rates["64 in flight, plain"]!) / floorRate))×")
    await client.close()
  }
  await admin.close()
} catch {
  print("benchmark failed: \(error)")
  await cluster.stop()
  exit(1)
}
await cluster.stop()
