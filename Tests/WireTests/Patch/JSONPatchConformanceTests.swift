import Foundation
import Testing
import Wire

/// Runs the json-patch-tests suite (github.com/json-patch/json-patch-tests) against
/// ``JSONPatch/apply(_:to:)``, both the returning and the in-place form.
///
/// The suite is read from the copy in the repository, `Tests/ConformanceData/json-patch-tests`
/// (see its README), or from `$CONFORMANCE_DATA/json-patch-tests`; a missing suite fails.
@Suite struct JSONPatchConformanceTests {
  static let directory: URL? = {
    var root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent()  // Patch
      .deletingLastPathComponent()  // WireTests
      .deletingLastPathComponent()  // Tests
      .appendingPathComponent("ConformanceData")
    if let override = ProcessInfo.processInfo.environment["CONFORMANCE_DATA"] {
      root = URL(fileURLWithPath: override)
    }
    let suite = root.appendingPathComponent("json-patch-tests")
    return FileManager.default.fileExists(atPath: suite.appendingPathComponent("tests.json").path)
      ? suite : nil
  }()

  @Test(arguments: ["tests.json", "spec_tests.json"])
  func passesEveryEnabledCase(file: String) throws {
    let url = try #require(
      Self.directory, "json-patch-tests is missing from Tests/ConformanceData (or $CONFORMANCE_DATA)"
    ).appendingPathComponent(file)
    guard case .array(let cases) = try PatchFixtures.parse(Data(contentsOf: url)) else {
      Issue.record("\(file) is not an array")
      return
    }
    var enabled = 0
    var passed = 0
    var disabled = 0
    var expectedErrors = 0
    for (index, testCase) in cases.enumerated() {
      guard case .object(let record) = testCase, let doc = record["doc"],
        let patch = record["patch"]
      else { continue }  // a comment-only record
      if record["disabled"] == .bool(true) {
        disabled += 1
        continue
      }
      enabled += 1
      let label = "\(file) #\(index): \(record["comment"].map(PatchFixtures.text) ?? "")"
      if record["error"] != nil { expectedErrors += 1 }
      if Self.check(doc: doc, patch: patch, expected: record["expected"], label: label) {
        passed += 1
      }
    }
    print(
      "json-patch-tests/\(file): \(passed) of \(enabled) passed "
        + "(\(expectedErrors) expected errors), \(disabled) disabled")
    #expect(enabled > 0)
    #expect(passed == enabled)
  }

  /// Whether the case passes; records an issue naming it if not.
  private static func check(doc: JSON, patch: JSON, expected: JSON?, label: String) -> Bool {
    let ops: [JSONPatchOperation]
    do {
      ops = try JSONPatch.operations(from: patch)
    } catch {
      // An error case may fail while decoding the operations ("missing 'value'").
      #expect(expected == nil, "\(label): unexpected error \(error)")
      return expected == nil
    }
    var inPlace = doc
    let inPlaceResult = Result { () throws(JSONPatchError) in
      try JSONPatch.apply(ops, to: &inPlace)
    }
    let returned = Result { () throws(JSONPatchError) in try JSONPatch.apply(ops, to: doc) }
    if let expected {
      switch (returned, inPlaceResult) {
      case (.success(let result), .success):
        #expect(result == expected, "\(label): got \(PatchFixtures.text(result))")
        #expect(inPlace == expected, "\(label): in place got \(PatchFixtures.text(inPlace))")
        return result == expected && inPlace == expected
      default:
        Issue.record("\(label): unexpected error \(returned) \(inPlaceResult)")
        return false
      }
    }
    guard case .failure = returned, case .failure = inPlaceResult else {
      Issue.record("\(label): expected an error, got \(returned) \(inPlaceResult)")
      return false
    }
    let unchanged = PatchFixtures.identicallyOrdered(inPlace, doc)
    #expect(unchanged, "\(label): failed in-place patch changed the document")
    return unchanged
  }
}
