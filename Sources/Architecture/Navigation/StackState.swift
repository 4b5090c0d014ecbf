/// The identity of an element of a ``StackState``, assigned when the element is pushed.
public struct StackElementID: Hashable, Sendable, Codable, Comparable,
  ExpressibleByIntegerLiteral, CustomStringConvertible
{
  /// The raw id: 0 for the first element pushed on a stack, then 1, 2…
  public let rawValue: Int

  /// An id from its raw value.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// An id from an integer literal, for tests: `store.send(.path(.element(id: 0, …)))`.
  public init(integerLiteral value: Int) { self.rawValue = value }

  /// Encodes as a plain integer.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(self.rawValue)
  }

  /// Decodes a plain integer.
  public init(from decoder: any Decoder) throws {
    self.rawValue = try decoder.singleValueContainer().decode(Int.self)
  }

  /// Orders ids by push order.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// `#0`, `#1`…
  public var description: String { "#\(self.rawValue)" }
}

extension StackElementID: CustomDebugStringConvertible, _DumpDescribable {
  /// `#0`, `#1`…, as TCA prints an id.
  public var debugDescription: String { self.description }

  var _dumpDescription: String { self.description }
}

/// The state of a navigation stack: an ordered collection whose elements get a
/// ``StackElementID`` when pushed.
///
/// ```swift
/// struct State { var path = StackState<Path.State>() }
/// // in body:
/// Reduce { … }
///   .forEach(\.path, action: \.path) { Path() }
/// ```
///
/// Ids count up per stack value (0, 1, 2… in push order), so tests can name them. Equality and
/// hashing compare ids and elements; `Codable` as a plain array of elements (ids are
/// reassigned from 0 when decoding).
public struct StackState<Element> {
  var storage: IdentifiedArray<StackElementID, _StackComponent<Element>>
  var nextID = 0

  /// An empty stack.
  public init() {
    self.storage = IdentifiedArray(uniqueElements: [], id: \.id)
  }

  /// A stack of elements, with ids 0, 1, 2…
  public init<S: Sequence>(_ elements: S) where S.Element == Element {
    self.init()
    for element in elements { self.append(element) }
  }

  /// The ids of the elements, bottom first.
  public var ids: [StackElementID] { self.storage.ids }

  /// Reads, updates in place, or removes (with `nil`) the element with an id.
  ///
  /// Writing an id the stack does not hold pushes the element with that id in a test process
  /// (where a test writes the state a `push` action produces), and is reported and ignored in a
  /// live one, as TCA does.
  public subscript(id id: StackElementID) -> Element? {
    get { self.storage[id: id]?.element }
    _modify {
      if let index = self.storage.index(id: id) {
        var element: Element? = self.storage[index].element
        yield &element
        if let element {
          self.storage[index].element = element
        } else {
          self.storage.remove(at: index)
        }
      } else {
        var element: Element? = nil
        yield &element
        guard let element else { return }
        // As TCA: a test may write the element an action pushes (`$0.path[id: 0] = …`, the
        // expected state of a `.push(id: 0, …)`), so a test process inserts it on top; a live
        // program is told, and the stack is left as it was.
        if DependencyContext.default == .test {
          _ = self._push(id: id, element: element)
        } else {
          DependencyValues._effective.runtimeWarnings(
            """
            Can't update element with identifier \(id) because no such element exists in the \
            stack.

            Make sure to only modify elements that exist in the stack.
            """)
        }
      }
    }
  }

  /// Pushes an element on top, giving it the next id.
  public mutating func append(_ element: Element) {
    self.storage.append(
      _StackComponent(id: StackElementID(rawValue: self.nextID), element: element))
    self.nextID += 1
  }

  /// Pushes an element with a given id (the ``StackAction/push(id:state:)`` action); ids must
  /// be new.
  mutating func _push(id: StackElementID, element: Element) -> Bool {
    guard self.storage.append(_StackComponent(id: id, element: element)).inserted else {
      return false
    }
    self.nextID = Swift.max(self.nextID, id.rawValue + 1)
    return true
  }

  /// Removes the element with an id and every element above it.
  public mutating func pop(from id: StackElementID) {
    guard let index = self.storage.index(id: id) else { return }
    while self.storage.count > index { self.storage.removeLast() }
  }

  /// Removes the elements above the one with an id.
  public mutating func pop(to id: StackElementID) {
    guard let index = self.storage.index(id: id) else { return }
    while self.storage.count > index + 1 { self.storage.removeLast() }
  }

  /// Removes the top `count` elements.
  public mutating func removeLast(_ count: Int = 1) {
    for _ in 0..<count { self.storage.removeLast() }
  }

  /// Removes and returns the top element, if any.
  @discardableResult
  public mutating func popLast() -> Element? {
    self.storage.isEmpty ? nil : self.storage.removeLast().element
  }

  /// Removes every element.
  public mutating func removeAll() {
    self.storage.removeAll()
  }
}

/// An element of a ``StackState`` with its id.
struct _StackComponent<Element>: Identifiable {
  let id: StackElementID
  var element: Element
}

extension _StackComponent: Sendable where Element: Sendable {}

extension StackState: RandomAccessCollection, MutableCollection {
  /// The bottom position.
  public var startIndex: Int { 0 }
  /// The position past the top.
  public var endIndex: Int { self.storage.count }

  /// The element at a position (0 is the bottom).
  public subscript(position: Int) -> Element {
    get { self.storage[position].element }
    _modify { yield &self.storage[position].element }
  }
}

extension StackState: ExpressibleByArrayLiteral {
  /// A stack from a literal, with ids 0, 1, 2…
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension StackState: Equatable where Element: Equatable {
  /// Compares ids and elements.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.ids == rhs.ids && lhs.elementsEqual(rhs)
  }
}

extension StackState: Hashable where Element: Hashable {
  /// Hashes ids and elements.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.ids)
    for element in self { hasher.combine(element) }
  }
}

extension StackState: Sendable where Element: Sendable {}

extension StackState: Encodable where Element: Encodable {
  /// Encodes the elements as a plain array.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for element in self { try container.encode(element) }
  }
}

extension StackState: Decodable where Element: Decodable {
  /// Decodes a plain array of elements.
  public init(from decoder: any Decoder) throws {
    self.init(try [Element](from: decoder))
  }
}

extension StackState: CustomReflectable {
  /// Reflects as its elements by id, in order, as TCA dumps a stack: `[#0: Child.State()]`.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: zip(self.ids, self).map { (label: String?.none, value: ($0, $1) as Any) },
      displayStyle: .dictionary)
  }
}

/// An action of a navigation stack: an element's action, a pop, or a push.
public enum StackAction<State, Action>: CasePathable {
  /// An action of the element with an id.
  indirect case element(id: StackElementID, action: Action)
  /// Pops the element with an id and everything above it.
  case popFrom(id: StackElementID)
  /// Pushes a new element with an id.
  indirect case push(id: StackElementID, state: State)

  /// The case paths of ``StackAction``.
  public struct AllCasePaths: Sendable {
    /// `.element`, as an `(id, action)` pair.
    public var element: AnyCasePath<StackAction, (id: StackElementID, action: Action)> {
      .init(
        embed: { .element(id: $0.id, action: $0.action) },
        extract: { if case .element(let id, let action) = $0 { (id, action) } else { nil } }
      )
    }
    /// `.popFrom`.
    public var popFrom: AnyCasePath<StackAction, StackElementID> {
      .init(
        embed: { .popFrom(id: $0) },
        extract: { if case .popFrom(let id) = $0 { id } else { nil } }
      )
    }
    /// `.push`, as an `(id, state)` pair.
    public var push: AnyCasePath<StackAction, (id: StackElementID, state: State)> {
      .init(
        embed: { .push(id: $0.id, state: $0.state) },
        extract: { if case .push(let id, let state) = $0 { (id, state) } else { nil } }
      )
    }
  }

  /// The case paths of ``StackAction``.
  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

/// The stack action of a reducer.
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}
extension StackAction: Encodable where State: Encodable, Action: Encodable {}
extension StackAction: Decodable where State: Decodable, Action: Decodable {}

extension Case {
  /// The action of the stack element with a given id: `\.path[id: 0]`.
  public subscript<ElementState, ElementAction>(
    id id: StackElementID
  ) -> Case<ElementAction> where Value == StackAction<ElementState, ElementAction> {
    self.appending(
      AnyCasePath<StackAction<ElementState, ElementAction>, ElementAction>(
        embed: { .element(id: id, action: $0) },
        extract: {
          if case .element(let elementID, let action) = $0, elementID == id { action } else { nil }
        }
      )
    )
  }
}
