/// The result of failable async work, `Equatable` when its success value is.
///
/// ```swift
/// return .run { send in
///   await send(.factResponse(TaskResult { try await self.factClient.fetch(count) }))
/// }
/// ```
///
/// Two failures are equal when the errors are equal (`Equatable` errors of the same type), or,
/// for errors that are not `Equatable`, when they have the same type and the same
/// `String(reflecting:)` description. `Result<Success, any Error>` works as well: see
/// `Result.init(catching:)` below.
public enum TaskResult<Success: Sendable>: Sendable {
  /// The work produced a value.
  case success(Success)
  /// The work threw an error.
  case failure(any Error)

  /// Runs async throwing work and captures its value or error.
  ///
  /// - Parameter body: The work.
  public init(catching body: @Sendable () async throws -> Success) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }

  /// Converts a `Result`.
  public init<Failure: Error>(_ result: Result<Success, Failure>) {
    switch result {
    case .success(let value): self = .success(value)
    case .failure(let error): self = .failure(error)
    }
  }

  /// The success value, or the error thrown.
  public var value: Success {
    get throws {
      switch self {
      case .success(let value): return value
      case .failure(let error): throw error
      }
    }
  }
}

extension TaskResult: Equatable where Success: Equatable {
  /// Compares values, or errors as described on ``TaskResult``.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.success(let lhs), .success(let rhs)):
      return lhs == rhs
    case (.failure(let lhs), .failure(let rhs)):
      return _errorsEqual(lhs, rhs)
    default:
      return false
    }
  }
}

extension TaskResult: Hashable where Success: Hashable {
  /// Hashes the value, or the error's type and description.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .success(let value):
      hasher.combine(0)
      hasher.combine(value)
    case .failure(let error):
      hasher.combine(1)
      hasher.combine(ObjectIdentifier(type(of: error)))
      hasher.combine(String(reflecting: error))
    }
  }
}

func _errorsEqual(_ lhs: any Error, _ rhs: any Error) -> Bool {
  guard type(of: lhs) == type(of: rhs) else { return false }
  // Cast through `Any`: the dynamic cast is what is meant (whether this error's type is
  // Equatable), and some compiler versions wrongly warn that a cast from `any Error` always
  // succeeds.
  if let lhs = (lhs as Any) as? any Equatable {
    func open<E: Equatable>(_ lhs: E) -> Bool { (rhs as? E) == lhs }
    return open(lhs)
  }
  return String(reflecting: lhs) == String(reflecting: rhs)
}

extension Result where Failure == any Error {
  /// Runs async throwing work and captures its value or error, as TCA 1.4+ feeds responses:
  /// `await send(.response(Result { try await client.fetch() }))`.
  ///
  /// - Parameter body: The work.
  public init(catching body: () async throws -> Success) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }
}
