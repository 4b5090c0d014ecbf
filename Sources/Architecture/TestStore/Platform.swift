#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The only place that touches the C library for test support: run-time symbol lookup (to find
/// the test frameworks without linking them) and unbuffered writes to standard error.
enum _TestPlatform {
  /// The address of a symbol of the running process (its executable and the libraries it has
  /// loaded), or `nil` when there is none.
  ///
  /// - Parameter name: The symbol's linkage name.
  static func symbol(named name: String) -> UnsafeMutableRawPointer? {
    #if canImport(Darwin)
      return dlsym(UnsafeMutableRawPointer(bitPattern: -2), name)  // RTLD_DEFAULT
    #else
      // The main program's handle: searches the executable and every global library. It is
      // never closed (closing the program's own handle is a no-op anyway).
      guard let handle = dlopen(nil, RTLD_NOW) else { return nil }
      return dlsym(handle, name)
    #endif
  }

  /// Writes text to standard error at once (no stdio buffering, so it interleaves in order with
  /// the test runner's own output).
  static func writeToStandardError(_ text: String) {
    var bytes = Array(text.utf8)
    bytes.withUnsafeMutableBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(2, buffer.baseAddress! + offset, buffer.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0 && errno == EINTR {
          continue
        } else {
          return
        }
      }
    }
  }
}
