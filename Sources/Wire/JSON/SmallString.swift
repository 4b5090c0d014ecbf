/// Builds short ASCII strings without the standard library's validation pass.
///
/// Most JSON keys and many values are short ASCII strings, which Swift stores inline in the
/// `String` itself (no allocation). `String(decoding:as:)` spends most of its time re-checking
/// bytes the parser has already checked, so for up to 15 bytes known to be ASCII this writes the
/// same two words directly.
///
/// > Important: The layout is ABI (`_StringObject` is frozen on 64-bit platforms), and
/// > ``isAvailable`` verifies it once at run time against strings the standard library built,
/// > falling back to `String(decoding:as:)` on any platform where it differs.
enum SmallString {
  /// Whether ``make(_:_:)`` produces bit-identical strings on this platform.
  static let isAvailable: Bool = {
    guard MemoryLayout<String>.size == 16 else { return false }
    let sample = Array("0123456789abcdef".utf8)
    // The writer also reads small non-ASCII strings: discriminator 0xA, then the count.
    let nonASCII = String(decoding: [0xC3, 0xA9], as: UTF8.self)
    guard unsafeBitCast(nonASCII, to: (UInt64, UInt64).self) == (0xA9C3, 0xA200_0000_0000_0000)
    else { return false }
    return sample.withUnsafeBufferPointer { buffer in
      (0...15).allSatisfy { count in
        let expected = String(
          decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        let built = Self.make(buffer.baseAddress.unsafelyUnwrapped, count)
        return unsafeBitCast(expected, to: (UInt64, UInt64).self)
          == unsafeBitCast(built, to: (UInt64, UInt64).self)
      }
    }
  }()

  /// The string of `count` (at most 15) ASCII bytes at `bytes`; check ``isAvailable`` first.
  @inline(__always)
  static func make(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> String {
    let words = Self.words(bytes, count)
    return Self.make(low: words.low, high: words.high, count: count)
  }

  /// The string of `count` ASCII bytes at `bytes`, built by ``make(_:_:)`` when it can be.
  static func ascii(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> String {
    count <= 15 && Self.isAvailable
      ? Self.make(bytes, count)
      : String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// The string of `count` (at most 15) ASCII bytes given as two words holding byte `i` at
  /// bits `8i..<8i+8` and zeros past `count`; check ``isAvailable`` first.
  @inline(__always)
  static func make(low: UInt64, high: UInt64, count: Int) -> String {
    // Discriminator nibble 0xE: immortal, ASCII, small; then the count.
    let tagged = high | (0xE0 | UInt64(truncatingIfNeeded: count)) << 56
    // Written as raw bytes into uninitialized `String` memory and moved out: `unsafeBitCast`
    // would give an unowned value that the caller then copies with a (useless, since small
    // strings own nothing) `swift_bridgeObjectRetain`.
    return withUnsafeTemporaryAllocation(of: String.self, capacity: 1) { buffer in
      let pointer = buffer.baseAddress.unsafelyUnwrapped
      let raw = UnsafeMutableRawPointer(pointer)
      raw.storeBytes(of: UInt64(littleEndian: low), as: UInt64.self)
      raw.storeBytes(of: UInt64(littleEndian: tagged), toByteOffset: 8, as: UInt64.self)
      return pointer.move()
    }
  }

  /// Up to 16 bytes as two little-endian words, zero-filled past `count`.
  @inline(__always)
  static func words(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> (low: UInt64, high: UInt64) {
    var words: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &words) { raw in
      raw.baseAddress.unsafelyUnwrapped.copyMemory(from: bytes, byteCount: Swift.min(count, 16))
    }
    return (UInt64(littleEndian: words.0), UInt64(littleEndian: words.1))
  }
}
