import Synchronization

/// Sends `sd_notify` messages — `READY=1`, `STATUS=…`, `STOPPING=1`, `WATCHDOG=1` — to the
/// service manager's socket (`NOTIFY_SOCKET`), one datagram each, as systemd's `sd_notify(3)`.
///
/// Sending never blocks and never fails the host: a manager that is gone or whose socket is
/// full only loses the notification (the first failure is logged).
final class ServiceNotifier: Sendable {
  /// The manager's socket path (`@name` for the abstract namespace).
  let path: String
  private let descriptor: Int32
  private let log: HostLogger
  private let failed = Atomic<Bool>(false)

  /// A notifier for the socket at `path`, or `nil` when no datagram socket can be made.
  init?(path: String, log: HostLogger) {
    guard let descriptor = Platform.makeDatagramSocket() else {
      log(.warning, "cannot notify systemd at \(path): no datagram socket")
      return nil
    }
    self.path = path
    self.descriptor = descriptor
    self.log = log
  }

  deinit { Platform.closeDescriptor(self.descriptor) }

  /// Sends one notification: lines of `NAME=value`.
  func send(_ lines: String...) {
    let code = Platform.sendDatagram(self.descriptor, lines.joined(separator: "\n"), to: self.path)
    if code != 0, !self.failed.exchange(true, ordering: .relaxed) {
      self.log(
        .warning,
        "cannot notify systemd at \(self.path) (errno \(code)); notifications are dropped")
    }
  }
}
