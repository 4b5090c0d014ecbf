/// A failure of a socket operation, with the `errno` behind it and a message that says what to
/// do about it.
///
/// ```swift
/// do {
///   let connection = try UnixConnection.connect(path: path, loop: loop)   // on the loop
/// } catch let error where error.code == .connectionRefused {
///   print(error)   // connect(/run/user/1000/storehost.sock): no host is listening …
/// }
/// ```
public struct SocketError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, independently of the platform's `errno` values.
  public enum Code: Sendable, Hashable {
    /// The path does not fit `sockaddr_un` (`limit` bytes), or contains a NUL byte.
    case pathTooLong(limit: Int)
    /// No socket file exists at the path.
    case noSuchFile
    /// The socket file exists but no process is listening on it.
    case connectionRefused
    /// The path is taken — by a live listener, or by a file that is not a stale socket.
    case addressInUse
    /// The process lacks permission for the path or the socket.
    case permissionDenied
    /// The listener's backlog is full; retrying later may succeed.
    case temporarilyUnavailable
    /// The peer went away (`EPIPE`, `ECONNRESET`) or the connection was already closed.
    case disconnected
    /// The peer closed the connection in the middle of a frame.
    case truncatedFrame
    /// The peer sent bytes that violate the framing (zero length, over the size limit).
    case badFrame(FrameError)
    /// The operation did not complete in time.
    case timedOut
    /// The event loop has shut down.
    case eventLoopShutDown
    /// Any other system error; see ``SocketError/errno``.
    case other
  }

  /// What went wrong.
  public var code: Code
  /// The system call or step that failed, e.g. `connect`.
  public var operation: String
  /// The socket path involved, if any.
  public var path: String?
  /// The `errno` captured right after the failing call, if one was involved.
  public var errno: Int32?

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - code: What went wrong.
  ///   - operation: The system call or step that failed.
  ///   - path: The socket path involved, if any.
  ///   - errno: The `errno` behind it, if any.
  public init(code: Code, operation: String, path: String? = nil, errno: Int32? = nil) {
    self.code = code
    self.operation = operation
    self.path = path
    self.errno = errno
  }

  /// Classifies an `errno` from `operation`.
  static func system(_ errno: Int32, _ operation: String, path: String? = nil) -> SocketError {
    let code: Code =
      switch errno {
      case Posix.enoent, Posix.enotdir: .noSuchFile
      case Posix.econnrefused: .connectionRefused
      case Posix.eaddrinuse: .addressInUse
      case Posix.eacces, Posix.eperm: .permissionDenied
      case Posix.eagain, Posix.ewouldblock: .temporarilyUnavailable
      case Posix.epipe, Posix.econnreset: .disconnected
      case Posix.enametoolong: .pathTooLong(limit: Posix.maxPathLength)
      default: .other
      }
    return SocketError(code: code, operation: operation, path: path, errno: errno)
  }

  /// Checks that `path` fits `sockaddr_un`, before any system call.
  static func validate(path: String, operation: String) throws(SocketError) {
    if path.utf8.count > Posix.maxPathLength || path.utf8.contains(0) || path.isEmpty {
      throw SocketError(
        code: .pathTooLong(limit: Posix.maxPathLength), operation: operation, path: path)
    }
  }

  /// A one-line explanation, e.g.
  /// `connect(/tmp/x.sock): no host is listening (connection refused)`.
  public var description: String {
    let subject = self.path.map { "\(self.operation)(\($0))" } ?? self.operation
    let reason: String =
      switch self.code {
      case .pathTooLong(let limit):
        self.path.map { $0.utf8.contains(0) || $0.isEmpty } == true
          ? "a socket path must be non-empty and contain no NUL byte"
          : "socket path is \(self.path?.utf8.count ?? 0) bytes; Unix sockets allow at most \(limit)"
      case .noSuchFile: "no such socket file (is the host running?)"
      case .connectionRefused: "no host is listening (connection refused; a stale socket file?)"
      case .addressInUse: "address in use (another host is listening there, or the file exists)"
      case .permissionDenied: "permission denied"
      case .temporarilyUnavailable: "the host's listen backlog is full; try again"
      case .disconnected: "the peer disconnected"
      case .truncatedFrame: "the peer closed the connection in the middle of a frame"
      case .badFrame(let error): "bad frame from the peer: \(error)"
      case .timedOut: "timed out"
      case .eventLoopShutDown: "the event loop has shut down"
      case .other: self.errno.map(Posix.errorDescription) ?? "failed"
      }
    let number = self.errno.map { " [errno \($0)]" } ?? ""
    return "\(subject): \(reason)\(number)"
  }
}
