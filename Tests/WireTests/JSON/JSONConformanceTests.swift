import Foundation
import Testing

@testable import Wire

/// Locates JSONTestSuite's `test_parsing` folder: `$CONFORMANCE_DATA/JSONTestSuite`, or the
/// copy in the repository, `Tests/ConformanceData/JSONTestSuite` (see its README).
enum JSONTestSuite {
  static let directory: URL? = {
    var root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("ConformanceData")
    if let override = ProcessInfo.processInfo.environment["CONFORMANCE_DATA"] {
      root = URL(fileURLWithPath: override)
    }
    let parsing = root.appendingPathComponent("JSONTestSuite/test_parsing")
    return FileManager.default.fileExists(atPath: parsing.path) ? parsing : nil
  }()

  /// The cases whose file name starts with `prefix`, sorted, with their bytes.
  static func cases(_ prefix: String) throws -> [(name: String, bytes: [UInt8])] {
    let directory = try #require(
      directory, "JSONTestSuite is missing from Tests/ConformanceData (or $CONFORMANCE_DATA)")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }
      .sorted()
    return try names.map { name in
      (name, [UInt8](try Data(contentsOf: directory.appendingPathComponent(name))))
    }
  }
}

@Suite struct JSONConformanceTests {
  @Test
  func acceptsEveryYCaseAndRoundTripsIt() throws {
    let cases = try JSONTestSuite.cases("y_")
    #expect(cases.count == 95)
    var rejected: [String] = []
    for (name, bytes) in cases {
      do {
        let value = try JSON(parsing: bytes)
        let reparsed = try JSON(parsing: value.serialized())
        #expect(reparsed == value, "\(name) does not round-trip")
        #expect(reparsed.serialized() == value.serialized(), "\(name) serializes unstably")
      } catch {
        rejected.append("\(name): \(error)")
      }
    }
    #expect(rejected.isEmpty, "rejected y_ cases:\n\(rejected.joined(separator: "\n"))")
    print("JSONTestSuite: \(cases.count - rejected.count)/\(cases.count) y_ cases accepted")
  }

  @Test
  func rejectsEveryNCase() throws {
    let cases = try JSONTestSuite.cases("n_")
    #expect(cases.count == 188)
    var accepted: [String] = []
    for (name, bytes) in cases {
      if let value = try? JSON(parsing: bytes) {
        accepted.append("\(name) → \(value.compactString)")
      }
    }
    #expect(accepted.isEmpty, "accepted n_ cases:\n\(accepted.joined(separator: "\n"))")
    print("JSONTestSuite: \(cases.count - accepted.count)/\(cases.count) n_ cases rejected")
  }

  @Test
  func survivesEveryICaseAndReportsWhichItAccepts() throws {
    let cases = try JSONTestSuite.cases("i_")
    #expect(cases.count == 35)
    var accepted: [String] = []
    var rejected: [String] = []
    for (name, bytes) in cases {
      do {
        let value = try JSON(parsing: bytes)
        // Whatever is accepted must still serialize to JSON that parses back equal.
        #expect(try JSON(parsing: value.serialized()) == value, "\(name) does not round-trip")
        accepted.append(name)
      } catch {
        rejected.append("\(name) (\(error))")
      }
    }
    print("JSONTestSuite i_ accepted (\(accepted.count)): \(accepted.joined(separator: ", "))")
    print("JSONTestSuite i_ rejected (\(rejected.count)):\n  \(rejected.joined(separator: "\n  "))")
  }
}
