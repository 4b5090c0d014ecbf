import Foundation
import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The whole run: keeps `connections` adversarial clients busy against one host for a while,
/// replacing each as it ends, and watches that the host stays alive.
struct FuzzRun {
  let options: FuzzOptions
  private var random: SplitMix64
  private var generator = RequestGenerator()
  private var clients: [FuzzClient?]
  private(set) var connectionsMade = 0
  private(set) var requestsSent = 0
  private(set) var framesReceived = 0
  /// The last requests of connections that ended recently, newest last (for a report).
  private var endedRecently: [[String]] = []

  init(options: FuzzOptions) {
    self.options = options
    self.random = SplitMix64(seed: options.seed)
    self.clients = Array(repeating: nil, count: options.connections)
  }

  /// Runs until `options.seconds` have passed.
  ///
  /// - Throws: ``FuzzFailure`` when the host stops answering connections.
  mutating func run(host: HostWatch) throws(FuzzFailure) {
    let start = ContinuousClock.now
    let duration = Duration.seconds(self.options.seconds)
    var lastLiveCheck = start
    var lastProgress = (frames: 0, at: start)
    var pollSet: [pollfd] = []
    var owners: [Int] = []
    while ContinuousClock.now - start < duration {
      for index in self.clients.indices where self.clients[index] == nil {
        guard let fd = RawSocket.connect(path: self.options.socketPath) else {
          if errno == EAGAIN { continue }  // the backlog is full: try again next turn
          throw FuzzFailure.hostGone("cannot connect to \(self.options.socketPath): \(String(cString: strerror(errno)))", recent: self.endedRecently)
        }
        self.clients[index] = FuzzClient(fd: fd, random: &self.random)
        self.connectionsMade += 1
      }
      pollSet.removeAll(keepingCapacity: true)
      owners.removeAll(keepingCapacity: true)
      for (index, client) in self.clients.enumerated() {
        guard let client else { continue }
        var events: Int16 = 0
        if client.wantsRead { events |= Int16(POLLIN) }
        if client.wantsWrite { events |= Int16(POLLOUT) }
        pollSet.append(pollfd(fd: client.fd, events: events, revents: 0))
        owners.append(index)
      }
      _ = poll(&pollSet, nfds_t(pollSet.count), 2)
      for (slot, index) in owners.enumerated() {
        guard let client = self.clients[index] else { continue }
        let revents = pollSet[slot].revents
        let readable = client.wantsRead && revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
        let writable = revents & Int16(POLLOUT) != 0
        self.requestsSent += client.turn(
          readable: readable, writable: writable, generator: &self.generator, &self.random)
        if client.isFinished {
          self.framesReceived += client.framesReceived
          self.endedRecently.append(client.recent)
          if self.endedRecently.count > 8 { self.endedRecently.removeFirst() }
          self.clients[index] = nil
        }
      }
      if ContinuousClock.now - lastLiveCheck > .milliseconds(250) {
        lastLiveCheck = ContinuousClock.now
        if let death = host.deathNotice() {
          throw FuzzFailure.hostGone(death, recent: self.endedRecently + self.clients.compactMap { $0?.recent })
        }
        // The host must keep answering someone: a minute without a single frame to any of
        // the connections is a stall (a loaded machine is slow, not that slow).
        let frames = self.framesReceived + self.clients.reduce(0) { $0 + ($1?.framesReceived ?? 0) }
        if frames != lastProgress.frames {
          lastProgress = (frames, ContinuousClock.now)
        } else if ContinuousClock.now - lastProgress.at > .seconds(60) {
          throw FuzzFailure.hostGone(
            "it sent nothing to any connection for 60 s", recent: self.clients.compactMap { $0?.recent })
        }
      }
    }
    for client in self.clients { client?.finish() }
    self.clients = Array(repeating: nil, count: self.options.connections)
  }
}

/// What the fuzzer found.
enum FuzzFailure: Error, CustomStringConvertible {
  /// The host died or stopped accepting connections.
  case hostGone(String, recent: [[String]])
  /// The host is alive but does not answer as the protocol says.
  case unhealthy(String)
  /// The host's memory did not come back after the load.
  case memory(String)

  var description: String {
    switch self {
    case .hostGone(let what, let recent):
      var text = "the host is gone: \(what)\nthe last requests of the connections open or recently closed:"
      for (index, requests) in recent.enumerated() {
        text += "\n  connection \(index + 1):"
        for request in requests { text += "\n    \(request)" }
      }
      return text
    case .unhealthy(let what): return "the host does not answer properly: \(what)"
    case .memory(let what): return what
    }
  }
}
