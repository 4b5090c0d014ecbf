#if canImport(os)
  import os
#endif

extension Reducer {
  /// Marks the reducer's actions and effects with signposts, as TCA's `signpost(_:log:)`.
  ///
  /// Signposts are intervals for Apple's Instruments; there is no such tool on Linux, so this is
  /// the reducer unchanged (on every platform: the library never emits them), and the code that
  /// asks for them compiles and runs as written.
  ///
  /// - Parameters:
  ///   - prefix: A prefix for the signposts' names.
  ///   - log: The log to emit them to.
  /// - Returns: The same reducer.
  public func signpost(_ prefix: String = "", log: OSLog = .default) -> _SignpostReducer<Self> {
    _SignpostReducer(base: self)
  }
}

/// The reducer returned by ``Reducer/signpost(_:log:)``: the base reducer, unchanged.
public struct _SignpostReducer<Base: Reducer>: Reducer {
  let base: Base

  /// Runs the base reducer.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    self.base.reduce(into: &state, action: action)
  }

  /// The base's reduce function.
  public func _makeReduce() -> _ReduceFunction<Base.State, Base.Action> {
    self.base._makeReduce()
  }
}

#if !canImport(os)
  /// A stand-in for Apple's `OSLog` where the `os` module does not exist (Linux), so that
  /// ``Reducer/signpost(_:log:)`` is called as on Apple platforms. It logs nothing.
  public struct OSLog: Sendable {
    /// The default log.
    public static let `default` = OSLog()
    /// A log that discards everything.
    public static let disabled = OSLog()

    private init() {}

    /// A log of a subsystem and category.
    ///
    /// - Parameters:
    ///   - subsystem: The subsystem.
    ///   - category: The category.
    public init(subsystem: String, category: String) {}
  }
#endif
