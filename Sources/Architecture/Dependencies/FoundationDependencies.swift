#if canImport(FoundationEssentials)
  import FoundationEssentials
  import FoundationInternationalization
#else
  import Foundation
#endif

/// The calendar, locale and time zone features should compute dates with, as swift-dependencies
/// has them: the user's current ones live; in tests, unless overridden, the first read reports
/// "Unimplemented" (a test failure in a test store) and returns the current one, so that a test
/// never depends on the machine's settings by accident.
///
/// ```swift
/// @Dependency(\.calendar) var calendar
/// let startOfDay = calendar.startOfDay(for: now)
///
/// // in the test:
/// $0.calendar = Calendar(identifier: .gregorian)
/// ```
extension DependencyValues {
  /// The calendar to compute dates with: `Calendar.autoupdatingCurrent` live.
  public var calendar: Calendar {
    get { self[CalendarKey.self] }
    set { self[CalendarKey.self] = newValue }
  }

  /// The locale to format with: `Locale.autoupdatingCurrent` live.
  public var locale: Locale {
    get { self[LocaleKey.self] }
    set { self[LocaleKey.self] = newValue }
  }

  /// The time zone to compute dates in: `TimeZone.autoupdatingCurrent` live.
  public var timeZone: TimeZone {
    get { self[TimeZoneKey.self] }
    set { self[TimeZoneKey.self] = newValue }
  }
}

/// Reports that a Foundation dependency was read in a test without being overridden.
private func reportUnimplemented(_ name: String) {
  DependencyValues._effective.runtimeWarnings(
    "Unimplemented: @Dependency(\\.\(name)) was read in a test context. Override it in the"
      + " test's dependencies (withDependencies { $0.\(name) = … }) so that the test does not"
      + " depend on this machine's settings.")
}

private enum CalendarKey: DependencyKey {
  static let liveValue = Calendar.autoupdatingCurrent
  static var testValue: Calendar {
    reportUnimplemented("calendar")
    return .autoupdatingCurrent
  }
}

private enum LocaleKey: DependencyKey {
  static let liveValue = Locale.autoupdatingCurrent
  static var testValue: Locale {
    reportUnimplemented("locale")
    return .autoupdatingCurrent
  }
}

private enum TimeZoneKey: DependencyKey {
  static let liveValue = TimeZone.autoupdatingCurrent
  static var testValue: TimeZone {
    reportUnimplemented("timeZone")
    return .autoupdatingCurrent
  }
}
