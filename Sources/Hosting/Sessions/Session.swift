import Wire

/// One client connection's protocol state. Confined to the host's event loop.
///
/// The properties the push path touches per watcher are `@exclusivity(unchecked)`: they are
/// only ever accessed on the loop thread, by the host's own synchronous code, which never
/// holds an `inout` access to one across a call that could reach it again — so the dynamic
/// check (a thread-local access-set insert per access, measured at ~13 % of a 100-watcher
/// fan-out's instructions) could never fire.
@usableFromInline
final class Session<State, Action> {
  @usableFromInline
  enum Phase {
    /// Only `hello` is accepted.
    case awaitingHello
    /// The handshake is done.
    case open
    /// An error or `bye` was queued; nothing more is read or pushed.
    case closing
  }

  @usableFromInline let id: Int
  @usableFromInline let channel: any ClientChannel
  @usableFromInline let processID: Int32
  @usableFromInline let userID: UInt32
  /// What the connection may do, as the access policy decided when it was accepted
  /// (read-only until then: a session that was never admitted cannot send).
  @usableFromInline var role = AccessRole.readOnly
  @exclusivity(unchecked) @usableFromInline var phase = Phase.awaitingHello
  /// When the connection was accepted (monotonic seconds), for the hello timeout.
  let acceptedAt = Platform.monotonicSeconds()
  @usableFromInline var decoder: FrameDecoder
  @usableFromInline var clientName: String?

  @usableFromInline var subscriptions: [Int64: Subscription<State, Action>] = [:] {
    didSet {
      self.tally.add(self.subscriptions.count - oldValue.count)
      self.orderedSubscriptions = self.subscriptions.values.sorted { $0.id < $1.id }
    }
  }
  /// ``subscriptions`` in the order they were made (by id), kept for the push path: rebuilt
  /// when a subscription comes or goes, read on every push.
  @exclusivity(unchecked) @usableFromInline
  private(set) var orderedSubscriptions: [Subscription<State, Action>] = []
  /// The host's count of subscriptions over all sessions.
  let tally: SubscriptionTally
  var nextSubscriptionID: Int64 = 1
  /// The connection's `tail`s (PROTOCOL.md §8), in the order they were opened (by id). They
  /// share the subscription ids and count against the subscription limit.
  var tails: [Tail] = []
  /// Whether the connection has a tail open.
  @usableFromInline var hasTails: Bool { !self.tails.isEmpty }
  /// Whether tails stopped short because the client was not reading (resumed on drain).
  var needsTailPump = false
  /// A `get` with `at` whose past state is being rebuilt off the loop: the connection's later
  /// requests wait in its decoder (and reading pauses) until it is answered, so replies keep
  /// the order of requests.
  var pendingPastState: PendingPastState<State, Action>?

  /// A `history` request, or a tail's backfill, whose entries are being read from disk (a
  /// durable host's journal): the connection's later requests wait, as for a past state.
  var pendingHistoryRead: PendingHistoryRead?

  /// Whether a `get` with `at` of this connection, or a read of its history from disk, is
  /// being answered.
  @usableFromInline var isAwaitingPastState: Bool {
    self.pendingPastState != nil || self.pendingHistoryRead != nil
  }

  /// Frames ready to be written, in order.
  @exclusivity(unchecked) @usableFromInline var output: [UInt8] = []
  /// Replies held back until the pushes they must follow have been computed (read your
  /// writes), so a batch of pipelined requests costs one round of diffs, not one per reply.
  @exclusivity(unchecked) @usableFromInline var heldReplies: [UInt8] = []
  /// The most bytes handed to the channel in one write: what its outbound buffer may hold
  /// when the connection closes (noted for ``MemoryReclaimer``).
  @exclusivity(unchecked) @usableFromInline var largestWrite = 0
  /// The journal position this session's output waits for (durable hosts: its acks leave
  /// once the records up to there are written; see ``AckGate``).
  @exclusivity(unchecked) @usableFromInline var journalPosition: UInt64 = 0
  /// Whether the ``AckGate`` holds this session's output.
  @exclusivity(unchecked) @usableFromInline var isParked = false
  /// Whether pushes were skipped because the client was not reading.
  var needsSync = false
  /// Whether reading is paused for backpressure.
  @usableFromInline var isReadingPaused = false
  /// The scope this connection last sent to, resolved, and the action it last sent there,
  /// decoded: a client repeating a send skips the lookup and the `Decodable` decoding (both
  /// pure functions of the scope's name and the action's JSON; existence is still checked).
  @usableFromInline var sendCache: SendCache?

  // Input accounting, kept by ``InputBudget``.

  /// Bytes read from this connection.
  @exclusivity(unchecked) @usableFromInline var bytesReceived: Int64 = 0
  /// The bytes of unfinished frames this session holds, as last counted in the host's budget.
  @exclusivity(unchecked) @usableFromInline var bufferedBytes = 0
  /// ``bytesReceived`` when the stall check last saw it move, and when (monotonic seconds).
  var progressMark: Int64 = 0
  var progressAt: Double = 0

  @usableFromInline
  struct SendCache {
    @usableFromInline let name: String
    @usableFromInline let bound: BoundScope<State, Action>
    @usableFromInline var actionJSON: JSON?
    @usableFromInline var action: Action?

    @usableFromInline
    init(name: String, bound: BoundScope<State, Action>) {
      self.name = name
      self.bound = bound
    }

    /// Remembers `action`, decoded from `json`, for the next identical send — only when it is
    /// small (at most ``maxCachedBytes``, estimated): a large action is rarely repeated, and
    /// the cache would keep it, and its JSON, alive for as long as the connection lasts.
    @usableFromInline
    mutating func remember(_ action: Action, decodedFrom json: JSON) {
      guard ByteEstimate.heap(of: json) <= Self.maxCachedBytes else {
        self.actionJSON = nil
        self.action = nil
        return
      }
      self.actionJSON = json
      self.action = action
    }

    /// The largest action JSON a send cache keeps (estimated heap bytes).
    static var maxCachedBytes: Int { 4_096 }
  }

  init(
    id: Int, channel: any ClientChannel, processID: Int32, userID: UInt32, maxFrameSize: Int,
    tally: SubscriptionTally = SubscriptionTally()
  ) {
    self.id = id
    self.tally = tally
    self.channel = channel
    self.processID = processID
    self.userID = userID
    self.decoder = FrameDecoder(maxFrameSize: maxFrameSize)
  }

  // MARK: - Output buffers

  /// Output capacity kept between batches. A larger buffer (left by a big snapshot) is
  /// released once written, so that an idle connection does not pin its largest reply.
  /// (The two methods below run once or twice per batch; inlined, as they were before they
  /// released anything: called, they cost ~65 instructions per one-action batch.)
  @usableFromInline static var retainedOutputCapacity: Int { 64 * 1024 }

  /// Empties ``output`` once written.
  ///
  /// - Returns: The bytes of capacity released (0 when the buffer is kept for reuse).
  @inlinable @inline(__always)
  func clearOutput() -> Int {
    let capacity = self.output.capacity
    if capacity > Self.retainedOutputCapacity {
      self.output = []
      return capacity
    }
    self.output.removeAll(keepingCapacity: true)
    return 0
  }

  /// Moves the held replies behind the output (their pushes are in it now).
  ///
  /// - Returns: The bytes of capacity released (0 when the buffer is kept for reuse).
  @inlinable @inline(__always)
  func releaseHeldReplies() -> Int {
    guard !self.heldReplies.isEmpty else { return 0 }
    self.output.append(contentsOf: self.heldReplies)
    let capacity = self.heldReplies.capacity
    if capacity > Self.retainedOutputCapacity {
      self.heldReplies = []
      return capacity
    }
    self.heldReplies.removeAll(keepingCapacity: true)
    return 0
  }
}
