/// Runs a child reducer on a part of the parent's state, for the child's actions.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   Scope(state: \.counter, action: \.counter) { Counter() }
///   Reduce { state, action in … }
/// }
/// ```
///
/// The child mutates the parent's state in place (through the writable key path, no copy), and
/// its effects' actions are embedded back into the parent's action.
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  @usableFromInline
  let run: _ReduceFunction<ParentState, ParentAction>

  /// Scopes to a stored part of the parent's state.
  ///
  /// - Parameters:
  ///   - toChildState: A writable key path to the child state.
  ///   - toChildAction: A case key path to the child action.
  ///   - child: The child reducer.
  ///
  /// Disfavored against the enum-case form below: the case of an enum state is also a writable
  /// key path (`state.name`, through the enum's dynamic member lookup), and for an enum state
  /// `\.name` means its case.
  @inlinable
  @_disfavoredOverload
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    let actionPath = AnyCasePath(toChildAction)
    let child = child()._makeReduce()
    let toChildState = _opaque(toChildState)
    let extract = actionPath._extract
    let embed = actionPath._embed
    self.run = { state, action in
      guard let childAction = extract(action) else { return .none }
      let effects = child(&state[keyPath: toChildState], childAction)
      return effects.isNone ? .none : effects.map(embed)
    }
  }

  /// Scopes to one case of an enum state; actions arriving while the state is in another case
  /// are ignored (as in TCA).
  ///
  /// - Parameters:
  ///   - toChildState: A case key path to the child state.
  ///   - toChildAction: A case key path to the child action.
  ///   - child: The child reducer.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: CaseKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    let statePath = AnyCasePath(toChildState)
    let actionPath = AnyCasePath(toChildAction)
    let child = child()._makeReduce()
    self.run = { state, action in
      guard
        let childAction = actionPath.extract(from: action),
        var childState = statePath.extract(from: state)
      else { return .none }
      let effects = child(&childState, childAction)
      state = statePath.embed(childState)
      return effects.isNone ? .none : effects.map(actionPath._embed)
    }
  }

  /// Scopes to a stored part of the parent's state: TCA's spelling without the `state:` label.
  ///
  /// ```swift
  /// Scope(\.counter, action: \.counter) { Counter() }
  /// ```
  ///
  /// - Parameters:
  ///   - toChildState: A writable key path to the child state.
  ///   - toChildAction: A case key path to the child action.
  ///   - child: The child reducer.
  @inlinable
  public init<ChildState, ChildAction>(
    _ toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> _ child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: toChildState, action: toChildAction, child: child)
  }

  /// Runs the child for child actions.
  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    self.run(&state, action)
  }

  /// The reduce function itself, without another closure around it.
  @inlinable
  public func _makeReduce() -> _ReduceFunction<ParentState, ParentAction> {
    self.run
  }
}

/// Hides a value from the optimizer. A key path literal that the optimizer propagates into a
/// reducer's closure is re-instantiated there on every call (`swift_getKeyPath`) and then
/// applied generically anyway; the captured key path object is cheaper.
@usableFromInline
@inline(never)
func _opaque<T>(_ value: T) -> T {
  value
}
