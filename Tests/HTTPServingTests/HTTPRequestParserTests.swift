import Testing

@testable import HTTPServing

/// Parses `text` fed in chunks of `chunk` bytes; returns the requests and the error, if any.
private func parse(
  _ text: String, chunk: Int = .max, limits: HTTPLimits = HTTPLimits()
) -> (requests: [HTTPRequest], error: HTTPParseError?) {
  var parser = HTTPRequestParser(limits: limits)
  var requests: [HTTPRequest] = []
  let bytes = Array(text.utf8)
  var offset = 0
  repeat {
    let end = min(bytes.count, offset + chunk)
    parser.append(bytes[offset..<end])
    offset = end
    do {
      while let request = try parser.nextRequest() { requests.append(request) }
    } catch {
      return (requests, error)
    }
  } while offset < bytes.count
  return (requests, nil)
}

private func status(_ text: String, limits: HTTPLimits = HTTPLimits()) -> Int? {
  parse(text, limits: limits).error?.status.code
}

@Suite struct HTTPRequestParserTests {
  @Test func readsARequestWithItsFieldsAndQuery() throws {
    let (requests, error) = parse(
      "GET /api/state?scope=todos%2F1&x=a+b HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept:  */* \r\n\r\n"
    )
    #expect(error == nil)
    let request = try #require(requests.first)
    #expect(request.method == "GET")
    #expect(request.path == "/api/state")
    #expect(request.query?.first("scope") == "todos/1")
    #expect(request.query?.first("x") == "a b")
    #expect(request.headers["host"] == "127.0.0.1:8080")
    #expect(request.headers["Accept"] == "*/*")
    #expect(request.version == .http1_1)
    #expect(request.keepAlive)
    #expect(request.body.isEmpty)
  }

  @Test(arguments: [1, 2, 3, 7, 64])
  func readsPipelinedRequestsWithBodiesSplitAnywhere(chunk: Int) {
    let text =
      "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello"
      + "POST /b HTTP/1.1\nHost: h\nTransfer-Encoding: chunked\n\n3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nX-Trailer: t\r\n\r\n"
      + "GET /c HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
    let (requests, error) = parse(text, chunk: chunk)
    #expect(error == nil)
    #expect(requests.map(\.path) == ["/a", "/b", "/c"])
    #expect(requests.map { String(decoding: $0.body, as: UTF8.self) } == ["hello", "abcde", ""])
    #expect(requests[1].headers["X-Trailer"] == nil)
    #expect(requests[2].version == .http1_0)
    #expect(requests[2].keepAlive)
  }

  @Test func readsFieldValueBytesThatAreNotUTF8AsReplacementCharacters() throws {
    var parser = HTTPRequestParser()
    parser.append(
      Array("GET / HTTP/1.1\r\nHost: h\r\nX: a".utf8) + [0xFF, 0xE3] + Array("b\r\n\r\n".utf8))
    let request = try #require(try parser.nextRequest())
    #expect(request.headers["X"] == "a\u{FFFD}\u{FFFD}b")
  }

  @Test func skipsEmptyLinesBeforeARequest() {
    #expect(parse("\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n").requests.count == 1)
  }

  @Test func answersConnectionCloseAndHTTP10WithoutKeepAlive() {
    let requests = parse(
      "GET / HTTP/1.1\r\nHost: h\r\nConnection: Close\r\n\r\nGET / HTTP/1.0\r\n\r\n"
    ).requests
    #expect(requests.map(\.keepAlive) == [false, false])
  }

  @Test func asksForContinueOnlyUntilTheBodyArrives() throws {
    var parser = HTTPRequestParser()
    parser.append(
      Array("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
    #expect(try parser.nextRequest() == nil)
    #expect(parser.expectsContinue)
    parser.continueSent()
    #expect(!parser.expectsContinue)
    parser.append(Array("ok".utf8))
    #expect(try parser.nextRequest()?.body == Array("ok".utf8))
  }

  @Test func isIdleOnlyBetweenRequests() throws {
    var parser = HTTPRequestParser()
    #expect(parser.isIdle)
    parser.append(Array("GE".utf8))
    #expect(try parser.nextRequest() == nil)
    #expect(!parser.isIdle)
    parser.append(Array("T / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
    #expect(try parser.nextRequest() != nil)
    #expect(parser.isIdle)
  }

  // MARK: - Every error and its status

  @Test(arguments: [
    ("GET /\r\n\r\n", 400),  // two parts
    ("GET  / HTTP/1.1\r\nHost: h\r\n\r\n", 400),  // two spaces
    ("G(T / HTTP/1.1\r\nHost: h\r\n\r\n", 400),  // method not a token
    ("GET /a b HTTP/1.1\r\nHost: h\r\n\r\n", 400),  // three spaces
    ("GET /\u{7f} HTTP/1.1\r\nHost: h\r\n\r\n", 400),  // control in the target
    ("GET nope HTTP/1.1\r\nHost: h\r\n\r\n", 400),  // not a path
    ("GET * HTTP/1.1\r\nHost: h\r\n\r\n", 400),  // * only for OPTIONS
    ("GET / HTTQ/1.1\r\nHost: h\r\n\r\n", 400),  // not HTTP
    ("GET / HTTP/1.1x\r\nHost: h\r\n\r\n", 400),
    ("GET / HTTP/2.0\r\nHost: h\r\n\r\n", 505),
    ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505),
    // Nine empty lines before the request.
    ("\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\n Host: h\r\n\r\n", 400),  // folding
    ("GET / HTTP/1.1\r\nHost h\r\n\r\n", 400),  // no colon
    ("GET / HTTP/1.1\r\nHost : h\r\n\r\n", 400),  // space before colon
    ("GET / HTTP/1.1\r\n: h\r\n\r\n", 400),  // empty name
    ("GET / HTTP/1.1\r\nHost: h\r\nX: a\u{0}b\r\n\r\n", 400),  // NUL in a value
    ("GET / HTTP/1.1\r\nHost: h\rX: y\r\n\r\n", 400),  // bare CR
    ("GET / HTTP/1.1\r\n\r\n", 400),  // no Host
    ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1, 1\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
    ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2 x\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: h\r\nExpect: magic\r\nContent-Length: 1\r\n\r\nx", 417),
    ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
    ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1048577\r\n\r\n", 413),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n100001\r\n", 413),
    (
      "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffffff\r\n",
      413
    ),
  ])
  func answersBadInputWithItsStatus(input: String, expected: Int) {
    // Whole, and a byte at a time: the same answer.
    #expect(status(input) == expected, "\(input.debugDescription)")
    #expect(parse(input, chunk: 1).error?.status.code == expected, "\(input.debugDescription)")
  }

  @Test func refusesALongRequestLineWith414BeforeItEnds() {
    let limits = HTTPLimits(maxRequestLineLength: 100)
    let long = "GET /" + String(repeating: "a", count: 200)
    // No line end yet: refused as soon as the limit is passed.
    #expect(parse(long, limits: limits).error == .requestLineTooLong(limit: 100))
    #expect(status(long + " HTTP/1.1\r\nHost: h\r\n\r\n", limits: limits) == 414)
    let exactly = "GET /" + String(repeating: "a", count: 100 - 14) + " HTTP/1.1"
    #expect(exactly.utf8.count == 100)
    #expect(status(exactly + "\r\nHost: h\r\n\r\n", limits: limits) == nil)
  }

  @Test func refusesTooManyOrTooLargeHeaderFieldsWith431() {
    let many = "GET / HTTP/1.1\r\nHost: h\r\n" + String(repeating: "X: y\r\n", count: 100) + "\r\n"
    #expect(parse(many).error == .tooManyHeaders(limit: 100))
    let large = "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "y", count: 40_000)
    #expect(parse(large).error == .headersTooLarge(limit: 32 * 1024))
    #expect(parse(large, chunk: 1000).error == .headersTooLarge(limit: 32 * 1024))
    // Exactly at the limit is fine: "Host: h" (7 + 2) and "X: …" (n + 2).
    let limits = HTTPLimits(maxHeaderBytes: 100)
    let fits =
      "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "y", count: 100 - 9 - 5) + "\r\n\r\n"
    #expect(parse(fits, limits: limits).error == nil)
    let over =
      "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "y", count: 100 - 9 - 4) + "\r\n\r\n"
    #expect(parse(over, limits: limits).error?.status.code == 431)
  }

  @Test func refusesABodyOfTinyChunksThatWouldNeverEnd() {
    let chunks = String(
      repeating: "1;" + String(repeating: "e", count: 1000) + "\r\nx\r\n", count: 100)
    let text = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks
    #expect(parse(text).error?.status.code == 400)
  }

  @Test func staysFailedAfterAnError() {
    var parser = HTTPRequestParser()
    parser.append(Array("BAD\r\n".utf8))
    #expect(throws: HTTPParseError.self) { try parser.nextRequest() }
    parser.append(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
    #expect(throws: HTTPParseError.self) { try parser.nextRequest() }
  }

  @Test func neverAnswers500ForAnyError() {
    let errors: [HTTPParseError] = [
      .malformedRequestLine(""), .requestLineTooLong(limit: 1), .unsupportedVersion(""),
      .malformedHeader(""), .tooManyHeaders(limit: 1), .headersTooLarge(limit: 1), .badHost(""),
      .badContentLength(""), .badFraming(""), .unsupportedTransferCoding(""),
      .bodyTooLarge(limit: 1), .malformedChunk(""), .unsupportedExpectation(""),
    ]
    #expect(Set(errors.map(\.status.code)) == [400, 413, 414, 417, 431, 501, 505])
  }

  @Test func writesARequestBackToOneThatReadsTheSame() throws {
    let text =
      "POST /x?y=1 HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nA: b\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
    let request = try #require(parse(text).requests.first)
    let again = try #require(
      parse(String(decoding: request.serialized(), as: UTF8.self)).requests.first)
    #expect(again.method == request.method)
    #expect(again.target == request.target)
    #expect(again.body == request.body)
    #expect(again.headers["A"] == "b")
    #expect(again.headers["Content-Length"] == "3")
  }
}

@Suite struct HTTPQueryTests {
  @Test func decodesPercentEscapesAndPlus() {
    #expect(
      HTTPQuery(parsing: "a=%E2%86%92&b=c+d&e")?.items.map { "\($0.name)=\($0.value)" } == [
        "a=→", "b=c d", "e=",
      ])
  }

  @Test func refusesBadEscapesAndBytesThatAreNotUTF8() {
    #expect(HTTPQuery(parsing: "a=%4") == nil)
    #expect(HTTPQuery(parsing: "a=%zz") == nil)
    #expect(HTTPQuery(parsing: "a=%FF") == nil)
  }

  @Test func encodesWhatItDecodes() {
    let text = "todos/0B9E → ünïcode & = +"
    #expect(HTTPQuery(parsing: "s=" + HTTPQuery.encode(text))?.first("s") == text)
  }
}
