extension Store {
  /// Derives a store for a part of this one's state and actions.
  ///
  /// ```swift
  /// let counter = store.scope(state: \.counter, action: \.counter)
  /// counter.send(.incrementButtonTapped)   // reduced by the root as .counter(.incrementButtonTapped)
  /// ```
  ///
  /// The child shares this store's core and keeps no copy of the state.
  ///
  /// - Parameters:
  ///   - toChildState: A key path from this store's state to the child's.
  ///   - toChildAction: A case key path from this store's action to the child's.
  /// - Returns: The child store.
  public func scope<CS, CA>(
    state toChildState: KeyPath<State, CS>,
    action toChildAction: CaseKeyPath<Action, CA>
  ) -> Store<CS, CA> {
    self.scope(state: toChildState, action: AnyCasePath(toChildAction))
  }

  /// Derives a store for a part of this one's state and actions, given a case path value.
  ///
  /// - Parameters:
  ///   - toChildState: A key path from this store's state to the child's.
  ///   - toChildAction: Embeds child actions into this store's actions.
  /// - Returns: The child store.
  public func scope<CS, CA>(
    state toChildState: KeyPath<State, CS>,
    action toChildAction: AnyCasePath<Action, CA>
  ) -> Store<CS, CA> {
    Store<CS, CA>(
      core: _ScopedCore(parent: self.core, toState: toChildState, embed: toChildAction._embed))
  }

  /// Derives a store for presented child state: `nil` when nothing is presented, as TCA's
  /// `scope(state:action:)` for optional state.
  ///
  /// ```swift
  /// if let child = store.scope(state: \.child, action: \.child) {
  ///   child.send(.incrementButtonTapped)    // sent as .child(.presented(.incrementButtonTapped))
  /// }
  /// ```
  ///
  /// Once the child is dismissed the store keeps its last state and ignores actions.
  ///
  /// - Parameters:
  ///   - toChildState: A key path from this store's state to the optional child state.
  ///   - toChildAction: A case key path to the child's presentation actions.
  /// - Returns: The child store, or `nil`.
  public func scope<CS, CA>(
    state toChildState: KeyPath<State, CS?>,
    action toChildAction: CaseKeyPath<Action, PresentationAction<CA>>
  ) -> Store<CS, CA>? {
    guard let initial = self.core.state[keyPath: toChildState] else { return nil }
    let embed = AnyCasePath(toChildAction)._embed
    return Store<CS, CA>(
      core: _OptionalScopedCore(
        parent: self.core, toState: toChildState, initial: initial,
        embed: { embed(.presented($0)) }))
  }

  /// Derives a store for optional child state: `nil` when the state is `nil`, as TCA's
  /// `scope(state:action:)` for optional state.
  ///
  /// Once the state becomes `nil` the store keeps its last state and ignores actions.
  ///
  /// - Parameters:
  ///   - toChildState: A key path from this store's state to the optional child state.
  ///   - toChildAction: A case key path from this store's action to the child's.
  /// - Returns: The child store, or `nil`.
  public func scope<CS, CA>(
    state toChildState: KeyPath<State, CS?>,
    action toChildAction: CaseKeyPath<Action, CA>
  ) -> Store<CS, CA>? {
    guard let initial = self.core.state[keyPath: toChildState] else { return nil }
    return Store<CS, CA>(
      core: _OptionalScopedCore(
        parent: self.core, toState: toChildState, initial: initial,
        embed: AnyCasePath(toChildAction)._embed))
  }

  /// Derives a store with functions instead of key paths, as TCA's deprecated
  /// `scope(state:action:)` taking closures: the child's state is computed from this store's at
  /// every read (never before the first), and its actions are embedded by `fromChildAction`.
  ///
  /// - Parameters:
  ///   - toChildState: Computes the child's state.
  ///   - fromChildAction: Embeds a child action in this store's actions.
  /// - Returns: The child store.
  @available(*, deprecated, message: "Scope with key paths: 'scope(state: \\.child, action: \\.child)'.")
  public func scope<CS, CA>(
    state toChildState: @escaping (_ state: State) -> CS,
    action fromChildAction: @escaping (_ childAction: CA) -> Action
  ) -> Store<CS, CA> {
    Store<CS, CA>(
      core: _ClosureScopedCore(parent: self.core, toState: toChildState, fromAction: fromChildAction))
  }
}
