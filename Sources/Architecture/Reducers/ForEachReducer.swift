extension Reducer {
  /// Runs an element reducer on the element of an identified array that an action names.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEach(\.todos, action: \.todos) { Todo() }
  /// ```
  ///
  /// The element is mutated in place (one hash lookup, no copy of the array or the element),
  /// before this reducer runs. An action for an id that is not in the array is reported as a
  /// runtime warning, never a crash. When this reducer removes elements, their in-flight
  /// effects are cancelled; cancellation ids used inside an element are scoped to it.
  ///
  /// - Parameters:
  ///   - toElementsState: A writable key path to the identified array.
  ///   - toElementAction: A case key path to the identified element action.
  ///   - element: The element reducer.
  ///   - fileID: The source file, for runtime warnings.
  ///   - line: The source line, for runtime warnings.
  /// - Returns: The combined reducer.
  @inlinable
  public func forEach<ElementState, ElementAction, ID: Hashable & Sendable, Element: Reducer>(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CaseKeyPath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _ForEachReducer<Self, ID, Element>
  where Element.State == ElementState, Element.Action == ElementAction {
    _ForEachReducer(
      parent: self, toElementsState: toElementsState,
      toElementAction: AnyCasePath(toElementAction), element: element(),
      location: _SourceLocation(fileID: fileID, line: line))
  }
}

/// The reducer returned by ``Reducer/forEach(_:action:element:fileID:line:)``.
extension Reducer {
  /// Runs an element reducer on the elements of a collection for actions of a case with an
  /// `(id:action:)` payload: TCA's older spelling of ``forEach(_:action:element:fileID:line:)``,
  /// before `IdentifiedAction`.
  ///
  /// ```swift
  /// enum Action { case timers(id: Timer.State.ID, action: Timer.Action) }
  /// … .forEach(\.timers, action: \.timers) { Timer() }
  /// ```
  ///
  /// - Parameters:
  ///   - toElementsState: A writable key path to the collection.
  ///   - toElementAction: A case key path to the `(id:action:)` case.
  ///   - element: The element reducer.
  ///   - fileID: The source file, for runtime warnings.
  ///   - line: The source line, for runtime warnings.
  /// - Returns: The combined reducer.
  @available(*, deprecated, message: "Use an 'IdentifiedAction' case for the elements' actions.")
  public func forEach<ElementState, ElementAction, ID: Hashable & Sendable, Element: Reducer>(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CaseKeyPath<Action, (id: ID, action: ElementAction)>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _ForEachReducer<Self, ID, Element>
  where Element.State == ElementState, Element.Action == ElementAction {
    let path = AnyCasePath(toElementAction)
    return _ForEachReducer(
      parent: self, toElementsState: toElementsState,
      toElementAction: AnyCasePath(
        embed: { identified in
          switch identified {
          case .element(let id, let action): path.embed((id: id, action: action))
          }
        },
        extract: { action in
          path.extract(from: action).map { IdentifiedAction.element(id: $0.id, action: $0.action) }
        }),
      element: element(), location: _SourceLocation(fileID: fileID, line: line))
  }
}

extension Reducer {
  /// Runs an element reducer on the elements of a collection for actions of a case with an
  /// unlabeled `(ID, Action)` payload: TCA's older spelling, as
  /// ``forEach(_:action:element:fileID:line:)-(_,CaseKeyPath<Action,(id:ID,action:ElementAction)>,_,_,_)``.
  ///
  /// - Parameters:
  ///   - toElementsState: A writable key path to the collection.
  ///   - toElementAction: A case key path to the `(ID, Action)` case.
  ///   - element: The element reducer.
  ///   - fileID: The source file, for runtime warnings.
  ///   - line: The source line, for runtime warnings.
  /// - Returns: The combined reducer.
  @available(*, deprecated, message: "Use an 'IdentifiedAction' case for the elements' actions.")
  public func forEach<ElementState, ElementAction, ID: Hashable & Sendable, Element: Reducer>(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CaseKeyPath<Action, (ID, ElementAction)>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _ForEachReducer<Self, ID, Element>
  where Element.State == ElementState, Element.Action == ElementAction {
    let path = AnyCasePath(toElementAction)
    return _ForEachReducer(
      parent: self, toElementsState: toElementsState,
      toElementAction: AnyCasePath(
        embed: { identified in
          switch identified {
          case .element(let id, let action): path.embed((id, action))
          }
        },
        extract: { action in
          path.extract(from: action).map { IdentifiedAction.element(id: $0.0, action: $0.1) }
        }),
      element: element(), location: _SourceLocation(fileID: fileID, line: line))
  }
}

public struct _ForEachReducer<Parent: Reducer, ID: Hashable & Sendable, Element: Reducer>: Reducer {
  @usableFromInline
  let run: _ReduceFunction<Parent.State, Parent.Action>

  @inlinable
  init(
    parent: Parent,
    toElementsState: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>,
    toElementAction: AnyCasePath<Parent.Action, IdentifiedAction<ID, Element.Action>>,
    element: Element,
    location: _SourceLocation
  ) {
    let parent = parent._makeReduce()
    let element = element._makeReduce()
    let scope = AnyHashable(toElementsState)
    let toElementsState = _opaque(toElementsState)
    self.run = { state, action in
      var elementEffects = Effect<Parent.Action>.none
      let idsBefore: [ID]
      if case .element(let id, let elementAction)? = toElementAction.extract(from: action) {
        // One access for the element and the ids (the element reducer cannot change ids).
        let (effects, ids) = state[keyPath: toElementsState]._modifyAndIDs(id: id) {
          element(&$0, elementAction)
        }
        idsBefore = ids
        if let effects {
          if !effects.isNone {
            elementEffects = Self.elementEffects(
              effects, id: id, scope: scope, embed: toElementAction._embed)
          }
        } else {
          Self.reportMissingElement(id: id, action: action, location: location)
        }
      } else {
        idsBefore = state[keyPath: toElementsState]._idsSnapshot()
      }
      let parentEffects = parent(&state, action)
      let effects = elementEffects.merge(with: parentEffects)
      // Array `==` is O(1) when the id buffer was not touched (the common case).
      let idsAfter = state[keyPath: toElementsState]._idsSnapshot()
      if idsBefore == idsAfter { return effects }
      // Appending, or inserting at the front (a to-do list's new item), removes nothing: say
      // so with a comparison (specialized here, in the caller) instead of hashing every id.
      if idsAfter.count > idsBefore.count,
        idsAfter.starts(with: idsBefore)
          || idsAfter[(idsAfter.count - idsBefore.count)...].elementsEqual(idsBefore)
      {
        return effects
      }
      return effects.merge(
        with: Self.cancelRemoved(before: idsBefore, after: idsAfter, scope: scope))
    }
  }

  @usableFromInline
  static func elementEffects(
    _ effects: Effect<Element.Action>,
    id: ID,
    scope: AnyHashable,
    embed: @escaping @Sendable (IdentifiedAction<ID, Element.Action>) -> Parent.Action
  ) -> Effect<Parent.Action> {
    effects
      .map { embed(.element(id: id, action: $0)) }
      ._scoped(in: _CancelID(_NavigationID(scope: scope, identity: id)))
  }

  @usableFromInline
  static func reportMissingElement(id: ID, action: Parent.Action, location: _SourceLocation) {
    DependencyValues._effective.runtimeWarnings(
      _ReducerIssues.forEachMissingElement(at: location, action: action), at: location)
  }

  @usableFromInline
  static func cancelRemoved(before: [ID], after: [ID], scope: AnyHashable) -> Effect<Parent.Action>
  {
    let remaining = Set(after)
    return .merge(
      before.filter { !remaining.contains($0) }.map {
        Effect(operation: .cancel(_CancelID(_NavigationID(scope: scope, identity: $0))))
      })
  }

  /// Runs the element reducer, then the parent, then cancels removed elements' effects.
  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    self.run(&state, action)
  }

  /// The reduce function itself, without another closure around it.
  @inlinable
  public func _makeReduce() -> _ReduceFunction<Parent.State, Parent.Action> {
    self.run
  }
}
