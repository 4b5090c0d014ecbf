// The daemon's only platform-specific code: stderr.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Output helpers.
enum Terminal {
  /// Writes to stderr in one `write(2)`.
  static func writeError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
  }
}
