/// CRC-32C (Castagnoli, reflected polynomial `0x82F63B78`), the checksum of every journal
/// record and snapshot: it detects every burst error up to 32 bits and every odd number of
/// flipped bits, and is the checksum of iSCSI, ext4 metadata and many journals.
///
/// Computed eight bytes at a time with eight lookup tables ("slicing-by-8"), about 1 byte per
/// cycle: a 60-byte record costs tens of nanoseconds.
///
/// ```swift
/// CRC32C.checksum(Array("123456789".utf8))   // 0xE306_9283
/// ```
enum CRC32C {
  /// The reflected Castagnoli polynomial.
  static var polynomial: UInt32 { 0x82F6_3B78 }

  /// The eight 256-entry tables, one after the other: table `k` advances a CRC by one byte
  /// followed by `k` zero bytes.
  ///
  /// Allocated once for the life of the process and never written after this initializer, so
  /// reading it from any thread is safe; it is never freed, so the pointer never dangles.
  nonisolated(unsafe) private static let tables: UnsafePointer<UInt32> = {
    let tables = UnsafeMutablePointer<UInt32>.allocate(capacity: 8 * 256)
    for byte in 0..<256 {
      var crc = UInt32(byte)
      for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ polynomial : crc >> 1 }
      tables[byte] = crc
    }
    for table in 1..<8 {
      for byte in 0..<256 {
        let previous = tables[(table - 1) * 256 + byte]
        tables[table * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
      }
    }
    return UnsafePointer(tables)
  }()

  /// The checksum of `bytes`, continuing from `crc` (the checksum of the bytes before them).
  static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
    let t = self.tables
    var crc = ~crc
    guard var pointer = bytes.baseAddress else { return ~crc }
    var remaining = bytes.count
    while remaining >= 8 {
      let word = UInt64(littleEndian: pointer.loadUnaligned(as: UInt64.self))
      let low = UInt32(truncatingIfNeeded: word) ^ crc
      let high = UInt32(truncatingIfNeeded: word &>> 32)
      crc =
        t[7 &* 256 &+ Int(low & 0xFF)] ^ t[6 &* 256 &+ Int((low &>> 8) & 0xFF)]
        ^ t[5 &* 256 &+ Int((low &>> 16) & 0xFF)] ^ t[4 &* 256 &+ Int(low &>> 24)]
        ^ t[3 &* 256 &+ Int(high & 0xFF)] ^ t[2 &* 256 &+ Int((high &>> 8) & 0xFF)]
        ^ t[256 &+ Int((high &>> 16) & 0xFF)] ^ t[Int(high &>> 24)]
      pointer += 8
      remaining &-= 8
    }
    while remaining > 0 {
      crc = t[Int((crc ^ UInt32(pointer.load(as: UInt8.self))) & 0xFF)] ^ (crc &>> 8)
      pointer += 1
      remaining &-= 1
    }
    return ~crc
  }

  /// The checksum of `bytes`, continuing from `crc`.
  static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
    bytes.withUnsafeBytes { self.checksum($0, continuing: crc) }
  }
}
