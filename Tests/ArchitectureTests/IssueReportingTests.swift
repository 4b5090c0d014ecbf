import Testing

@testable import Architecture

/// A dependency client written by hand, as TCA's `@DependencyClient` expands.
private struct NumberClient: Sendable {
  var fetch: @Sendable (Int) async throws -> String = unimplemented("NumberClient.fetch")
  var parse: @Sendable (String) throws -> Int = unimplemented("NumberClient.parse")
  var isPrime: @Sendable (Int) async -> Bool = unimplemented(
    "NumberClient.isPrime", placeholder: false)
  var count: @Sendable () -> Int = unimplemented("NumberClient.count", placeholder: -1)
  var reset: @Sendable () async -> Void = unimplemented("NumberClient.reset")
  var log: @Sendable (String) -> Void = unimplemented("NumberClient.log")
  var save: @Sendable (Int) async throws -> Void = unimplemented("NumberClient.save")
}

private struct Failure: Error {}

/// `reportIssue`, `withErrorReporting` and `unimplemented`, as swift-issue-reporting (exported
/// by TCA) has them.
@Suite struct IssueReportingTests {
  @Test func anIssueIsRecordedAtTheCallSite() {
    let line = #line + 2
    withKnownIssue {
      reportIssue("Record meeting is the only element in the stack.")
    } matching: { issue in
      issue.comments.map(\.rawValue) == ["Record meeting is the only element in the stack."]
        && issue.sourceLocation?.line == line
    }
  }

  @Test func anErrorIsReportedWithItsMessage() {
    withKnownIssue {
      reportIssue(Failure(), "Saving failed")
    } matching: { issue in
      issue.comments.contains { $0.rawValue == "Saving failed\n\nCaught error: Failure()" }
    }
  }

  @Test func withErrorReportingReportsTheErrorAndReturnsNil() async {
    withKnownIssue {
      let value: Int? = withErrorReporting { throw Failure() }
      #expect(value == nil)
    } matching: { issue in
      issue.comments.contains { $0.rawValue == "Caught error: Failure()" }
    }
    #expect(withErrorReporting { 42 } == 42)
    let asyncValue: Int? = await withErrorReporting { () async throws -> Int in 7 }
    #expect(asyncValue == 7)
  }

  @Test func anUnimplementedEndpointReportsItsCallAndThrows() async {
    let client = NumberClient()
    await withKnownIssue {
      await #expect(throws: UnimplementedFailure.self) { try await client.fetch(42) }
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.hasPrefix("Unimplemented: 'NumberClient.fetch' was called.")
          && $0.rawValue.contains("Invoked with:\n    42")
      }
    }
    withKnownIssue {
      #expect(throws: UnimplementedFailure.self) { try client.parse("7") }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasPrefix("Unimplemented: 'NumberClient.parse'") }
    }
  }

  @Test func anUnimplementedEndpointWithAPlaceholderReturnsIt() async {
    let client = NumberClient()
    await withKnownIssue {
      #expect(await client.isPrime(7) == false)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasPrefix("Unimplemented: 'NumberClient.isPrime'") }
    }
    withKnownIssue {
      #expect(client.count() == -1)
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.hasPrefix("Unimplemented: 'NumberClient.count' was called.\n\nOverride")
      }
    }
  }

  @Test func anUnimplementedEndpointReturningNothingNeedsNoPlaceholder() async {
    let client = NumberClient()
    await withKnownIssue {
      await client.reset()
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasPrefix("Unimplemented: 'NumberClient.reset'") }
    }
    withKnownIssue {
      client.log("tapped")
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.hasPrefix("Unimplemented: 'NumberClient.log' was called.")
          && $0.rawValue.contains("\"tapped\"")
      }
    }
    // A throwing `Void` endpoint still throws.
    await withKnownIssue {
      await #expect(throws: UnimplementedFailure.self) { try await client.save(1) }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasPrefix("Unimplemented: 'NumberClient.save'") }
    }
  }

  @Test func anOverriddenEndpointReportsNothing() async throws {
    var client = NumberClient()
    client.fetch = { "\($0) is a number" }
    #expect(try await client.fetch(1) == "1 is a number")
  }
}
