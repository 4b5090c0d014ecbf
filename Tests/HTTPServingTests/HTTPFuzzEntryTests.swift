import Foundation
import Testing

@testable import HTTPServing

/// Runs the HTTP fuzz target's entry point in the ordinary test suite: over the committed seed
/// corpus, and over deterministic random mutations of it (libFuzzer runs in Fuzz/run-http.sh).
@Suite struct HTTPFuzzEntryTests {
  static let corpus: [[UInt8]] = {
    let directory = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fuzz/http-corpus")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.sorted().compactMap {
      FileManager.default.contents(atPath: directory.appendingPathComponent($0).path).map(
        Array.init)
    }
  }()

  @Test func survivesTheSeedCorpus() {
    #expect(Self.corpus.count >= 5)
    for input in Self.corpus {
      input.withUnsafeBytes { fuzzHTTPRequest($0) }
    }
  }

  @Test func survivesRandomMutationsOfTheSeeds() {
    var generator = SplitMix64(seed: 8080)
    for round in 0..<3000 {
      var input = Self.corpus.isEmpty ? [] : Self.corpus[round % Self.corpus.count]
      for _ in 0..<Int.random(in: 0...8, using: &generator) {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0 where !input.isEmpty:
          input[Int.random(in: 0..<input.count, using: &generator)] = UInt8.random(
            in: 0...255, using: &generator)
        case 1:
          // Bytes HTTP gives meaning to, where a mutation most often changes the parse.
          let special = Array(" \r\n:;,0aF\t".utf8)
          input.insert(
            special[Int.random(in: 0..<special.count, using: &generator)],
            at: Int.random(in: 0...input.count, using: &generator))
        case 2 where !input.isEmpty:
          input.remove(at: Int.random(in: 0..<input.count, using: &generator))
        default:
          input += (0..<Int.random(in: 0...40, using: &generator)).map { _ in
            UInt8.random(in: 0...255, using: &generator)
          }
        }
      }
      input.withUnsafeBytes { fuzzHTTPRequest($0) }
    }
  }
}

/// A small deterministic generator, so that a failing mutation is the same on every run.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { self.state = seed }
  mutating func next() -> UInt64 {
    self.state &+= 0x9E37_79B9_7F4A_7C15
    var z = self.state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
