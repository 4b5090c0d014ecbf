import Wire

/// What systemd hands a service it starts, read from the environment it sets: a listening
/// socket (socket activation), where to send status notifications, and how often to prove it
/// is alive — the host acts on each (see ``HostConfiguration/systemd``).
///
/// ```swift
/// var configuration = HostConfiguration(defaultSocketIn: environment)
/// try configuration.adoptSystemd(from: environment)   // nothing changes outside systemd
/// ```
///
/// | variable | what the host does |
/// | --- | --- |
/// | `LISTEN_FDS`, `LISTEN_PID` | serves the socket passed as descriptor 3 instead of binding one: a restart loses no connection attempt, and the socket's path, owner and mode are the socket unit's |
/// | `NOTIFY_SOCKET` | sends `READY=1` once the state is recovered and the socket is served, `STATUS=` with the revision and the clients, `STOPPING=1` on shutdown (`Type=notify`) |
/// | `WATCHDOG_USEC`, `WATCHDOG_PID` | sends `WATCHDOG=1` from its event loop twice per interval (`WatchdogSec=`): a loop that hangs is restarted |
///
/// Log lines go to the journal without a timestamp of their own whenever standard error is the
/// journal's stream (`JOURNAL_STREAM`), whatever this says.
public struct SystemdService: Sendable, Equatable {
  /// The first descriptor systemd passes (`SD_LISTEN_FDS_START`).
  public static let firstListeningDescriptor: Int32 = 3

  /// The listening socket passed by socket activation, or `nil`.
  public var listeningDescriptor: Int32?
  /// The path of the service manager's notification socket (`@` first for the abstract
  /// namespace), or `nil` to send no notifications.
  public var notifySocket: String?
  /// How often the service manager expects `WATCHDOG=1`, or `nil` for no watchdog.
  public var watchdogInterval: Duration?

  /// A description with nothing set: the host behaves as outside systemd.
  public init(
    listeningDescriptor: Int32? = nil, notifySocket: String? = nil,
    watchdogInterval: Duration? = nil
  ) {
    self.listeningDescriptor = listeningDescriptor
    self.notifySocket = notifySocket
    self.watchdogInterval = watchdogInterval
  }

  /// Reads what systemd set for this process; variables meant for another process
  /// (`LISTEN_PID`, `WATCHDOG_PID` naming another pid) are ignored, as `sd_listen_fds` and
  /// `sd_watchdog_enabled` ignore them.
  ///
  /// - Parameters:
  ///   - environment: The process environment.
  ///   - processID: This process's id (`nil`: `getpid()`).
  /// - Returns: What systemd passed; every member `nil` outside systemd.
  /// - Throws: ``HostStartError`` when systemd passed several sockets, or values that are not
  ///   numbers — a unit file to fix, said in words.
  public static func fromEnvironment(
    _ environment: [String: String], processID: Int32? = nil
  ) throws(HostStartError) -> SystemdService {
    let processID = processID ?? Platform.processID
    var service = SystemdService()
    if let pid = environment["LISTEN_PID"], let count = environment["LISTEN_FDS"],
      Int32(pid) == processID
    {
      guard let sockets = Int(count), sockets >= 0 else {
        throw HostStartError(message: "LISTEN_FDS is '\(count)', not a number of sockets")
      }
      switch sockets {
      case 0: break
      case 1: service.listeningDescriptor = Self.firstListeningDescriptor
      default:
        throw HostStartError(
          message: "systemd passed \(sockets) sockets (LISTEN_FDS); the host serves one: give the "
            + "socket unit a single ListenStream= with the socket's path")
      }
    }
    if let path = environment["NOTIFY_SOCKET"], !path.isEmpty { service.notifySocket = path }
    if let text = environment["WATCHDOG_USEC"] {
      let forUs = environment["WATCHDOG_PID"].map { Int32($0) == processID } ?? true
      guard let microseconds = Int64(text), microseconds > 0 else {
        throw HostStartError(message: "WATCHDOG_USEC is '\(text)', not a positive number of microseconds")
      }
      if forUs { service.watchdogInterval = .microseconds(microseconds) }
    }
    return service
  }

  /// Whether anything is set.
  public var isActive: Bool {
    self.listeningDescriptor != nil || self.notifySocket != nil || self.watchdogInterval != nil
  }
}

extension HostConfiguration {
  /// Takes what systemd passed this process (``SystemdService/fromEnvironment(_:processID:)``):
  /// with socket activation, ``socketPath`` becomes the passed socket's path — a different
  /// `socketPath` set before is refused, since clients would look in the wrong place.
  ///
  /// - Parameters:
  ///   - environment: The process environment.
  ///   - explicitSocket: Whether ``socketPath`` was chosen by the user (`--socket`) rather than
  ///     by default: only a chosen path must match the passed socket's.
  /// - Throws: ``HostStartError`` for a unit file systemd's variables show to be wrong, or a
  ///   passed descriptor that is not a listening Unix stream socket.
  public mutating func adoptSystemd(
    from environment: [String: String], explicitSocket: Bool = false
  ) throws(HostStartError) {
    let service = try SystemdService.fromEnvironment(environment)
    if let descriptor = service.listeningDescriptor {
      let path: String
      do {
        path = try UnixListener.describeInherited(descriptor)
      } catch {
        throw HostStartError(
          message: "the socket systemd passed cannot be served: \(error); the socket unit needs "
            + "ListenStream=/path/to/socket (a Unix stream socket)")
      }
      if explicitSocket, path != self.socketPath {
        throw HostStartError(
          message: "--socket is \(self.socketPath), but systemd passed the socket \(path): leave "
            + "--socket out of the service's ExecStart, or make the two agree")
      }
      self.socketPath = path
      self.managesSocketDirectory = false
    }
    self.systemd = service
  }
}
