/// The servers a connection may use, and when each may be tried next.
struct NATSServerPool {
  struct Entry {
    var url: NATSServerURL
    /// Learnt from a server's `connect_urls`, not configured.
    var isImplicit: Bool
    /// Consecutive failed attempts.
    var failures = 0
    var lastAttempt: ContinuousClock.Instant?
  }

  enum Choice: Equatable {
    /// Try this entry now.
    case now(Int)
    /// No server may be tried before this delay.
    case after(Duration)
    /// Every server has used up its attempts.
    case exhausted
  }

  private(set) var entries: [Entry]
  /// The entry tried last; the search for the next starts after it.
  private var cursor: Int

  init(urls: [NATSServerURL], randomize: Bool) {
    var unique: [NATSServerURL] = []
    for url in urls where !unique.contains(where: { $0.sameServer(as: url) }) { unique.append(url) }
    if randomize { unique.shuffle() }
    self.entries = unique.map { Entry(url: $0, isImplicit: false) }
    self.cursor = self.entries.count - 1
  }

  /// The next server to try: the first after the last one tried that may be tried again.
  func next(now: ContinuousClock.Instant, wait: Duration, maxAttempts: Int?) -> Choice {
    guard !self.entries.isEmpty else { return .exhausted }
    var earliest: ContinuousClock.Instant?
    for step in 1...self.entries.count {
      let index = (self.cursor + step) % self.entries.count
      let entry = self.entries[index]
      if let maxAttempts, entry.failures >= maxAttempts { continue }
      guard let last = entry.lastAttempt else { return .now(index) }
      let eligible = last + wait
      if eligible <= now { return .now(index) }
      if earliest == nil || eligible < earliest! { earliest = eligible }
    }
    guard let earliest else { return .exhausted }
    return .after(now.duration(to: earliest))
  }

  mutating func recordAttempt(_ index: Int, at now: ContinuousClock.Instant) {
    self.cursor = index
    self.entries[index].lastAttempt = now
  }

  mutating func recordFailure(_ index: Int) {
    guard self.entries.indices.contains(index) else { return }
    self.entries[index].failures += 1
  }

  mutating func recordSuccess(_ index: Int) {
    guard self.entries.indices.contains(index) else { return }
    self.entries[index].failures = 0
  }

  /// Adds the servers a server advertised (`host:port`), with the credentials of `current`.
  mutating func add(connectURLs: [String], credentialsFrom current: NATSServerURL) {
    for text in connectURLs {
      guard var url = try? NATSServerURL(text),
        !self.entries.contains(where: { $0.url.sameServer(as: url) })
      else { continue }
      url.user = current.user
      url.password = current.password
      url.token = current.token
      self.entries.append(Entry(url: url, isImplicit: true))
    }
  }
}
