/// The headers of a NATS message: an optional status (`NATS/1.0 503`, set by the server) and
/// fields in order, a name possibly repeated.
///
/// ```swift
/// var headers = NATSHeaders()
/// headers["Nats-Msg-Id"] = "host-7:42"
/// headers.append("Nats-Expected-Last-Sequence", "41")
/// headers["nats-msg-id"]   // "host-7:42": names match without regard to case
/// ```
///
/// On the wire (`HPUB`, `HMSG`) they are a block like HTTP/1's:
///
/// ```
/// NATS/1.0 503 No Responders\r\n
/// Nats-Msg-Id: host-7:42\r\n
/// \r\n
/// ```
///
/// The server answers with a status in a header block and no payload: 503 when nobody
/// subscribes to a request's subject; 100 for a push consumer's flow-control request or idle
/// heartbeat; 404, 408 and 409 for JetStream's direct gets and pull requests.
public struct NATSHeaders: Sendable, Equatable, Sequence {
  /// One header field.
  public struct Field: Sendable, Equatable {
    /// The name, as written.
    public var name: String
    /// The value, without surrounding spaces.
    public var value: String
  }

  /// The status code of the status line (`NATS/1.0 503`), or `nil`.
  public var status: Int?
  /// The text after the status code (`No Responders`), or empty.
  public var statusDescription: String
  /// The fields, in order.
  public private(set) var fields: [Field]

  /// Empty headers (no status, no field).
  public init() {
    self.status = nil
    self.statusDescription = ""
    self.fields = []
  }

  /// Headers with the given fields.
  ///
  /// - Parameter fields: Name and value pairs, in order.
  public init(_ fields: KeyValuePairs<String, String>) {
    self.init()
    for (name, value) in fields { self.append(name, value) }
  }

  /// Whether there is no status and no field.
  public var isEmpty: Bool { self.status == nil && self.fields.isEmpty }

  /// The first value of the field `name` (any case); assigning replaces every field of that
  /// name (`nil` removes them).
  public subscript(name: String) -> String? {
    get { self.fields.first { Self.namesMatch($0.name, name) }?.value }
    set {
      guard let newValue else {
        self.fields.removeAll { Self.namesMatch($0.name, name) }
        return
      }
      if let index = self.fields.firstIndex(where: { Self.namesMatch($0.name, name) }) {
        self.fields[index].value = newValue
        var later = index + 1
        while later < self.fields.count {
          if Self.namesMatch(self.fields[later].name, name) {
            self.fields.remove(at: later)
          } else {
            later += 1
          }
        }
      } else {
        self.fields.append(Field(name: name, value: newValue))
      }
    }
  }

  /// Every value of the field `name` (any case), in order.
  public func values(for name: String) -> [String] {
    self.fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
  }

  /// Adds a field, after those already there.
  public mutating func append(_ name: String, _ value: String) {
    self.fields.append(Field(name: name, value: value))
  }

  /// Iterates over the fields in order.
  public func makeIterator() -> IndexingIterator<[Field]> { self.fields.makeIterator() }

  private static func namesMatch(_ a: String, _ b: String) -> Bool {
    a.utf8.count == b.utf8.count && (a == b || a.lowercased() == b.lowercased())
  }

  // MARK: - Encoding

  /// What makes headers impossible to send: a name that is empty or holds a space, a colon or
  /// a control byte, or a value with CR or LF (either would inject protocol lines).
  public var encodingProblem: String? {
    if let status, !(100...999).contains(status) {
      return "the status \(status) is not a three-digit code"
    }
    if self.statusDescription.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) {
      return "the status description contains CR or LF"
    }
    for field in self.fields {
      if field.name.isEmpty
        || field.name.utf8.contains(where: { $0 <= 0x20 || $0 == 0x3A || $0 == 0x7F })
      {
        return "the header name \"\(field.name)\" is empty or contains a space, a colon or a control character"
      }
      if field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) {
        return "the value of header \(field.name) contains CR or LF"
      }
    }
    return nil
  }

  /// Appends the header block (status line, fields, empty line) to `buffer`. Check
  /// ``encodingProblem`` first: this writes what it is given.
  public func encode(into buffer: inout [UInt8]) {
    buffer.append(contentsOf: "NATS/1.0".utf8)
    if let status {
      buffer.append(0x20)
      buffer.append(contentsOf: String(status).utf8)
      if !self.statusDescription.isEmpty {
        buffer.append(0x20)
        buffer.append(contentsOf: self.statusDescription.utf8)
      }
    }
    buffer.append(contentsOf: [0x0D, 0x0A])
    for field in self.fields {
      buffer.append(contentsOf: field.name.utf8)
      buffer.append(contentsOf: [0x3A, 0x20])
      buffer.append(contentsOf: field.value.utf8)
      buffer.append(contentsOf: [0x0D, 0x0A])
    }
    buffer.append(contentsOf: [0x0D, 0x0A])
  }

  /// The encoded header block's size in bytes.
  public var encodedCount: Int {
    var count = 10 + 2  // "NATS/1.0\r\n" and the final "\r\n"
    if let status {
      count += 1 + String(status).utf8.count
      if !self.statusDescription.isEmpty { count += 1 + self.statusDescription.utf8.count }
    }
    for field in self.fields { count += field.name.utf8.count + 2 + field.value.utf8.count + 2 }
    return count
  }

  // MARK: - Parsing

  /// Reads a header block as a server delivers it in an `HMSG`.
  ///
  /// The block must start with `NATS/1.0`, optionally followed by a three-digit status and a
  /// description; each following line is `Name: value` (the name without spaces or control
  /// bytes; spaces around the value are dropped); an empty line ends it, and nothing may follow.
  ///
  /// - Parameter bytes: The header block, through its empty line.
  /// - Throws: ``NATSProtocolError`` with ``NATSProtocolError/Reason/malformedHeaders``.
  public init(parsing bytes: some Collection<UInt8>) throws(NATSProtocolError) {
    self.init()
    let block = Array(bytes)
    let fail = { NATSProtocolError(.malformedHeaders, excerpt: block) }
    let prefix = Array("NATS/1.0".utf8)
    guard block.count >= 12, block.starts(with: prefix),
      block[block.count - 4..<block.count].elementsEqual([0x0D, 0x0A, 0x0D, 0x0A])
    else { throw fail() }
    // Lines between the version and the final empty line, each ending with CRLF.
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    var index = 0
    while index < block.count - 2 {
      if block[index] == 0x0D {
        guard block[index + 1] == 0x0A else { throw fail() }
        lines.append(block[start..<index])
        start = index + 2
        index += 2
      } else {
        guard block[index] != 0x0A else { throw fail() }
        index += 1
      }
    }
    guard start == block.count - 2, let statusLine = lines.first else { throw fail() }
    try self.parseStatusLine(statusLine.dropFirst(prefix.count), fail: fail)
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: 0x3A) else { throw fail() }
      let name = line[line.startIndex..<colon]
      guard !name.isEmpty, !name.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
        throw fail()
      }
      var value = line[(colon + 1)...]
      while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
      while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
      guard !value.contains(where: { $0 < 0x20 && $0 != 0x09 }) else { throw fail() }
      self.fields.append(
        Field(
          name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)
        ))
    }
  }

  private mutating func parseStatusLine(
    _ rest: ArraySlice<UInt8>, fail: () -> NATSProtocolError
  ) throws(NATSProtocolError) {
    guard let first = rest.first else { return }
    guard first == 0x20 || first == 0x09 else { throw fail() }
    var remainder = rest.drop { $0 == 0x20 || $0 == 0x09 }
    let code = remainder.prefix { $0 >= 0x30 && $0 <= 0x39 }
    guard code.count == 3 else {
      if remainder.isEmpty { return }  // "NATS/1.0 " with trailing space only
      throw fail()
    }
    remainder = remainder.dropFirst(3)
    if let next = remainder.first, next != 0x20 && next != 0x09 { throw fail() }
    self.status = code.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    let description = remainder.drop { $0 == 0x20 || $0 == 0x09 }
    guard !description.contains(where: { $0 < 0x20 && $0 != 0x09 }) else { throw fail() }
    self.statusDescription = String(decoding: description, as: UTF8.self)
  }
}
