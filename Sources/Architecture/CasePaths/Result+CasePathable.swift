extension Result: CasePathable {
  /// The case paths of `Result`: `\.success` and `\.failure`, so that an action carrying a
  /// result can be named down to its case.
  ///
  /// ```swift
  /// await store.receive(\.factResponse.success) {
  ///   $0.fact = "0 is a good number."
  /// }
  /// ```
  public struct AllCasePaths: Sendable {
    /// `.success`.
    public var success: AnyCasePath<Result, Success> {
      .init(Result.success) { if case .success(let value) = $0 { value } else { nil } }
    }
    /// `.failure`.
    public var failure: AnyCasePath<Result, Failure> {
      .init(Result.failure) { if case .failure(let error) = $0 { error } else { nil } }
    }
  }

  /// The case paths of `Result`.
  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension TaskResult: CasePathable {
  /// The case paths of ``TaskResult``: `\.success` and `\.failure`.
  ///
  /// ```swift
  /// await store.receive(\.numberFactResponse.success)
  /// ```
  public struct AllCasePaths: Sendable {
    /// `.success`.
    public var success: AnyCasePath<TaskResult, Success> {
      .init(TaskResult.success) { if case .success(let value) = $0 { value } else { nil } }
    }
    /// `.failure`.
    public var failure: AnyCasePath<TaskResult, any Error> {
      .init(TaskResult.failure) { if case .failure(let error) = $0 { error } else { nil } }
    }
  }

  /// The case paths of ``TaskResult``.
  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}
