import Foundation
import Testing

@testable import Wire

/// Runs the fuzz target's entry point in the ordinary test suite: over the committed seed
/// corpus, and over deterministic random mutations of it (libFuzzer runs in Fuzz/run.sh).
@Suite struct FuzzEntryTests {
  static let corpus: [[UInt8]] = {
    let directory = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.sorted().compactMap {
      FileManager.default.contents(atPath: directory.appendingPathComponent($0).path).map(
        Array.init)
    }
  }()

  @Test func survivesTheSeedCorpus() {
    #expect(Self.corpus.count >= 5)
    for input in Self.corpus {
      input.withUnsafeBytes { fuzzOne($0) }
    }
  }

  @Test func survivesRandomMutationsOfTheSeeds() {
    var rng = SplitMix64(seed: 2024)
    for round in 0..<3000 {
      var input = Self.corpus.isEmpty ? [] : Self.corpus[round % Self.corpus.count]
      for _ in 0..<Int.random(in: 0...8, using: &rng) {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0 where !input.isEmpty:
          input[Int.random(in: 0..<input.count, using: &rng)] = UInt8.random(
            in: 0...255, using: &rng)
        case 1:
          input.insert(
            UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...input.count, using: &rng)
          )
        case 2 where !input.isEmpty:
          input.remove(at: Int.random(in: 0..<input.count, using: &rng))
        default:
          input += (0..<Int.random(in: 0...40, using: &rng)).map { _ in
            UInt8.random(in: 0...255, using: &rng)
          }
        }
      }
      input.withUnsafeBytes { fuzzOne($0) }
    }
  }

  @Test func decodesTheRecipeIntoMessageShapedValues() {
    // The structural generator must actually reach the decoders' success paths.
    var decoded = 0
    var rng = SplitMix64(seed: 7)
    for _ in 0..<2000 {
      let bytes = (0..<64).map { _ in UInt8.random(in: 0...255, using: &rng) }
      bytes.withUnsafeBytes { raw in
        var recipe = FuzzJSONRecipe(raw)
        while let json = recipe.nextMessage() {
          if (try? ClientMessage(json: json)) != nil || (try? HostMessage(json: json)) != nil {
            decoded += 1
          }
        }
      }
    }
    #expect(decoded > 50)
  }
}
