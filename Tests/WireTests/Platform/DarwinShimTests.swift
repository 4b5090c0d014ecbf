import Foundation
import Testing

/// The Darwin halves of the platform shims are never compiled on Linux; this type-checks them
/// against Tests/DarwinStandIn, a stand-in `Darwin` module that restates the macOS SDK's
/// declarations they use (see its typecheck.sh).
@Suite(.timeLimit(.minutes(5))) struct DarwinShimTests {
  @Test func typeCheckAgainstTheStandInDarwinModule() throws {
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let script = root.appendingPathComponent("Tests/DarwinStandIn/typecheck.sh")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [script.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(text)")
  }
}
