import Wire

/// What a server says about itself in `INFO`, on connecting and whenever the cluster changes.
public struct NATSServerInfo: Sendable, Equatable, Decodable {
  /// The server's unique id.
  public var serverID: String
  /// The server's name (`server_name` in its configuration).
  public var serverName: String?
  /// The server's version, e.g. `2.9.10`.
  public var version: String
  /// The largest message (headers and payload) the server accepts.
  public var maxPayload: Int
  /// Whether the server supports headers (`HPUB`/`HMSG`; 2.2 and later).
  public var supportsHeaders: Bool
  /// The protocol version.
  public var protocolVersion: Int?
  /// Whether the server requires credentials.
  public var requiresAuthentication: Bool
  /// Whether the server requires TLS.
  public var requiresTLS: Bool
  /// The client URLs of the other servers of the cluster (`host:port`).
  public var connectURLs: [String]
  /// Whether the server is in lame-duck mode (shutting down: clients should move).
  public var isLameDuck: Bool
  /// Whether JetStream is enabled on the server.
  public var hasJetStream: Bool
  /// The cluster's name, if the server is in one.
  public var cluster: String?
  /// The client's id on this server.
  public var clientID: UInt64?
  /// The client's address as the server sees it.
  public var clientIP: String?

  enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case serverName = "server_name"
    case version
    case maxPayload = "max_payload"
    case supportsHeaders = "headers"
    case protocolVersion = "proto"
    case requiresAuthentication = "auth_required"
    case requiresTLS = "tls_required"
    case connectURLs = "connect_urls"
    case isLameDuck = "ldm"
    case hasJetStream = "jetstream"
    case cluster
    case clientID = "client_id"
    case clientIP = "client_ip"
  }

  /// Decodes `INFO`'s JSON; absent fields take the protocol's defaults.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.serverID = try container.decodeIfPresent(String.self, forKey: .serverID) ?? ""
    self.serverName = try container.decodeIfPresent(String.self, forKey: .serverName)
    self.version = try container.decodeIfPresent(String.self, forKey: .version) ?? ""
    self.maxPayload = try container.decodeIfPresent(Int.self, forKey: .maxPayload) ?? 1024 * 1024
    self.supportsHeaders = try container.decodeIfPresent(Bool.self, forKey: .supportsHeaders) ?? false
    self.protocolVersion = try container.decodeIfPresent(Int.self, forKey: .protocolVersion)
    self.requiresAuthentication =
      try container.decodeIfPresent(Bool.self, forKey: .requiresAuthentication) ?? false
    self.requiresTLS = try container.decodeIfPresent(Bool.self, forKey: .requiresTLS) ?? false
    self.connectURLs = try container.decodeIfPresent([String].self, forKey: .connectURLs) ?? []
    self.isLameDuck = try container.decodeIfPresent(Bool.self, forKey: .isLameDuck) ?? false
    self.hasJetStream = try container.decodeIfPresent(Bool.self, forKey: .hasJetStream) ?? false
    self.cluster = try container.decodeIfPresent(String.self, forKey: .cluster)
    self.clientID = try container.decodeIfPresent(UInt64.self, forKey: .clientID)
    self.clientIP = try container.decodeIfPresent(String.self, forKey: .clientIP)
  }

  /// Reads the JSON of an `INFO` line.
  ///
  /// - Parameter json: The text after `INFO `.
  /// - Throws: ``NATSError`` with ``NATSError/Code/protocolViolation`` if it is not an INFO object.
  public init(json: [UInt8]) throws(NATSError) {
    do {
      let value = try JSON(parsing: json)
      self = try JSONValueDecoder().decode(NATSServerInfo.self, from: value)
    } catch {
      throw NATSError(.protocolViolation, "the server's INFO is not valid: \(error)")
    }
    guard self.maxPayload > 0 else {
      throw NATSError(.protocolViolation, "the server's INFO announces max_payload \(self.maxPayload)")
    }
  }
}
