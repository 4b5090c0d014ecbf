/// Orders valid names for a message about a name that is not one: the nearest first when it is
/// close (a typo, a prefix, a different case), else as declared.
///
/// ```swift
/// CaseSuggestions.ordered(["decrementButtonTapped", "incrementButtonTapped"], for: "increment")
/// // (nearest: "incrementButtonTapped", names: ["incrementButtonTapped", "decrementButtonTapped"])
/// ```
public enum CaseSuggestions {
  /// The names with the one nearest to `wrong` first when it is close enough to be what was
  /// meant, the others in their order.
  ///
  /// - Parameters:
  ///   - names: The valid names, in declaration order.
  ///   - wrong: The name given.
  /// - Returns: The nearest close name, if any, and every name in the order to list them.
  public static func ordered(_ names: [String], for wrong: String) -> (nearest: String?, names: [String]) {
    guard let nearest = self.nearest(names, to: wrong) else { return (nil, names) }
    return (nearest, [nearest] + names.filter { $0 != nearest })
  }

  /// The name most likely meant by `wrong`, or `nil` when none is close: the same ignoring
  /// case, one starting with or containing the other, or within a few edits (a third of the
  /// length, at least 2).
  public static func nearest(_ names: [String], to wrong: String) -> String? {
    let typed = wrong.lowercased()
    guard !typed.isEmpty else { return nil }
    var best: (name: String, score: Int)?
    for name in names {
      let candidate = name.lowercased()
      let score: Int
      if candidate == typed {
        score = 0
      } else if candidate.hasPrefix(typed) || typed.hasPrefix(candidate) {
        score = 1 + abs(candidate.count - typed.count) / 8
      } else if typed.count >= 3 && (candidate.contains(typed) || typed.contains(candidate)) {
        score = 2 + abs(candidate.count - typed.count) / 8
      } else {
        let distance = self.editDistance(Array(typed), Array(candidate))
        guard distance <= max(2, min(typed.count, candidate.count) / 3) else { continue }
        score = 3 + distance
      }
      if best == nil || score < best!.score { best = (name, score) }
    }
    return best?.name
  }

  /// The Levenshtein distance between two strings.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }

  /// `'a', 'b' and 'c'`, for messages; long lists end with `and N more`.
  ///
  /// - Parameters:
  ///   - names: The names.
  ///   - limit: How many to spell out.
  /// - Returns: The list in words.
  public static func list(_ names: [String], limit: Int = 12) -> String {
    let shown = names.prefix(limit).map { "'\($0)'" }
    let rest = names.count - shown.count
    if rest > 0 { return shown.joined(separator: ", ") + " and \(rest) more" }
    guard shown.count > 1 else { return shown.first ?? "" }
    return shown.dropLast().joined(separator: ", ") + " and " + shown[shown.count - 1]
  }
}
