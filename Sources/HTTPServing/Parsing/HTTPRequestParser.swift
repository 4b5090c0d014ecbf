/// Reads HTTP/1.x requests from a byte stream (RFC 9112), one at a time, within
/// ``HTTPLimits``: an I/O-free state machine that a connection feeds with whatever it reads.
///
/// ```swift
/// var parser = HTTPRequestParser()
/// parser.append(bytes)                       // any split: a byte at a time works too
/// while let request = try parser.nextRequest() {
///   respond(to: request)                     // pipelined requests come out in order
/// }
/// ```
///
/// ```
///  ┌─────────────┐ line ┌─────────┐ empty line ┌──────────────────────┐
///  │ requestLine │─────▶│ headers │───────────▶│ body: Content-Length │──▶ request
///  └─────────────┘      └─────────┘            │ or chunks + trailers │       │
///         ▲                                    └──────────────────────┘       │
///         └──────────────────── the next request (pipelining) ◀───────────────┘
/// ```
///
/// A line may end with CRLF or a bare LF. Every error is an ``HTTPParseError`` whose
/// ``HTTPParseError/status`` is the answer (400, 413, 414, 417, 431, 501 or 505); limits are
/// checked as bytes arrive, so an oversized request is refused before it is buffered whole,
/// and the outcome never depends on how the input was split. After an error the parser stays
/// failed: the connection is to be closed.
public struct HTTPRequestParser: Sendable {
  /// The limits enforced.
  public let limits: HTTPLimits

  private enum State: Sendable {
    case requestLine(blankLines: Int)
    case headers
    case body(remaining: Int)
    case chunkSize
    case chunkData(remaining: Int)
    case chunkDataEnd
    case trailers
  }

  /// The longest chunk-size line (size and extensions).
  static let maxChunkLineLength = 1024
  /// The most bytes of chunk-size lines and line ends in one chunked body.
  static let maxChunkFraming = 64 * 1024
  /// The most empty lines tolerated before a request line (RFC 9112 §2.2 asks for at least one).
  static let maxBlankLines = 8

  private var buffer: [UInt8] = []
  private var start = 0
  /// How many bytes after `start` have been searched for a line end already.
  private var scanned = 0
  private var state = State.requestLine(blankLines: 0)
  private var failure: HTTPParseError?

  private var method = ""
  private var target = ""
  private var version = HTTPVersion.http1_1
  private var headers = HTTPHeaders()
  private var headerBytes = 0
  private var headerCount = 0
  private var body: [UInt8] = []
  private var chunkFraming = 0

  /// Whether the request being read announced `Expect: 100-continue` and its body has not
  /// arrived yet: the server should send `100 Continue`. Cleared by ``continueSent()``.
  public private(set) var expectsContinue = false

  /// Creates a parser.
  ///
  /// - Parameter limits: The limits to enforce.
  public init(limits: HTTPLimits = HTTPLimits()) {
    self.limits = limits
  }

  /// The bytes received and not yet part of a returned request.
  public var bufferedByteCount: Int { self.buffer.count - self.start }

  /// Whether no byte of a next request has arrived (the connection is between requests).
  public var isIdle: Bool {
    if case .requestLine(0) = self.state, self.failure == nil { return self.bufferedByteCount == 0 }
    return false
  }

  /// Adds bytes read from the connection; ignored after an error.
  ///
  /// - Parameter bytes: The bytes, in order.
  public mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard self.failure == nil else { return }
    self.buffer.append(contentsOf: bytes)
  }

  /// Adds bytes read from the connection; ignored after an error.
  ///
  /// - Parameter bytes: The bytes, in order.
  public mutating func append(_ bytes: some Sequence<UInt8>) {
    guard self.failure == nil else { return }
    self.buffer.append(contentsOf: bytes)
  }

  /// Notes that `100 Continue` was sent for the request being read.
  public mutating func continueSent() {
    self.expectsContinue = false
  }

  /// Returns the next complete request, or `nil` until more bytes arrive.
  ///
  /// - Returns: The request, or `nil`.
  /// - Throws: ``HTTPParseError``, again on every later call.
  public mutating func nextRequest() throws(HTTPParseError) -> HTTPRequest? {
    if let failure = self.failure { throw failure }
    do {
      return try self.advance()
    } catch {
      self.failure = error
      self.expectsContinue = false
      throw error
    }
  }

  // MARK: - The state machine

  private mutating func advance() throws(HTTPParseError) -> HTTPRequest? {
    let request = try self.advanceStates()
    if request == nil, self.start > 4096, self.start * 2 > self.buffer.count {
      // Waiting for more: what is kept is one unfinished line (within its limit), so the
      // buffer stays bounded however many bytes a request is made of.
      self.buffer.removeFirst(self.start)
      self.start = 0
    }
    return request
  }

  private mutating func advanceStates() throws(HTTPParseError) -> HTTPRequest? {
    while true {
      switch self.state {
      case .requestLine(let blankLines):
        guard
          let line = try self.nextLine(
            limit: self.limits.maxRequestLineLength,
            tooLong: .requestLineTooLong(limit: self.limits.maxRequestLineLength))
        else { return nil }
        if line.isEmpty {
          guard blankLines < Self.maxBlankLines else {
            throw .malformedRequestLine("more than \(Self.maxBlankLines) empty lines before it")
          }
          self.state = .requestLine(blankLines: blankLines + 1)
          continue
        }
        try self.readRequestLine(line)
        self.state = .headers
      case .headers, .trailers:
        // A line of `n` bytes costs n + 2 (its line end); the empty line ending the fields is
        // free.
        let budget = max(self.limits.maxHeaderBytes - self.headerBytes - 2, 0)
        guard
          let line = try self.nextLine(
            limit: budget, tooLong: .headersTooLarge(limit: self.limits.maxHeaderBytes))
        else { return nil }
        if line.isEmpty {
          if case .headers = self.state {
            try self.headersComplete()
          } else {
            return self.complete()
          }
          continue
        }
        self.headerBytes += line.count + 2
        self.headerCount += 1
        guard self.headerCount <= self.limits.maxHeaderCount else {
          throw .tooManyHeaders(limit: self.limits.maxHeaderCount)
        }
        let field = try Self.readField(line)
        if case .headers = self.state { self.headers.add(field.name, field.value) }
      case .body(let remaining):
        guard remaining > 0 else { return self.complete() }
        let taken = self.take(upTo: remaining)
        guard taken > 0 else { return nil }
        self.state = .body(remaining: remaining - taken)
      case .chunkSize:
        guard
          let line = try self.nextLine(
            limit: Self.maxChunkLineLength,
            tooLong: .malformedChunk(
              "a chunk-size line is longer than \(Self.maxChunkLineLength) bytes"))
        else { return nil }
        // Each chunk costs its size line and two line ends: bounded, so that a body of tiny
        // chunks with long extensions cannot make the parser work without end.
        self.chunkFraming += line.count + 4
        guard self.chunkFraming <= Self.maxChunkFraming else {
          throw .malformedChunk(
            "the chunk framing is larger than \(Self.maxChunkFraming) bytes (chunks too small)")
        }
        let size = try self.readChunkSize(line)
        self.state = size == 0 ? .trailers : .chunkData(remaining: size)
      case .chunkData(let remaining):
        let taken = self.take(upTo: remaining)
        guard taken > 0 else { return nil }
        self.state = remaining == taken ? .chunkDataEnd : .chunkData(remaining: remaining - taken)
      case .chunkDataEnd:
        guard
          try self.nextLine(
            limit: 0, tooLong: .malformedChunk("a chunk's data is longer than its size")) != nil
        else { return nil }
        self.state = .chunkSize
      }
    }
  }

  /// The next line without its line end, or `nil` when it has not arrived whole. Throws
  /// `tooLong` as soon as the line is known to be longer than `limit`.
  private mutating func nextLine(
    limit: Int, tooLong: HTTPParseError
  ) throws(HTTPParseError) -> ArraySlice<UInt8>? {
    let end = self.buffer.count
    var index = self.start + self.scanned
    while index < end, self.buffer[index] != 0x0A { index += 1 }
    guard index < end else {
      self.scanned = end - self.start
      // The line's text is at least the buffered bytes but a final CR.
      if self.scanned - 1 > limit { throw tooLong }
      return nil
    }
    var line = self.buffer[self.start..<index]
    if line.last == 0x0D { line = line.dropLast() }
    if line.count > limit { throw tooLong }
    self.start = index + 1
    self.scanned = 0
    return line
  }

  /// Moves up to `count` buffered bytes into the body; returns how many.
  private mutating func take(upTo count: Int) -> Int {
    let taken = min(count, self.buffer.count - self.start)
    guard taken > 0 else { return 0 }
    self.body.append(contentsOf: self.buffer[self.start..<(self.start + taken)])
    self.start += taken
    self.expectsContinue = false
    return taken
  }

  private mutating func complete() -> HTTPRequest {
    let request = HTTPRequest(
      method: self.method, target: self.target, version: self.version, headers: self.headers,
      body: self.body)
    self.method = ""
    self.target = ""
    self.headers = HTTPHeaders()
    self.headerBytes = 0
    self.headerCount = 0
    self.body = []
    self.chunkFraming = 0
    self.expectsContinue = false
    self.state = .requestLine(blankLines: 0)
    // Keep what follows (a pipelined request); drop what is consumed once it is most of the
    // buffer, so the copy is amortized.
    if self.start == self.buffer.count {
      self.buffer.removeAll(keepingCapacity: self.buffer.capacity <= 64 * 1024)
      self.start = 0
    } else if self.start > 4096 && self.start * 2 > self.buffer.count {
      self.buffer.removeFirst(self.start)
      self.start = 0
    }
    return request
  }
}

// MARK: - Lines

extension HTTPRequestParser {
  private mutating func readRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPParseError) {
    let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
    guard parts.count == 3, !parts.contains(where: \.isEmpty) else {
      throw .malformedRequestLine("expected 'METHOD /path HTTP/1.1' (three parts, one space apart)")
    }
    let (method, target, version) = (parts[0], parts[1], parts[2])
    // The version first: a client of another major version (an HTTP/2 preface) hears 505.
    self.version = try Self.readVersion(version)
    guard method.allSatisfy(ASCII.isTokenCharacter) else {
      throw .malformedRequestLine("the method is not a token")
    }
    guard target.allSatisfy({ (0x21...0x7E).contains($0) }) else {
      throw .malformedRequestLine("the target has a space, a control or a non-ASCII byte")
    }
    let methodText = String(decoding: method, as: UTF8.self)
    let targetText = String(decoding: target, as: UTF8.self)
    let isOrigin = target.first == UInt8(ascii: "/")
    let isAsterisk = targetText == "*" && methodText == "OPTIONS"
    let isAbsolute = HTTPRequest.splitAbsolute(targetText).map { !$0.authority.isEmpty } ?? false
    guard isOrigin || isAsterisk || isAbsolute else {
      throw .malformedRequestLine("the target must be a path starting with '/'")
    }
    self.method = methodText
    self.target = targetText
  }

  private static func readVersion(_ text: ArraySlice<UInt8>) throws(HTTPParseError) -> HTTPVersion {
    let bytes = Array(text)
    guard bytes.count == 8, bytes[0..<5].elementsEqual("HTTP/".utf8), bytes[6] == UInt8(ascii: "."),
      let major = ASCII.decimalDigit(bytes[5]), let minor = ASCII.decimalDigit(bytes[7])
    else {
      throw .malformedRequestLine("the version is not 'HTTP/1.1'")
    }
    let version = HTTPVersion(major: major, minor: minor)
    guard version == .http1_1 || version == .http1_0 else {
      throw .unsupportedVersion(version.description)
    }
    return version
  }

  private static func readField(
    _ line: ArraySlice<UInt8>
  ) throws(HTTPParseError) -> (name: String, value: String) {
    if line.first == 0x20 || line.first == 0x09 {
      throw .malformedHeader("a line starts with whitespace (obsolete line folding)")
    }
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
      throw .malformedHeader("a line has no ':'")
    }
    let name = line[line.startIndex..<colon]
    guard !name.isEmpty, name.allSatisfy(ASCII.isTokenCharacter) else {
      throw .malformedHeader("a field name is empty or not a token (no spaces before ':')")
    }
    var value = line[(colon + 1)...]
    while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
    while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
    guard value.allSatisfy({ $0 == 0x09 || (0x20...0x7E).contains($0) || $0 >= 0x80 }) else {
      throw .malformedHeader(
        "the value of '\(String(decoding: name, as: UTF8.self))' has a control byte")
    }
    return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
  }

  private mutating func readChunkSize(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> Int {
    let digits = line.prefix { ASCII.hexValue($0) != nil }
    guard !digits.isEmpty else { throw .malformedChunk("a chunk size is not a hexadecimal number") }
    let rest = line[digits.endIndex...].drop { $0 == 0x20 || $0 == 0x09 }
    guard rest.isEmpty || rest.first == UInt8(ascii: ";") else {
      throw .malformedChunk("a chunk size is followed by something other than ';'")
    }
    guard rest.allSatisfy({ $0 == 0x09 || $0 >= 0x20 && $0 != 0x7F }) else {
      throw .malformedChunk("a chunk extension has a control byte")
    }
    let significant = digits.drop { $0 == UInt8(ascii: "0") }
    guard significant.count <= 15 else { throw .bodyTooLarge(limit: self.limits.maxBodyBytes) }
    let size = significant.reduce(0) { $0 << 4 | ASCII.hexValue($1)! }
    guard size <= self.limits.maxBodyBytes - self.body.count else {
      throw .bodyTooLarge(limit: self.limits.maxBodyBytes)
    }
    return size
  }
}

// MARK: - Framing

extension HTTPRequestParser {
  /// Checks `Host`, `Expect` and the body's framing once the fields are read.
  private mutating func headersComplete() throws(HTTPParseError) {
    let hosts = self.headers.values("Host")
    if hosts.count > 1 { throw .badHost("more than one Host header field") }
    if hosts.isEmpty, self.version == .http1_1 {
      throw .badHost("an HTTP/1.1 request needs a Host header field")
    }
    if let host = hosts.first, !host.utf8.allSatisfy(Self.isHostCharacter) {
      throw .badHost("the Host header field is not a host name or address")
    }
    let lengths = self.headers.values("Content-Length")
    let codings = self.headers.tokens("Transfer-Encoding")
    let hasTransferEncoding = !self.headers.values("Transfer-Encoding").isEmpty
    var chunked = false
    var length = 0
    if hasTransferEncoding {
      guard self.version == .http1_1 else {
        throw .badFraming("Transfer-Encoding is not allowed in an HTTP/1.0 request")
      }
      guard lengths.isEmpty else {
        throw .badFraming("a request may not have both Content-Length and Transfer-Encoding")
      }
      if let other = codings.first(where: { $0 != "chunked" }) {
        throw .unsupportedTransferCoding(other)
      }
      guard codings.count == 1 else {
        throw .badFraming("Transfer-Encoding must name chunked once")
      }
      chunked = true
    } else if let first = lengths.first {
      guard lengths.allSatisfy({ $0 == first }) else {
        throw .badFraming("Content-Length header fields disagree")
      }
      guard !first.isEmpty, first.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
        throw .badContentLength(first)
      }
      let significant = first.utf8.drop { $0 == UInt8(ascii: "0") }
      guard significant.count <= 18 else { throw .bodyTooLarge(limit: self.limits.maxBodyBytes) }
      length = significant.reduce(0) { $0 * 10 + Int($1 - 0x30) }
      guard length <= self.limits.maxBodyBytes else {
        throw .bodyTooLarge(limit: self.limits.maxBodyBytes)
      }
    }
    if self.version == .http1_1, let expectation = self.headers["Expect"] {
      guard ASCII.lowercased(Substring(expectation)) == "100-continue" else {
        throw .unsupportedExpectation(expectation)
      }
      self.expectsContinue = chunked || length > 0
    }
    self.state = chunked ? .chunkSize : .body(remaining: length)
  }

  /// Characters of a `Host` value: a registered name, an IPv4 address or a bracketed IPv6 one,
  /// and a port.
  private static func isHostCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
      UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
      UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
      UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"),
      UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "%"):
      return true
    default: return false
    }
  }
}

extension ASCII {
  static func decimalDigit(_ byte: UInt8) -> Int? {
    (0x30...0x39).contains(byte) ? Int(byte - 0x30) : nil
  }
}
