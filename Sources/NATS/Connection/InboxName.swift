/// Unique inbox subjects: `_INBOX.` followed by 22 random base-62 characters (131 bits), as the
/// other NATS clients make them, so that no two connections — or two consumers of one — share
/// reply subjects.
enum InboxName {
  private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

  /// A new random token of 22 characters.
  static func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    var bytes: [UInt8] = []
    bytes.reserveCapacity(22)
    for _ in 0..<22 { bytes.append(Self.alphabet[Int(generator.next(upperBound: UInt8(62)))]) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A new inbox subject under `prefix`.
  static func make(prefix: String) -> String { prefix + "." + Self.randomToken() }
}
