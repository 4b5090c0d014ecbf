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

  /// Discards every element.
  mutating func removeAll() {
    if self.count > 0 { self.removeLast(self.count) }
  }

  private mutating func grow(toAtLeast minimumCapacity: Int = 0) {
    let newCapacity = Swift.max(16, self.capacity * 2, minimumCapacity)
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
    self.popArray(from: start, field: 0, as: Element.self)
  }

  /// Moves one stored property of each element at positions `start..<count` into a new array,
  /// bottom first: the one at byte `offset` (`MemoryLayout<Element>.offset(of:)`), or the whole
  /// element for offset 0 and `Field == Element`. The elements' other stored properties must be
  /// trivial: they are left behind without deinitialization.
  mutating func popArray<Field>(from start: Int, field offset: Int, as _: Field.Type) -> [Field] {
    let moved = self.count - start
    guard moved > 0, let base = self.base else { return [] }
    self.count = start
    return Array(
      MovedElements<Field>(
        base: UnsafeMutableRawPointer(base + start) + offset,
        stride: MemoryLayout<Element>.stride, count: moved))
  }
}

extension MoveStack where Element == UInt8 {
  /// Pushes copies of `bytes`, first to last.
  mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, bytes.count > 0 else { return }
    let newCount = self.count + bytes.count
    if newCount > self.capacity { self.grow(toAtLeast: newCount) }
    (self.base.unsafelyUnwrapped + self.count).initialize(from: source, count: bytes.count)
    self.count = newCount
  }
}

/// Values that `Array.init(_:)` moves out in one `_copyContents` call: `count` values of type
/// `Element`, `stride` bytes apart from `base` (further apart when each is a stored property of
/// a larger stack element, whose memory is bound to the property's type too).
///
/// `Array.init` from a collection (inlinable, so fixed when this module is compiled) allocates
/// exactly `count` elements and fills them through `_copyContents(initializing:)`, which here is
/// one `moveInitialize` (or one per element when strided): no per-element capacity or
/// uniqueness checks, no retain/release. That measured 70–200 instructions cheaper per array
/// than `reserveCapacity` + `append`, and far cheaper than `init(unsafeUninitializedCapacity:)`,
/// which calls an unspecialized allocator.
///
/// Single use: after `_copyContents` the memory is uninitialized. Elements are never read one by
/// one (the subscript traps), so a change in `Array.init` shows up as a failing test, not as
/// silently copied (and leaked) elements.
private struct MovedElements<Element>: Collection {
  let base: UnsafeMutableRawPointer
  let stride: Int
  let count: Int

  var startIndex: Int { 0 }
  var endIndex: Int { self.count }
  func index(after i: Int) -> Int { i + 1 }

  subscript(position: Int) -> Element {
    preconditionFailure("MovedElements is only read by _copyContents")
  }

  __consuming func _copyContents(
    initializing buffer: UnsafeMutableBufferPointer<Element>
  ) -> (Iterator, Int) {
    precondition(buffer.count >= self.count, "destination too small")
    let destination = buffer.baseAddress.unsafelyUnwrapped
    if self.stride == MemoryLayout<Element>.stride {
      destination.moveInitialize(
        from: self.base.assumingMemoryBound(to: Element.self), count: self.count)
    } else {
      for offset in 0..<self.count {
        let source = (self.base + offset * self.stride).assumingMemoryBound(to: Element.self)
        (destination + offset).initialize(to: source.move())
      }
    }
    // An iterator at the end: everything has been handed over.
    return (IndexingIterator(_elements: self, _position: self.count), self.count)
  }
}
