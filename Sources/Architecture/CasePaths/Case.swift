/// A case of an enum, relative to some root type, reachable by key-path member lookup.
///
/// You rarely name this type: it is the root and value of a ``CaseKeyPath``. `Case<Action>()`
/// is the identity case; `\.counter` applied to it looks up `Action.allCasePaths.counter` and
/// returns a `Case<Counter.Action>` that still knows how to embed into and extract from the root.
@dynamicMemberLookup
public struct Case<Value>: Sendable {
  let _path: any _CasePathRoot<Value>

  init(_path: any _CasePathRoot<Value>) {
    self._path = _path
  }

  /// The identity case of `Value`, the root of every ``CaseKeyPath`` from `Value`.
  public init() {
    self._path = _RootedCasePath<Value, Value>(path: AnyCasePath(), isIdentity: true)
  }

  /// Looks up a case of `Value` by the name of its property in `Value.AllCasePaths`.
  public subscript<Member>(
    dynamicMember keyPath: KeyPath<Value.AllCasePaths, AnyCasePath<Value, Member>>
  ) -> Case<Member> where Value: CasePathable {
    Case<Member>(_path: self._path.appending(Value.allCasePaths[keyPath: keyPath]))
  }

  /// Appends an explicit case path (used by the `[id:]` subscripts).
  func appending<Member>(_ path: AnyCasePath<Value, Member>) -> Case<Member> {
    Case<Member>(_path: self._path.appending(path))
  }
}

/// A case path whose root type is hidden, so that ``Case`` needs only one generic parameter.
protocol _CasePathRoot<Value>: Sendable {
  associatedtype Value
  func appending<Member>(_ path: AnyCasePath<Value, Member>) -> any _CasePathRoot<Member>
  /// Whether `root` (a value of the hidden root type) is in this case.
  func matches(_ root: Any) -> Bool
}

/// The concrete case path behind a ``Case``: typed from the real root, so that evaluating a key
/// path yields plain closures with no `Any` boxing on the send path.
struct _RootedCasePath<Root, Value>: _CasePathRoot {
  let path: AnyCasePath<Root, Value>
  let isIdentity: Bool

  init(path: AnyCasePath<Root, Value>, isIdentity: Bool = false) {
    self.path = path
    self.isIdentity = isIdentity
  }

  func appending<Member>(_ member: AnyCasePath<Value, Member>) -> any _CasePathRoot<Member> {
    // Appending to the identity would only add a closure hop; `Root == Value` there.
    if self.isIdentity, let direct = member as? AnyCasePath<Root, Member> {
      return _RootedCasePath<Root, Member>(path: direct)
    }
    return _RootedCasePath<Root, Member>(path: self.path.appending(path: member))
  }

  func matches(_ root: Any) -> Bool {
    guard let root = root as? Root else { return false }
    return self.path.extract(from: root) != nil
  }
}
