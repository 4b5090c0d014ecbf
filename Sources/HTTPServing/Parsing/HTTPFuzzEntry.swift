// The HTTP fuzz target's entry point (Fuzz/HTTPFuzzMain.swift calls `fuzzHTTPRequest` for every
// input libFuzzer generates; Fuzz/run-http.sh builds it with the files of Messages/ and
// Parsing/ alone). It lives in the module so that `swift test` runs it over the seed corpus
// too (HTTPFuzzEntryTests).

/// Small limits, so that the fuzzer reaches every one of them.
let fuzzLimits = HTTPLimits(
  maxRequestLineLength: 200, maxHeaderCount: 8, maxHeaderBytes: 400, maxBodyBytes: 600)

/// Runs one input through the request parser, trapping on any inconsistency:
///
/// - the input read whole and read in chunks (of a size taken from its last byte) gives the
///   same requests and the same error — the outcome never depends on how bytes arrive;
/// - an error's status is one a client may be sent for its own mistake (never 500);
/// - every request writes back (``HTTPRequest/serialized()``) to bytes that read as the same
///   request, and its accessors (path, query, authority) never trap.
func fuzzHTTPRequest(_ data: UnsafeRawBufferPointer) {
  guard !data.isEmpty else { return }
  let whole = fuzzParse(data, chunk: data.count)
  let chunked = fuzzParse(data, chunk: Int(data[data.count - 1]) % 17 + 1)
  precondition(whole.requests == chunked.requests, "a split changed the requests read")
  precondition(
    whole.error == chunked.error,
    "a split changed the error: \(String(describing: whole.error)) vs \(String(describing: chunked.error))"
  )
  if let error = whole.error {
    precondition([400, 413, 414, 417, 431, 501, 505].contains(error.status.code))
    precondition(!error.description.isEmpty)
  }
  for request in whole.requests {
    _ = request.path
    _ = request.query
    _ = request.authority
    _ = request.keepAlive
    // Written back, a field value can be up to three times longer: bytes that are not UTF-8
    // read as U+FFFD, three bytes each. The request line is ASCII, and one Content-Length may
    // take the place of a Transfer-Encoding.
    var parser = HTTPRequestParser(
      limits: HTTPLimits(
        maxRequestLineLength: fuzzLimits.maxRequestLineLength,
        maxHeaderCount: fuzzLimits.maxHeaderCount,
        maxHeaderBytes: fuzzLimits.maxHeaderBytes * 3 + 32,
        maxBodyBytes: fuzzLimits.maxBodyBytes))
    parser.append(request.serialized())
    let again: HTTPRequest?
    do {
      again = try parser.nextRequest()
    } catch {
      preconditionFailure("a request written back does not read: \(error)")
    }
    guard let again else { preconditionFailure("a request written back is incomplete") }
    precondition(again.method == request.method && again.target == request.target)
    precondition(again.version == request.version && again.body == request.body)
    let unframed = { (headers: HTTPHeaders) in
      headers.fields.filter {
        let name = ASCII.lowercased(Substring($0.name))
        return name != "content-length" && name != "transfer-encoding"
      }.map { "\(ASCII.lowercased(Substring($0.name))): \($0.value)" }
    }
    precondition(unframed(again.headers) == unframed(request.headers))
  }
}

private func fuzzParse(
  _ data: UnsafeRawBufferPointer, chunk: Int
) -> (requests: [HTTPRequest], error: HTTPParseError?) {
  var parser = HTTPRequestParser(limits: fuzzLimits)
  var requests: [HTTPRequest] = []
  var offset = 0
  while offset < data.count {
    let end = min(data.count, offset + chunk)
    parser.append(UnsafeRawBufferPointer(rebasing: data[offset..<end]))
    offset = end
    do {
      while let request = try parser.nextRequest() { requests.append(request) }
    } catch {
      return (requests, error)
    }
  }
  return (requests, nil)
}
