import Wire

/// The host's side of systemd's notification protocol, driven by the core on its event loop:
///
/// ```
///   recovered and listening ─▶ READY=1, STATUS=serving examples: revision 42, 0 clients
///   each second, on change  ─▶ STATUS=serving examples: revision 57, 3 clients
///   every WATCHDOG_USEC / 2 ─▶ WATCHDOG=1   (from the loop: a hung loop stops proving it lives)
///   shutdown                ─▶ STOPPING=1, STATUS=stopping: saying bye to 3 clients
/// ```
///
/// Loop-confined, like the core that owns it.
@usableFromInline
final class SystemdLink {
  private let notifier: ServiceNotifier
  private let watchdogInterval: Duration?
  private let loop: EventLoop
  private let app: String
  private var status = ""
  private var watchdogTimer: UInt64?
  private var isStopping = false

  /// A link for `configuration`'s ``HostConfiguration/systemd``; `nil` when there is no
  /// notification socket (nothing to say, to nobody).
  init?(configuration: HostConfiguration, loop: EventLoop, log: HostLogger, app: String) {
    guard let path = configuration.systemd.notifySocket,
      let notifier = ServiceNotifier(path: path, log: log)
    else { return nil }
    self.notifier = notifier
    self.watchdogInterval = configuration.systemd.watchdogInterval
    self.loop = loop
    self.app = app
  }

  /// The host has recovered its state and serves its socket.
  @usableFromInline
  func ready(revision: Int64, clients: Int) {
    self.status = self.statusText(revision: revision, clients: clients)
    self.notifier.send("READY=1", "STATUS=\(self.status)", "MAINPID=\(Platform.processID)")
    self.scheduleWatchdog()
  }

  /// Sends the status when it changed.
  func update(revision: Int64, clients: Int) {
    guard !self.isStopping else { return }
    let text = self.statusText(revision: revision, clients: clients)
    guard text != self.status else { return }
    self.status = text
    self.notifier.send("STATUS=\(text)")
  }

  /// The host is shutting down.
  func stopping(clients: Int) {
    self.isStopping = true
    if let timer = self.watchdogTimer { self.loop.cancelTimer(timer) }
    self.watchdogTimer = nil
    self.notifier.send(
      "STOPPING=1", "STATUS=stopping: saying bye to \(clients) client\(clients == 1 ? "" : "s")")
  }

  private func statusText(revision: Int64, clients: Int) -> String {
    "serving \(self.app): revision \(revision), \(clients) client\(clients == 1 ? "" : "s")"
  }

  /// `WATCHDOG=1` twice per interval, as `sd_watchdog_enabled(3)` advises, from the loop's own
  /// timer: only a loop that runs keeps the service alive.
  private func scheduleWatchdog() {
    guard let interval = self.watchdogInterval, !self.isStopping else { return }
    self.watchdogTimer = self.loop.scheduleTimer(after: interval / 2) { [weak self] in
      guard let self, !self.isStopping else { return }
      self.notifier.send("WATCHDOG=1")
      self.scheduleWatchdog()
    }
  }
}
