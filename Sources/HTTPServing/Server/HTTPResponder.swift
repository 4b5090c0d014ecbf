/// Answers one request of an ``HTTPServer``: with a response, or by starting an event stream.
/// Usable from any thread, once; later answers are ignored (so are answers after the server
/// timed the request out, or after the client left).
///
/// ```swift
/// Task {
///   let state = try await fetchState()
///   responder.respond(.json(.ok, state))
/// }
/// ```
public struct HTTPResponder: Sendable {
  let server: HTTPServer
  let connection: UInt64
  let sequence: UInt64

  /// Sends `response`.
  ///
  /// - Parameter response: The response; the server adds `Content-Length` and `Connection`.
  public func respond(_ response: HTTPResponse) {
    self.server.submit(
      .respond(connection: self.connection, sequence: self.sequence, response: response))
  }

  /// Answers with a `text/event-stream` (Server-Sent Events) that stays open until
  /// ``HTTPEventStream/close()``, the client leaves, or the server stops.
  ///
  /// - Parameter headers: Fields to send besides `Content-Type` and `Cache-Control`.
  /// - Returns: The stream, to send events on from any thread.
  public func startEventStream(headers: HTTPHeaders = [:]) -> HTTPEventStream {
    var head = HTTPResponse(status: .ok, headers: headers)
    head.headers.set("Content-Type", "text/event-stream; charset=utf-8")
    head.headers.set("Cache-Control", "no-store")
    let stream = HTTPEventStream(server: self.server, connection: self.connection)
    let accepted = self.server.submit(
      .startStream(connection: self.connection, sequence: self.sequence, head: head, stream: stream)
    )
    if !accepted { stream.markClosed() }
    return stream
  }
}
