import ArgumentParsing
import Wire

/// What `storeclient bench` runs, validated.
struct BenchOptions: Sendable, Equatable {
  /// How senders wait for the host.
  enum AckMode: String, Sendable, CaseIterable {
    /// Each action carries an id; the next is sent when its `ack` arrives (one in flight).
    case every
    /// Actions are pipelined without ids, in batches each followed by a `ping`; two batches
    /// are in flight, and a batch counts as acknowledged when its `pong` arrives.
    case end
  }

  /// How long the run lasts.
  enum Length: Sendable, Equatable {
    /// A fixed number of actions per client.
    case actions(Int)
    /// A fixed time, in seconds.
    case duration(Double)
  }

  /// The host, and how to reach it.
  var endpoint: HostEndpoint
  var clients = 1
  var length = Length.actions(10_000)
  var scope = "counter"
  var action: JSON = .object(["incrementButtonTapped": .object([:])])
  var watchers = 0
  var ack = AckMode.every
  var pipeline = 16
  /// Total actions per second across clients; `nil` for as fast as possible.
  var rate: Double?
  var json = false

  /// The default number of actions per client.
  static let defaultActions = 10_000

  init(endpoint: HostEndpoint) {
    self.endpoint = endpoint
  }

  /// Reads the options of `storeclient bench`.
  init(_ arguments: ParsedArguments, endpoint: HostEndpoint) throws(UsageError) {
    self.endpoint = endpoint
    self.clients = try arguments.integer("clients", in: 1...10_000) ?? 1
    let actions = try arguments.integer("actions", in: 1...1_000_000_000)
    let duration = try arguments.seconds("duration", in: 0.001...86_400)
    switch (actions, duration) {
    case (.some, .some): throw UsageError("Use either --actions or --duration, not both")
    case (let actions?, nil): self.length = .actions(actions)
    case (nil, let duration?): self.length = .duration(duration)
    case (nil, nil): self.length = .actions(Self.defaultActions)
    }
    if let scope = arguments.value("scope") {
      guard !scope.isEmpty else { throw UsageError("The value '' is invalid for '--scope <scope>'") }
      self.scope = scope
    }
    if let text = arguments.value("action") {
      self.action = try JSONArgument.parse(text, name: "--action <json>")
    }
    self.watchers = try arguments.integer("watchers", in: 0...10_000) ?? 0
    if let mode = try arguments.choice("ack", valueName: "mode", in: AckMode.allCases.map(\.rawValue)) {
      self.ack = AckMode(rawValue: mode) ?? .every
    }
    if let pipeline = try arguments.integer("pipeline", in: 1...65_536) {
      guard self.ack == .end else {
        throw UsageError("--pipeline applies only with --ack end")
      }
      self.pipeline = pipeline
    }
    self.rate = try arguments.number("rate", in: 1...100_000_000, expected: "actions per second")
    self.json = arguments.flag("json")
  }

  /// Whether the counter check applies: the `counter` scope's increment or decrement, whose
  /// count must move by exactly one per acknowledged action. Returns the step.
  var counterStep: Int64? {
    guard self.scope == "counter", case .object(let object) = self.action, object.count == 1,
      let (name, payload) = object.first(where: { _ in true }), payload == .object([:])
    else { return nil }
    switch name {
    case "incrementButtonTapped": return 1
    case "decrementButtonTapped": return -1
    default: return nil
    }
  }
}
