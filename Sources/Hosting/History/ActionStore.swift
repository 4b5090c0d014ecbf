/// The root actions of the history's records, in a typed buffer of their own, in the same order
/// as the ``RecordLog``'s records.
///
/// Appending runs on every reduce, in the host's unspecialized generic code: a buffer of
/// `Action` written through its value witnesses (whose metadata is this class's own generic
/// argument) costs no generic metadata lookup and no allocation per action, where an array of
/// `Action` would look up its metadata and a record holding the action as `Any` would box it
/// (bench/HISTORY.md). Confined to the host's event loop.
///
/// Its properties are `@exclusivity(unchecked)`: only the loop thread touches them, from this
/// class's own synchronous methods, which hold no `inout` access across a call that could
/// reach the store again — so the dynamic check could never fire.
final class ActionStore<Action> {
  /// Memory for `capacity` actions, of which `start..<end` are initialized.
  @exclusivity(unchecked) private var base: UnsafeMutablePointer<Action>
  @exclusivity(unchecked) private var capacity: Int
  @exclusivity(unchecked) private var start = 0
  @exclusivity(unchecked) private var end = 0

  init(capacity: Int) {
    self.capacity = max(capacity, 16)
    self.base = .allocate(capacity: self.capacity)
  }

  deinit {
    (self.base + self.start).deinitialize(count: self.end - self.start)
    self.base.deallocate()
  }

  /// The number of actions held.
  var count: Int { self.end - self.start }

  /// The action at `index` (0 is the oldest held).
  subscript(index: Int) -> Action {
    precondition(index >= 0 && index < self.count, "action index out of range")
    return (self.base + self.start + index).pointee
  }

  /// Appends `action` after the newest.
  func append(_ action: Action) {
    if self.end == self.capacity { self.makeRoom() }
    (self.base + self.end).initialize(to: action)
    self.end += 1
  }

  /// Drops the oldest `count` actions.
  func dropFirst(_ count: Int) {
    precondition(count >= 0 && count <= self.count, "cannot drop \(count) of \(self.count) actions")
    (self.base + self.start).deinitialize(count: count)
    self.start += count
  }

  /// The actions at `range` (indices as for the subscript), copied.
  func copy(_ range: Range<Int>) -> [Action] {
    precondition(range.lowerBound >= 0 && range.upperBound <= self.count, "range out of bounds")
    return Array(
      UnsafeBufferPointer(start: self.base + self.start + range.lowerBound, count: range.count))
  }

  /// Moves the held actions to the front when that frees at least half the buffer, else
  /// doubles it.
  private func makeRoom() {
    let count = self.count
    if self.start > 0 && count <= self.capacity / 2 {
      // The moved-from memory is uninitialized afterwards; nothing is left at the old places.
      self.base.moveInitialize(from: self.base + self.start, count: count)
    } else {
      let larger = UnsafeMutablePointer<Action>.allocate(capacity: self.capacity * 2)
      larger.moveInitialize(from: self.base + self.start, count: count)
      self.base.deallocate()
      self.base = larger
      self.capacity *= 2
    }
    self.start = 0
    self.end = count
  }
}
