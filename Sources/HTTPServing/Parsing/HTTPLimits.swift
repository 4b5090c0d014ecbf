/// The most a request may hold; ``HTTPRequestParser`` answers anything larger with the
/// status RFC 9110 names for it, before buffering more than the limit.
public struct HTTPLimits: Sendable, Hashable {
  /// The longest request line, in bytes (`414 URI Too Long` beyond it).
  public var maxRequestLineLength: Int
  /// The most header fields (`431 Request Header Fields Too Large` beyond it).
  public var maxHeaderCount: Int
  /// The most bytes of header fields, line ends included (`431` beyond it).
  public var maxHeaderBytes: Int
  /// The largest body, after chunked decoding (`413 Content Too Large` beyond it).
  public var maxBodyBytes: Int

  /// Describes limits.
  ///
  /// - Parameters:
  ///   - maxRequestLineLength: The longest request line.
  ///   - maxHeaderCount: The most header fields.
  ///   - maxHeaderBytes: The most bytes of header fields.
  ///   - maxBodyBytes: The largest body.
  public init(
    maxRequestLineLength: Int = 8 * 1024, maxHeaderCount: Int = 100,
    maxHeaderBytes: Int = 32 * 1024, maxBodyBytes: Int = 1 << 20
  ) {
    self.maxRequestLineLength = maxRequestLineLength
    self.maxHeaderCount = maxHeaderCount
    self.maxHeaderBytes = maxHeaderBytes
    self.maxBodyBytes = maxBodyBytes
  }
}
