import Wire

/// Who answered a connection: the host's `welcome` (PROTOCOL.md §2).
public struct HostInfo: Sendable, Hashable {
  /// The protocol version the host speaks.
  public var protocolVersion: Int64
  /// The host's name and version, e.g. `storehost/1.0`.
  public var host: String
  /// The name of the hosted app, e.g. `shop`.
  public var app: String
  /// The session the host assigned to this connection.
  public var session: String
  /// The optional parts of the protocol the host implements (`"history"`, `"durable"`).
  public var features: [String]

  /// Describes a host.
  ///
  /// - Parameters:
  ///   - protocolVersion: The protocol version.
  ///   - host: The host's name and version.
  ///   - app: The hosted app's name.
  ///   - session: The session id.
  ///   - features: The optional protocol features the host lists in `welcome`.
  public init(
    protocolVersion: Int64, host: String, app: String, session: String, features: [String] = []
  ) {
    self.protocolVersion = protocolVersion
    self.host = host
    self.app = app
    self.session = session
    self.features = features
  }
}

/// A scope's state at a root revision, as the host sent it.
public struct Snapshot: Sendable, Hashable {
  /// The root revision the state is at.
  public var revision: Revision
  /// The scope's state.
  public var state: JSON

  /// Creates a snapshot.
  ///
  /// - Parameters:
  ///   - revision: The root revision.
  ///   - state: The state.
  public init(revision: Revision, state: JSON) {
    self.revision = revision
    self.state = state
  }
}

/// A root revision of the host: an integer that grows by one for every action it reduces.
public typealias Revision = Int64
