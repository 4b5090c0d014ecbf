/// A scoped core: reads its state from its parent through a key path at every read, and embeds
/// its actions into the parent's, so that parent and child are consistent at every read in both
/// directions. It keeps no copy of the state.
final class _ScopedCore<ParentState, ParentAction, State, Action>: _Core<State, Action>,
  @unchecked Sendable
{
  let parent: _Core<ParentState, ParentAction>
  let toState: KeyPath<ParentState, State>
  let embed: @Sendable (Action) -> ParentAction

  init(
    parent: _Core<ParentState, ParentAction>,
    toState: KeyPath<ParentState, State>,
    embed: @escaping @Sendable (Action) -> ParentAction
  ) {
    self.parent = parent
    self.toState = toState
    self.embed = embed
    super.init(root: parent.root)
  }

  override var state: State {
    self.parent.state[keyPath: self.toState]
  }

  override func send(_ action: Action) -> StoreTask {
    self.parent.send(self.embed(action))
  }

  override var isValid: Bool { self.parent.isValid }
}

/// A core scoped with closures (TCA's `scope(state:action:)` taking functions): the state is
/// computed from the parent's at every read, and never before the first read.
final class _ClosureScopedCore<ParentState, ParentAction, State, Action>: _Core<State, Action>,
  @unchecked Sendable
{
  let parent: _Core<ParentState, ParentAction>
  let toState: (ParentState) -> State
  let fromAction: (Action) -> ParentAction

  init(
    parent: _Core<ParentState, ParentAction>,
    toState: @escaping (ParentState) -> State,
    fromAction: @escaping (Action) -> ParentAction
  ) {
    self.parent = parent
    self.toState = toState
    self.fromAction = fromAction
    super.init(root: parent.root)
  }

  override var state: State {
    self.toState(self.parent.state)
  }

  override func send(_ action: Action) -> StoreTask {
    self.parent.send(self.fromAction(action))
  }

  override var isValid: Bool { self.parent.isValid }
}

/// A core scoped to optional child state that was present when the store was scoped. While the
/// state is there it reads it through the parent; once it is `nil` the store keeps showing the
/// last child state it had and ignores the actions sent to it, as TCA's scoped store of a
/// dismissed child does. To know that last state it looks after every action the root reduces
/// (an observer that removes itself once this core is gone).
final class _OptionalScopedCore<ParentState, ParentAction, State, Action>: _Core<State, Action>,
  @unchecked Sendable
{
  let parent: _Core<ParentState, ParentAction>
  let toState: KeyPath<ParentState, State?>
  let embed: @Sendable (Action) -> ParentAction
  private var last: State

  init(
    parent: _Core<ParentState, ParentAction>,
    toState: KeyPath<ParentState, State?>,
    initial: State,
    embed: @escaping @Sendable (Action) -> ParentAction
  ) {
    self.parent = parent
    self.toState = toState
    self.embed = embed
    self.last = initial
    super.init(root: parent.root)
    let root = self.root
    let id = root.makeID()
    // On the store's executor, in `notify()`; removing an entry there is safe (it iterates over
    // a copy of the observers).
    root.observers[id] = { [weak self, unowned root] in
      guard let self else {
        root.observers[id] = nil
        return
      }
      if let state = self.parent.state[keyPath: self.toState] { self.last = state }
    }
  }

  override var state: State {
    self.parent.state[keyPath: self.toState] ?? self.last
  }

  override func send(_ action: Action) -> StoreTask {
    guard self.isValid else { return StoreTask(nil) }
    return self.parent.send(self.embed(action))
  }

  override var isValid: Bool {
    self.parent.isValid && self.parent.state[keyPath: self.toState] != nil
  }
}

// MARK: - What both kinds of store do with a core

extension _Core {
  /// Registers a closure called after every action the root reduces, with this core's state.
  ///
  /// The observers live in `_StoreRoot`, which only cores refer to, so an observer must not hold
  /// its core strongly (the root core would keep itself alive, and with it the effects its
  /// `deinit` cancels). A scoped core is held weakly: its store may go away before the root.
  func observe(_ observer: @escaping (State) -> Void) -> StoreObserverID {
    let id = self.root.makeID()
    if let rootCore = self as? _RootCore<State, Action> {
      // `unowned(unsafe)`: observers are only called by `notify()`, from `didReduce()` of this
      // very root core while it reduces, so the core is alive whenever the closure runs.
      self.root.observers[id] = { [unowned(unsafe) rootCore] in observer(rootCore._state) }
    } else {
      self.root.observers[id] = { [weak self] in
        if let self { observer(self.state) }
      }
    }
    return StoreObserverID(rawValue: id)
  }

  /// Removes an observer.
  func removeObserver(_ id: StoreObserverID) {
    self.root.observers[id.rawValue] = nil
  }
}
