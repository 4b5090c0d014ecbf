import Foundation
import NATS
import NATSTestSupport
import Testing
import Wire

/// The ordered consumer's own checks, against a fake JetStream server that delivers exactly
/// what the test says: a gap in the consumer sequence, a heartbeat that contradicts the
/// deliveries, flow-control requests. (The real cluster's faults are in ClusterTests.)
@Suite(.serialized, .timeLimit(.minutes(5)))
struct OrderedConsumerTests {
  /// What the fake delivers for each consumer the client creates: `(stream seq, consumer seq)`
  /// pairs, or a heartbeat claiming a last consumer sequence, or a flow-control request.
  enum Delivery: Sendable {
    case message(stream: UInt64, consumer: UInt64)
    case heartbeat(lastConsumer: UInt64, lastStream: UInt64)
    case flowControl(reply: String)
  }

  /// Plays nats-server with one stream `S`: answers consumer creations (echoing the
  /// configuration), records them and deletions, and delivers the script's messages for the
  /// n-th consumer created.
  final class FakeJetStream: Sendable {
    let server: FakeNATSServer

    init(deliveries: [[Delivery]]) throws {
      self.server = try FakeNATSServer { peer, server in
        peer.sendInfo()
        guard peer.completeHandshake() else { return }
        var subscriptions: [String: String] = [:]  // subject → sid
        var created = 0
        while let line = peer.readLine(timeout: 60).line {
          let words = line.split(separator: " ").map(String.init)
          switch words.first {
          case "PING":
            peer.send("PONG\r\n")
          case "SUB":
            subscriptions[words[1]] = words[2]
          case "PUB":
            let payload = peer.readLine().line ?? ""
            server.record("PUB \(words[1]) \(payload)")
            guard words.count == 4 else { continue }
            let reply = words[2]
            guard let inbox = subscriptions.first(where: { reply.hasPrefix(String($0.key.dropLast())) })
            else { continue }
            func answer(_ json: String) {
              peer.send("MSG \(reply) \(inbox.value) \(json.utf8.count)\r\n\(json)\r\n")
            }
            if words[1].hasPrefix("$JS.API.CONSUMER.DELETE.") {
              answer("{\"success\":true}")
            } else if words[1] == "$JS.API.CONSUMER.CREATE.S" {
              let request = try! JSON(parsing: payload)
              guard case .object(let body) = request, case .object(let config)? = body["config"],
                case .string(let deliver)? = config["deliver_subject"]
              else { continue }
              created += 1
              let name = "C\(created)"
              answer(
                "{\"stream_name\":\"S\",\"name\":\"\(name)\",\"num_pending\":0,\"config\":\(JSON.object(config).compactString)}"
              )
              // The deliveries go out once the client has subscribed to the subject (it did,
              // before asking for the consumer).
              guard let sid = subscriptions[deliver], created <= deliveries.count else { continue }
              for delivery in deliveries[created - 1] {
                switch delivery {
                case .message(let stream, let consumer):
                  let body = "m\(stream)"
                  peer.send(
                    "MSG s.x \(sid) $JS.ACK.S.\(name).1.\(stream).\(consumer).1700000000000000000.0 \(body.utf8.count)\r\n\(body)\r\n"
                  )
                case .heartbeat(let lastConsumer, let lastStream):
                  let block =
                    "NATS/1.0 100 Idle Heartbeat\r\nNats-Last-Consumer: \(lastConsumer)\r\nNats-Last-Stream: \(lastStream)\r\n\r\n"
                  peer.send("HMSG \(deliver) \(sid) \(block.utf8.count) \(block.utf8.count)\r\n\(block)\r\n")
                case .flowControl(let reply):
                  let block = "NATS/1.0 100 FlowControl Request\r\n\r\n"
                  peer.send("HMSG \(deliver) \(sid) \(reply) \(block.utf8.count) \(block.utf8.count)\r\n\(block)\r\n")
                }
              }
            }
          default:
            continue
          }
        }
      }
    }

    /// The consumer creations and deletions, and the flow-control answers, in order.
    var requests: [String] { self.server.lines }
  }

  private func read(_ count: Int, from fake: FakeJetStream) async throws -> (sequences: [UInt64], resets: [String]) {
    var configuration = try NATSConfiguration(urls: fake.server.url)
    configuration.requestTimeout = .seconds(30)
    let client = try await NATSClient.connect(configuration)
    let resets = Collected<String>()
    let messages = await client.jetStream.orderedMessages(
      // Heartbeats so far apart that silence never recreates the consumer during a test: only
      // what the fake sends does.
      stream: "S", heartbeat: .seconds(600),
      onEvent: { if case .resetting(let reason) = $0 { resets.append(reason) } })
    var sequences: [UInt64] = []
    var iterator = messages.makeAsyncIterator()
    while sequences.count < count, let message = await iterator.next() {
      sequences.append(message.streamSequence)
    }
    await client.close()
    fake.server.stop()
    return (sequences, resets.values)
  }

  @Test func aGapInTheConsumerSequenceRecreatesTheConsumerFromTheNextStreamSequence() async throws {
    let fake = try FakeJetStream(deliveries: [
      [.message(stream: 1, consumer: 1), .message(stream: 2, consumer: 2), .message(stream: 4, consumer: 4)],
      [.message(stream: 3, consumer: 1), .message(stream: 4, consumer: 2)],
    ])
    let (sequences, resets) = try await self.read(4, from: fake)
    #expect(sequences == [1, 2, 3, 4])
    #expect(resets.count == 1)
    #expect(resets.first?.contains("gap") == true)
    let creations = fake.requests.filter { $0.contains("CONSUMER.CREATE") }
    #expect(creations.count == 2)
    #expect(creations.last?.contains("\"opt_start_seq\":3") == true)
    #expect(creations.last?.contains("\"deliver_policy\":\"by_start_sequence\"") == true)
    #expect(fake.requests.contains { $0.contains("CONSUMER.DELETE.S.C1") })
  }

  @Test func aHeartbeatThatContradictsTheDeliveriesRecreatesTheConsumer() async throws {
    let fake = try FakeJetStream(deliveries: [
      [.message(stream: 1, consumer: 1), .heartbeat(lastConsumer: 2, lastStream: 2)],
      [.message(stream: 2, consumer: 1), .message(stream: 3, consumer: 2)],
    ])
    let (sequences, resets) = try await self.read(3, from: fake)
    #expect(sequences == [1, 2, 3])
    #expect(resets.count == 1)
    #expect(resets.first?.contains("the heartbeat says the consumer delivered 2") == true)
    #expect(fake.requests.filter { $0.contains("CONSUMER.CREATE") }.last?.contains("\"opt_start_seq\":2") == true)
  }

  @Test func flowControlRequestsAreAnsweredAndAHeartbeatThatAgreesChangesNothing() async throws {
    let fake = try FakeJetStream(deliveries: [
      [
        .message(stream: 1, consumer: 1), .flowControl(reply: "fc.reply.1"),
        .message(stream: 2, consumer: 2), .heartbeat(lastConsumer: 2, lastStream: 2),
        .message(stream: 3, consumer: 3),
      ]
    ])
    let (sequences, resets) = try await self.read(3, from: fake)
    #expect(sequences == [1, 2, 3])
    #expect(resets.isEmpty)
    try await waitUntil("the flow-control request is answered") {
      fake.requests.contains("PUB fc.reply.1 ")
    }
  }
}
