import Testing

@testable import Hosting

@Suite struct CRC32CTests {
  @Test func matchesTheStandardCheckValue() {
    // The check value of CRC-32C (RFC 3720, appendix B.4): the checksum of "123456789".
    #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
    #expect(CRC32C.checksum([]) == 0)
  }

  @Test func matchesTheISCSITestVectors() {
    // RFC 3720, B.4: 32 bytes of zeros, of ones, ascending and descending.
    #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
    #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
    #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
    #expect(CRC32C.checksum((0..<32).reversed().map { UInt8($0) }) == 0x113F_DB5C)
  }

  @Test(arguments: [0, 1, 7, 8, 9, 63, 100])
  func continuingOverPiecesEqualsTheWhole(split: Int) {
    let bytes = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    let whole = CRC32C.checksum(bytes)
    let first = CRC32C.checksum(Array(bytes[..<split]))
    #expect(CRC32C.checksum(Array(bytes[split...]), continuing: first) == whole)
  }

  @Test func detectsEveryFlippedBitOfARecord() {
    let bytes = Array("{\"incrementButtonTapped\":{}} counter 12345".utf8)
    let crc = CRC32C.checksum(bytes)
    for index in bytes.indices {
      for bit in 0..<8 {
        var flipped = bytes
        flipped[index] ^= 1 << bit
        #expect(CRC32C.checksum(flipped) != crc)
      }
    }
  }
}
