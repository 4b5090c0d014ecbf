import Foundation
import NATS
import Wire

/// Real `nats-server` processes on loopback for tests and benchmarks: one server, or a
/// JetStream cluster of three with routes between them — each node with its own temporary
/// store directory and free ports, stopped by process id.
///
/// ```swift
/// let cluster = try await NATSCluster.start()          // 3 nodes, JetStream, ready
/// defer { Task { await cluster.stop() } }
/// let client = try await NATSClient.connect(to: cluster.urls)
/// let leader = try await cluster.waitForStreamLeader("ORDERS", client: client)
/// try await cluster.node(named: leader)!.kill()        // kill -9 of the stream's leader
/// ```
///
/// Every wait is for a condition (a log line, an answer of the JetStream API), with a bound
/// generous enough for a loaded machine — never a fixed sleep.
public final class NATSCluster: Sendable {
  /// The nodes, `n1`, `n2`…
  public let nodes: [NATSServerProcess]
  /// The directory holding every node's files.
  public let directory: String
  /// The event loop of the clients ``connect(urls:loop:_:)`` makes: the cluster's own, so that
  /// other tests' use of `EventLoop.shared` never delays these clients. Shut down by ``stop()``.
  public let loop: EventLoop

  /// The nodes' client URLs, comma-separated (what `--replicate` takes).
  public var urls: String { self.nodes.map(\.url).joined(separator: ",") }

  private init(nodes: [NATSServerProcess], directory: String) {
    self.nodes = nodes
    self.directory = directory
    self.loop = EventLoop(name: "nats-test")
  }

  /// The node with this server name.
  public func node(named name: String) -> NATSServerProcess? {
    self.nodes.first { $0.name == name }
  }

  /// Starts a JetStream cluster (or one server when `size` is 1) and waits until JetStream
  /// answers — it has a meta leader.
  ///
  /// - Parameters:
  ///   - size: How many nodes (1: a lone server, no cluster).
  ///   - jetStream: Whether JetStream is enabled.
  ///   - configuration: More lines for every node's configuration (`max_payload: 1024`…).
  /// - Returns: The running cluster.
  /// - Throws: ``HarnessError`` when the servers cannot start (after three tries with new
  ///   ports, in case another process took one).
  public static func start(
    size: Int = 3, jetStream: Bool = true, configuration: String = ""
  ) async throws -> NATSCluster {
    var lastProblem = ""
    for _ in 0..<3 {
      let directory = makeTemporaryDirectory("nats-cluster")
      let ports = try freeLoopbackPorts(size * 2)
      let clientPorts = Array(ports[0..<size])
      let routePorts = Array(ports[size...])
      var nodes: [NATSServerProcess] = []
      for index in 0..<size {
        let name = "n\(index + 1)"
        var text = configuration
        if jetStream {
          text += """

            jetstream {
              store_dir: "\(directory)/\(name)/store"
              max_memory_store: 268435456
              max_file_store: 1073741824
            }
            """
        }
        if size > 1 {
          let routes = routePorts.enumerated().filter { $0.offset != index }
            .map { "nats-route://127.0.0.1:\($0.element)" }.joined(separator: ", ")
          text += """

            cluster {
              name: "test-cluster"
              listen: 127.0.0.1:\(routePorts[index])
              routes: [\(routes)]
            }
            """
        }
        nodes.append(
          try NATSServerProcess(
            name: name, clientPort: clientPorts[index], directory: "\(directory)/\(name)",
            configuration: text))
      }
      let cluster = NATSCluster(nodes: nodes, directory: directory)
      for node in nodes { try node.start() }
      var allReady = true
      for node in nodes where !(try await node.waitUntilReady()) { allReady = false }
      if allReady {
        if jetStream { try await cluster.waitForJetStream() }
        return cluster
      }
      lastProblem = nodes.map { "\($0.name): \($0.log.suffix(600))" }.joined(separator: "\n")
      await cluster.stop()
      guard lastProblem.contains("address already in use") else { break }
    }
    throw HarnessError("nats-server did not start:\n\(lastProblem)")
  }

  /// Connects a client to the cluster with settings for tests: quick pings, quick reconnects,
  /// never giving up on a server.
  ///
  /// - Parameters:
  ///   - urls: The servers (all the cluster's unless given).
  ///   - loop: The loop to drive it (the cluster's ``loop`` unless given).
  ///   - adjust: Changes to the configuration.
  public func connect(
    urls: String? = nil, loop: EventLoop? = nil, _ adjust: (inout NATSConfiguration) -> Void = { _ in }
  ) async throws -> NATSClient {
    var configuration = try NATSConfiguration(urls: urls ?? self.urls)
    configuration.reconnectWait = .milliseconds(100)
    configuration.pingInterval = .seconds(2)
    // Generous: a loaded machine may hold a reply for seconds, and no test waits for a timeout.
    configuration.requestTimeout = .seconds(30)
    adjust(&configuration)
    return try await NATSClient.connect(configuration, loop: loop ?? self.loop)
  }

  /// Waits until JetStream answers `$JS.API.INFO` without error: the cluster has elected its
  /// meta leader and takes stream operations.
  public func waitForJetStream() async throws {
    let client = try await self.connect()
    var lastError = ""
    do {
      try await waitUntil("JetStream is available", timeout: 120) {
        do {
          _ = try await client.jetStream.call("INFO", request: nil)
          return true
        } catch {
          lastError = "\(error)"
          return false
        }
      }
    } catch {
      await client.close()
      throw HarnessError("JetStream did not become available: \(lastError)")
    }
    await client.close()
  }

  /// Waits until `stream` has a leader (other than `excluding`) with every running replica
  /// current, and returns the leader's server name.
  ///
  /// - Parameters:
  ///   - stream: The stream.
  ///   - client: A client connected to the cluster.
  ///   - excluding: A server that must not be the leader (the one just killed).
  public func waitForStreamLeader(
    _ stream: String, client: NATSClient, excluding: String? = nil, timeout: Double = 120
  ) async throws -> String {
    var leader: String?
    var last = ""
    do {
    try await waitUntil("stream \(stream) has a leader", timeout: timeout) {
      do {
        let info = try await client.jetStream.streamInfo(stream)
        guard let cluster = info.cluster else {
          leader = self.nodes.first?.name
          return true
        }
        last = "leader \(cluster.leader ?? "none"), replicas \(cluster.replicas.map { "\($0.name) current=\($0.isCurrent)" })"
        guard let name = cluster.leader, name != excluding else { return false }
        let running = Set(self.nodes.filter(\.isRunning).map(\.name))
        guard cluster.replicas.filter({ running.contains($0.name) }).allSatisfy(\.isCurrent) else {
          return false
        }
        leader = name
        return true
      } catch {
        last = "\(error)"
        return false
      }
    }
    } catch {
      throw HarnessError("stream \(stream) has no leader with current replicas: \(last)")
    }
    return leader!
  }

  /// Kills every node (SIGKILL, by process id), removes the directory and shuts the clients'
  /// loop down (closing what is still connected on it).
  public func stop() async {
    for node in self.nodes { try? await node.kill(SIGKILL) }
    try? FileManager.default.removeItem(atPath: self.directory)
    let loop = self.loop
    // The join waits for the loop's thread to exit: done on a thread of its own, not on the
    // cooperative pool.
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      Thread.detachNewThread {
        loop.shutdownGracefully()
        done.resume()
      }
    }
  }
}
