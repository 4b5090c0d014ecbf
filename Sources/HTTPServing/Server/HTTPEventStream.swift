/// An open Server-Sent Events response (the `text/event-stream` an `EventSource` reads).
/// Usable from any thread; events leave in the order they are sent.
///
/// ```swift
/// let stream = responder.startEventStream()
/// stream.onClose { subscription.cancel() }
/// stream.send(event: "patch", data: #"{"rev":42}"#)
/// ```
///
/// A client that stops reading is not waited for: once more than the server's
/// ``HTTPServerConfiguration/maxStreamBacklog`` is queued for it, the stream closes.
public final class HTTPEventStream: Sendable {
  private let server: HTTPServer
  private let connection: UInt64
  private let state = ServerLock(State())

  private struct State {
    var isOpen = true
    var closeHandlers: [@Sendable () -> Void] = []
  }

  init(server: HTTPServer, connection: UInt64) {
    self.server = server
    self.connection = connection
  }

  /// Whether the stream is still open.
  public var isOpen: Bool { self.state.withLock(\.isOpen) }

  /// Sends one event.
  ///
  /// - Parameters:
  ///   - event: The event's type (`event:` field; the `EventSource` listener's name), or `nil`
  ///     for a plain `message`. Line breaks are removed.
  ///   - data: The event's data; each line becomes a `data:` field.
  ///   - id: The event's id (`id:` field), sent back by a reconnecting `EventSource` in
  ///     `Last-Event-ID`.
  /// - Returns: `false` if the stream has closed (nothing was sent).
  @discardableResult
  public func send(event: String? = nil, data: String, id: String? = nil) -> Bool {
    var text = ""
    if let event { text += "event: \(Self.singleLine(event))\n" }
    if let id { text += "id: \(Self.singleLine(id))\n" }
    // CR, LF and CRLF all end a line in an event stream: each line gets its own field.
    for line in data.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      text += "data: \(line)\n"
    }
    text += "\n"
    return self.write(Array(text.utf8))
  }

  /// Asks the client to wait this long before reconnecting after the stream ends (`retry:`).
  ///
  /// - Parameter milliseconds: The delay.
  /// - Returns: `false` if the stream has closed.
  @discardableResult
  public func setRetry(milliseconds: Int) -> Bool {
    self.write(Array("retry: \(max(0, milliseconds))\n\n".utf8))
  }

  /// Ends the stream once what was sent has gone out.
  public func close() {
    guard self.isOpen else { return }
    self.server.submit(.closeStream(connection: self.connection))
  }

  /// Registers `handler` to run once when the stream closes, whoever closes it — at once if it
  /// has closed already. It runs on the server's thread: it must not block.
  ///
  /// - Parameter handler: The handler.
  public func onClose(_ handler: @escaping @Sendable () -> Void) {
    let runNow = self.state.withLock { state -> Bool in
      guard state.isOpen else { return true }
      state.closeHandlers.append(handler)
      return false
    }
    if runNow { handler() }
  }

  private func write(_ bytes: [UInt8]) -> Bool {
    guard self.isOpen else { return false }
    return self.server.submit(.streamBytes(connection: self.connection, bytes: bytes))
  }

  /// Marks the stream closed and runs the close handlers (once).
  func markClosed() {
    let handlers = self.state.withLock { state -> [@Sendable () -> Void] in
      guard state.isOpen else { return [] }
      state.isOpen = false
      defer { state.closeHandlers.removeAll() }
      return state.closeHandlers
    }
    for handler in handlers { handler() }
  }

  private static func singleLine(_ text: String) -> String {
    String(text.filter { $0 != "\n" && $0 != "\r" })
  }
}
