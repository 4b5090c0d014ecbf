extension _RootCore {
  /// Reduces an action sent by an effect, on the store's executor, attaching the effects it
  /// starts to the effect's group.
  func receive(_ action: Action, group: _EffectGroup) {
    _ = self.send(action, group: group, fromEffect: true)
  }

  /// Starts an effect from outside a reduce (the drivers of concatenated and debounced
  /// effects), processing the actions it sends synchronously.
  func start(_ operation: _Operation<Action>, group: _EffectGroup, ids: [_CancelID]) {
    if self.isSending {
      self.startOperation(operation, group: group, ids: ids)
      return
    }
    self.isSending = true
    defer { self.isSending = false }
    self.startOperation(operation, group: group, ids: ids)
    if self.queuedCount > 0 { self.drain() }
  }

  /// Starts an operation from an effect driver and waits for it (and what it sends) to finish.
  func runToCompletion(_ operation: _Operation<Action>, ids: [_CancelID]) async {
    let group = _EffectGroup(registry: self.root.registry)
    await _onExecutor(of: self.root.isolation) { self.start(operation, group: group, ids: ids) }
    await withTaskCancellationHandler {
      await group.wait()
    } onCancel: {
      group.cancel()
    }
  }

  func startOperation(_ operation: _Operation<Action>, group: _EffectGroup, ids: [_CancelID]) {
    switch operation {
    case .none:
      return
    case .send(let action):
      self.queue.append((action.value, group, true))
      self.queuedCount += 1
    case .run(let priority, let dependencies, let body):
      self.spawn(
        priority: priority, dependencies: dependencies?.values, ids: ids, group: group, body)
    case .merge(let operations):
      for operation in operations { self.startOperation(operation, group: group, ids: ids) }
    case .concatenate(let operations):
      if operation.isSynchronous {
        for operation in operations { self.startOperation(operation, group: group, ids: ids) }
        return
      }
      self.spawn(priority: nil, ids: ids, group: group) { [weak self] _ in
        for operation in operations {
          guard !Task.isCancelled, let self else { return }
          await self.runToCompletion(operation, ids: ids)
        }
      }
    case .cancellable(let id, let cancelInFlight, let operation):
      if cancelInFlight { self.root.registry.cancel(id: id) }
      self.startOperation(operation, group: group, ids: ids + [id])
    case .cancel(let id):
      self.root.registry.cancel(id: id)
    case .debounce(let id, let duration, let clock, let operation):
      self.root.registry.cancel(id: id)
      let ids = ids + [id]
      self.spawn(priority: nil, ids: ids, group: group) { [weak self] _ in
        do {
          try await clock.sleep(for: duration)
        } catch {
          return
        }
        guard !Task.isCancelled, let self else { return }
        await self.runToCompletion(operation, ids: ids)
      }
    }
  }

  /// Starts an effect's task, with `dependencies` (those in force where the effect was
  /// created) or else the store's, preferring the registry's task executor if it has one (a
  /// test store's serial executor).
  ///
  /// The task holds the core weakly: when the last store of the tree goes away the core's
  /// `deinit` cancels the effects, and an action an effect sends afterwards is dropped.
  private func spawn(
    priority: TaskPriority?,
    dependencies: DependencyValues? = nil,
    ids: [_CancelID],
    group: _EffectGroup,
    _ body: @escaping @Sendable (Send<Action>) async -> Void
  ) {
    let registry = self.root.registry
    let (key, taskExecutor) = registry.begin(ids: ids, group: group)
    let dependencies = dependencies ?? self.dependencies
    let send = Send<Action>(_isolated: { [weak self] action in
      guard let self else { return }
      let action = _UncheckedSendable(action)
      await _onExecutor(of: self.root.isolation) { self.receive(action.value, group: group) }
    })
    let context = _EffectContext(registry: registry, group: group, ids: ids)
    let task = Task(executorPreference: taskExecutor, priority: priority) {
      await _EffectContext.$current.withValue(context) {
        await DependencyValues.$current.withValue(dependencies) {
          await body(send)
        }
      }
      registry.finish(key)
    }
    registry.attach(key, task: task)
  }
}

/// Runs `body` on the serial executor of `isolation` (a hop there, unless already on it).
///
/// How the core, which does not know whether it belongs to the main actor or to a store actor,
/// gets onto its store's executor: an `isolated` parameter makes the function run on that
/// actor's executor, whichever actor it is.
func _onExecutor(of isolation: isolated any Actor, _ body: () -> Void) {
  body()
}
