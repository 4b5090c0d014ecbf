/// Why a server could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Another process listens on the address and port.
  case addressInUse(address: String)
  /// The address cannot be listened on (not an address of this machine, a privileged port…).
  case cannotListen(address: String, reason: String)
  /// The system refused a resource the server needs (a thread, a pipe).
  case cannotStart(reason: String)

  /// What went wrong, for people.
  public var description: String {
    switch self {
    case .addressInUse(let address):
      return "\(address) is already in use; choose another port, or 0 for a free one"
    case .cannotListen(let address, let reason): return "cannot listen on \(address): \(reason)"
    case .cannotStart(let reason): return "cannot start the HTTP server: \(reason)"
    }
  }
}
