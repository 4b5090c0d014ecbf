/// Text for alerts, dialogs and buttons, as data: equatable and codable, so that features and
/// tests can describe what is shown without a UI framework.
///
/// ```swift
/// TextState("Delete \(item.name)?")
/// TextState("Unsaved changes").bold() + TextState(" will be lost.")
/// String(state: title)   // "Unsaved changes will be lost."
/// ```
///
/// TCA's `TextState` can also carry SwiftUI fonts and colors; with no SwiftUI here it carries
/// plain text and the styles a text-only client can render: bold, italic, underline,
/// strikethrough and monospaced. Text is kept as runs of equally styled characters, merged
/// where they meet, so `TextState("a") + TextState("b") == TextState("ab")`.
///
/// ## JSON
///
/// Plain text is a JSON string (`"Delete"`); styled text is an array of runs, each with its
/// styles: `[{"styles":["bold"],"text":"Unsaved changes"},{"text":" will be lost."}]`.
public struct TextState: Hashable, Sendable {
  /// A style a run of text may have.
  enum Style: String, CaseIterable, Codable, Hashable, Sendable, Comparable {
    case bold, italic, monospaced, strikethrough, underline

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// Characters sharing one set of styles.
  struct Run: Hashable, Sendable {
    var text: String
    var styles: Set<Style>
  }

  private(set) var runs: [Run]

  init(runs: [Run]) {
    var merged: [Run] = []
    for run in runs where !run.text.isEmpty {
      if let last = merged.last, last.styles == run.styles {
        merged[merged.count - 1].text += run.text
      } else {
        merged.append(run)
      }
    }
    self.runs = merged
  }

  /// Text showing a string as it is.
  ///
  /// - Parameter content: The text.
  public init(verbatim content: String) {
    self.init(runs: [Run(text: content, styles: [])])
  }

  /// Text showing a string (there is no localization here: the string is shown as it is).
  ///
  /// - Parameter content: The text.
  @_disfavoredOverload
  public init(_ content: some StringProtocol) {
    self.init(verbatim: String(content))
  }

  /// Joins two texts, each keeping its styles.
  ///
  /// - Parameters:
  ///   - lhs: The first text.
  ///   - rhs: The text after it.
  /// - Returns: Both, one after the other.
  public static func + (lhs: Self, rhs: Self) -> Self {
    Self(runs: lhs.runs + rhs.runs)
  }

  private func styled(_ style: Style, _ isActive: Bool) -> Self {
    Self(
      runs: self.runs.map { run in
        var run = run
        if isActive { run.styles.insert(style) } else { run.styles.remove(style) }
        return run
      })
  }

  /// The text in bold.
  ///
  /// - Parameter isActive: Whether to apply (or remove) the style.
  /// - Returns: The styled text.
  public func bold(_ isActive: Bool = true) -> Self { self.styled(.bold, isActive) }

  /// The text in italics.
  ///
  /// - Parameter isActive: Whether to apply (or remove) the style.
  /// - Returns: The styled text.
  public func italic(_ isActive: Bool = true) -> Self { self.styled(.italic, isActive) }

  /// The text in a fixed-width font.
  ///
  /// - Parameter isActive: Whether to apply (or remove) the style.
  /// - Returns: The styled text.
  public func monospaced(_ isActive: Bool = true) -> Self { self.styled(.monospaced, isActive) }

  /// The text struck through.
  ///
  /// - Parameter isActive: Whether to apply (or remove) the style.
  /// - Returns: The styled text.
  public func strikethrough(_ isActive: Bool = true) -> Self {
    self.styled(.strikethrough, isActive)
  }

  /// The text underlined.
  ///
  /// - Parameter isActive: Whether to apply (or remove) the style.
  /// - Returns: The styled text.
  public func underline(_ isActive: Bool = true) -> Self { self.styled(.underline, isActive) }
}

extension String {
  /// The characters of a text state, without its styles.
  ///
  /// ```swift
  /// String(state: TextState("Delete").bold())   // "Delete"
  /// ```
  ///
  /// - Parameter state: The text.
  public init(state: TextState) {
    self = state.runs.map(\.text).joined()
  }
}

extension TextState: CustomStringConvertible, CustomReflectable {
  /// The text quoted, with its styles: `"Delete"`, `"Delete".bold() + " all"`.
  public var description: String {
    guard !self.runs.isEmpty else { return "\"\"" }
    return self.runs.map { run in
      String(reflecting: run.text) + run.styles.sorted().map { ".\($0.rawValue)()" }.joined()
    }.joined(separator: " + ")
  }

  /// Reflects as its ``description``, so that test failures show the text.
  public var customMirror: Mirror {
    Mirror(self, children: [:])
  }
}

extension TextState: Codable {
  private struct CodedRun: Codable {
    var styles: [Style]?
    var text: String
  }

  /// Decodes a JSON string, or an array of styled runs.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let text = try? container.decode(String.self) {
      self.init(verbatim: text)
    } else {
      let runs = try container.decode([CodedRun].self)
      self.init(runs: runs.map { Run(text: $0.text, styles: Set($0.styles ?? [])) })
    }
  }

  /// Encodes plain text as a JSON string, styled text as an array of runs.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if self.runs.allSatisfy(\.styles.isEmpty) {
      try container.encode(String(state: self))
    } else {
      try container.encode(
        self.runs.map {
          CodedRun(styles: $0.styles.isEmpty ? nil : $0.styles.sorted(), text: $0.text)
        })
    }
  }
}
