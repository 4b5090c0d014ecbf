import Foundation
import HTTPTestSupport
import Synchronization
import Testing

@testable import HTTPServing

/// A server on a free loopback port, stopped at the end of the test.
private func withServer(
  _ configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
  handler: @escaping HTTPServer.Handler = { request, responder in
    responder.respond(.text(.ok, "\(request.method) \(request.target) \(request.body.count)"))
  },
  _ body: (HTTPServer) async throws -> Void
) async throws {
  let server = try HTTPServer.start(configuration, handler: handler)
  defer { server.stop() }
  try await body(server)
}

/// Polls `condition` until it holds (generous: the machine may be loaded).
private func eventually(_ what: String, timeout: Double = 30, _ condition: () -> Bool) async throws
{
  let deadline = Date().addingTimeInterval(timeout)
  while !condition() {
    guard Date() < deadline else { throw ClientError("timed out waiting until \(what)") }
    try await Task.sleep(for: .milliseconds(10))
  }
}

// One test at a time: they block on socket reads, and a test process on a 2-core machine has
// two threads for every suite's async tests.
@Suite(.serialized) struct HTTPServerTests {
  @Test func answersRequestsOnOneKeptAliveConnection() async throws {
    try await withServer { server in
      let client = try RawHTTPClient(port: server.port)
      try client.send("GET /one HTTP/1.1\r\nHost: x\r\n\r\n")
      let first = try client.readResponse()
      #expect(first.status == 200)
      #expect(first.text == "GET /one 0\n")
      #expect(first.header("Connection") == nil)
      try client.send("POST /two HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
      #expect(try client.readResponse().text == "POST /two 3\n")
    }
  }

  @Test func answersPipelinedRequestsInOrderEvenWhenAnswersComeOutOfOrder() async throws {
    // The first request is answered last: the second must still wait its turn.
    let gate = Mutex<HTTPResponder?>(nil)
    // The handler's deadline is far: a loaded machine may not resume this test for a while
    // after the slow request arrives, and a 503 for it is not what this test is about.
    try await withServer(
      HTTPServerConfiguration(responseTimeout: .seconds(600)),
      handler: { request, responder in
        if request.path == "/slow" {
          gate.withLock { $0 = responder }
        } else {
          responder.respond(.text(.ok, request.path))
        }
      }
    ) { server in
      let client = try RawHTTPClient(port: server.port)
      try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
      try await eventually("the slow request reaches the handler") { gate.withLock { $0 != nil } }
      gate.withLock { $0 }!.respond(.text(.ok, "/slow"))
      #expect(try client.readResponse().text == "/slow\n")
      #expect(try client.readResponse().text == "/fast\n")
    }
  }

  @Test func answersMalformedRequestsWithTheirStatusAndCloses() async throws {
    try await withServer { server in
      for (request, status) in [
        ("GET / HTTP/1.1\r\n\r\n", 400),
        ("GET / HTTP/3.0\r\nHost: x\r\n\r\n", 505),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n", 413),
        ("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\n", 414),
        ("GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-A: b\r\n", count: 101), 431),
        ("GET / HTTP/1.1\r\nHost: x\r\nX: " + String(repeating: "b", count: 40_000), 431),
      ] {
        let client = try RawHTTPClient(port: server.port)
        try client.send(request)
        let response = try client.readResponse()
        #expect(response.status == status, "\(request.prefix(60).debugDescription)")
        #expect(response.header("Connection") == "close")
        _ = try client.readUntilClosed()
      }
    }
  }

  @Test func answersASlowClientWith408() async throws {
    try await withServer(HTTPServerConfiguration(requestTimeout: .milliseconds(300))) { server in
      let client = try RawHTTPClient(port: server.port)
      try client.send("GET / HTTP/1.1\r\nHost: x\r\n")  // and never the empty line
      let response = try client.readResponse()
      #expect(response.status == 408)
      _ = try client.readUntilClosed()
    }
  }

  @Test func keepsServingOthersWhileOneClientStalls() async throws {
    try await withServer { server in
      let stalled = try RawHTTPClient(port: server.port)
      try stalled.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly a part")
      let other = try RawHTTPClient(port: server.port)
      try other.send("GET /other HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(try other.readResponse().text == "GET /other 0\n")
    }
  }

  @Test func closesAnIdleConnectionQuietly() async throws {
    try await withServer(HTTPServerConfiguration(idleTimeout: .milliseconds(200))) { server in
      let client = try RawHTTPClient(port: server.port)
      #expect(try client.readUntilClosed() == "")
    }
  }

  @Test func answers503WhenTheHandlerNeverAnswers() async throws {
    try await withServer(
      HTTPServerConfiguration(responseTimeout: .milliseconds(200)), handler: { _, _ in }
    ) { server in
      let client = try RawHTTPClient(port: server.port)
      try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(try client.readResponse().status == 503)
    }
  }

  @Test func sendsContinueBeforeTheBodyWhenAsked() async throws {
    try await withServer { server in
      let client = try RawHTTPClient(port: server.port)
      try client.send(
        "POST /c HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
      #expect(try client.readResponse().status == 100)
      try client.send("body")
      #expect(try client.readResponse().text == "POST /c 4\n")
    }
  }

  @Test func answersHeadWithoutABody() async throws {
    try await withServer { server in
      let client = try RawHTTPClient(port: server.port)
      try client.send("HEAD /h HTTP/1.1\r\nHost: x\r\n\r\nGET /g HTTP/1.1\r\nHost: x\r\n\r\n")
      let head = try client.readResponse(toHead: true)
      #expect(head.header("Content-Length") == "10")
      // Had the HEAD answer carried a body, it would be read as the next response's start.
      #expect(try client.readResponse().text == "GET /g 0\n")
    }
  }

  @Test func refusesConnectionsOverTheLimitWith503() async throws {
    try await withServer(HTTPServerConfiguration(maxConnections: 1)) { server in
      let first = try RawHTTPClient(port: server.port)
      try first.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
      _ = try first.readResponse()
      let second = try RawHTTPClient(port: server.port)
      #expect(try second.readResponse().status == 503)
    }
  }

  @Test func streamsEventsAndNoticesWhenTheClientLeaves() async throws {
    let streams = Mutex<[HTTPEventStream]>([])
    let closed = Atomic<Int>(0)
    try await withServer(handler: { _, responder in
      let stream = responder.startEventStream()
      stream.onClose { closed.add(1, ordering: .relaxed) }
      streams.withLock { $0.append(stream) }
    }) { server in
      var client: RawHTTPClient? = try RawHTTPClient(port: server.port)
      try client!.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
      try await eventually("the stream opens") { streams.withLock { !$0.isEmpty } }
      let stream = streams.withLock { $0[0] }
      stream.send(event: "patch", data: "line one\nline two", id: "7")
      let text = try client!.readUntil(contains: "line two\n\n")
      #expect(text.contains("Content-Type: text/event-stream"))
      #expect(text.contains("event: patch\nid: 7\ndata: line one\ndata: line two\n\n"))
      client = nil  // the browser tab closes
      try await eventually("the server notices") { closed.load(ordering: .relaxed) == 1 }
      #expect(!stream.isOpen)
      #expect(!stream.send(data: "too late"))
    }
  }

  @Test func closesAStreamWhoseClientDoesNotRead() async throws {
    let streams = Mutex<[HTTPEventStream]>([])
    try await withServer(
      // The write timeout is far, so that the backlog is what closes the stream.
      HTTPServerConfiguration(writeTimeout: .seconds(600), maxStreamBacklog: 256 * 1024),
      handler: { _, responder in streams.withLock { $0.append(responder.startEventStream()) } }
    ) { server in
      let client = try RawHTTPClient(port: server.port)
      try client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
      try await eventually("the stream opens") { streams.withLock { !$0.isEmpty } }
      let stream = streams.withLock { $0[0] }
      let chunk = String(repeating: "x", count: 64 * 1024)
      // The client reads nothing: the kernel's buffers fill, then the backlog; then it closes.
      // Loopback buffers can hold megabytes, so each poll offers up to 4 MB (on a loaded
      // machine the polls are few).
      try await eventually("the stream closes", timeout: 120) {
        for _ in 0..<64 where stream.isOpen { stream.send(data: chunk) }
        return !stream.isOpen
      }
    }
  }

  @Test func stoppingClosesStreamsAndReleasesThePort() async throws {
    let closed = Atomic<Bool>(false)
    let server = try HTTPServer.start(HTTPServerConfiguration()) { _, responder in
      responder.startEventStream().onClose { closed.store(true, ordering: .relaxed) }
    }
    let client = try RawHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    _ = try client.readUntil(contains: "\r\n\r\n")
    server.stop()
    let wasClosed = closed.load(ordering: .relaxed)
    #expect(wasClosed)
    _ = try client.readUntilClosed()
    let again = try HTTPServer.start(HTTPServerConfiguration(port: server.port)) { _, _ in }
    again.stop()
  }

  @Test func refusesAPortInUse() throws {
    let server = try HTTPServer.start(HTTPServerConfiguration()) { _, _ in }
    defer { server.stop() }
    #expect(throws: HTTPServerError.addressInUse(address: "127.0.0.1:\(server.port)")) {
      try HTTPServer.start(HTTPServerConfiguration(port: server.port)) { _, _ in }
    }
  }
}

@Suite struct IPv4AddressTests {
  @Test func readsDottedDecimalOnly() {
    #expect(IPv4Address("127.0.0.1") == .loopback)
    #expect(IPv4Address("127.1") == nil)
    #expect(IPv4Address("127.0.0.01") == nil)
    #expect(IPv4Address("256.0.0.1") == nil)
    #expect(IPv4Address("localhost") == nil)
    #expect(IPv4Address("127.8.9.10")?.isLoopback == true)
    #expect(IPv4Address("192.168.1.2")?.isLoopback == false)
  }
}
