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

  init() {}

  deinit {
    if let base = self.base {
      base.deinitialize(count: self.count)
      base.deallocate()
    }
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
      base.deallocate()
    }
    self.base = newBase
    self.capacity = newCapacity
  }

  /// Moves the elements at positions `start..<count` into a new array, bottom first.
  mutating func popArray(from start: Int) -> [Element] {
    let moved = self.count - start
    guard moved > 0, let base = self.base else { return [] }
    let result = [Element](unsafeUninitializedCapacity: moved) { buffer, initialized in
      buffer.baseAddress.unsafelyUnwrapped.moveInitialize(from: base + start, count: moved)
      initialized = moved
    }
    self.count = start
    return result
  }
}
