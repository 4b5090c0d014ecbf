/// A growable stack that hands its top elements over to a new `Array` by moving them, so
/// closing a container costs no retain/release per element.
///
/// Non-copyable so that exactly one owner deinitializes what is left, including when parsing
/// stops early with an error.
struct MoveStack<Element>: ~Copyable {
  private var base: UnsafeMutablePointer<Element>?
  /// The number of elements on the stack.
  private(set) var count = 0
  private var capacity = 0
  /// Whether `base` came from `allocate` (and not from the caller's temporary memory).
  private var ownsBase = false

  /// An empty stack that allocates on first push.
  init() {}

  /// An empty stack that starts in `initialCapacity` elements of caller-owned memory, which
  /// must outlive the stack; it moves to the heap if it outgrows them.
  init(initialBuffer: UnsafeMutableRawPointer, initialCapacity: Int) {
    self.base = initialBuffer.bindMemory(to: Element.self, capacity: initialCapacity)
    self.capacity = initialCapacity
  }

  deinit {
    if let base = self.base {
      // Skipping the call for an empty stack (the end of every successful parse) saves a
      // `swift_arrayDestroy` call that would do nothing.
      if self.count > 0 { base.deinitialize(count: self.count) }
      if self.ownsBase { base.deallocate() }
    }
  }

  /// The top element, which must exist.
  var top: Element {
    @inline(__always) _read { yield self.base.unsafelyUnwrapped[self.count - 1] }
  }

  /// Removes and returns the top element, which must exist.
  @inline(__always)
  mutating func pop() -> Element {
    self.count -= 1
    return (self.base.unsafelyUnwrapped + self.count).move()
  }

  /// Discards the top `k` elements.
  mutating func removeLast(_ k: Int) {
    self.count -= k
    (self.base.unsafelyUnwrapped + self.count).deinitialize(count: k)
  }

  /// The elements from `start` to the top, bottom first; valid until the next mutation.
  func elements(from start: Int) -> UnsafeBufferPointer<Element> {
    UnsafeBufferPointer(start: self.base.map { $0 + start }, count: self.count - start)
  }

  /// Pushes `element` on top.
  @inline(__always)
  mutating func push(_ element: consuming Element) {
    if self.count == self.capacity { self.grow() }
    (self.base.unsafelyUnwrapped + self.count).initialize(to: element)
    self.count += 1
  }

  private mutating func grow() {
    let newCapacity = Swift.max(16, self.capacity * 2)
    let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
    if let base = self.base {
      newBase.moveInitialize(from: base, count: self.count)
      if self.ownsBase { base.deallocate() }
    }
    self.ownsBase = true
    self.base = newBase
    self.capacity = newCapacity
  }

  /// Moves the elements at positions `start..<count` into a new array, bottom first.
  mutating func popArray(from start: Int) -> [Element] {
    let moved = self.count - start
    guard moved > 0, let base = self.base else { return [] }
    // `reserveCapacity` + `append` is specialized in full; `init(unsafeUninitializedCapacity:)`
    // looks up the storage class's metadata at run time, which measured twice as slow.
    var result: [Element] = []
    result.reserveCapacity(moved)
    for offset in start..<self.count { result.append((base + offset).move()) }
    self.count = start
    return result
  }
}
