/// The counter feature's state and actions as a client app would declare them (the test
/// target does not depend on the Examples library's implementation).
struct CounterState: Codable, Equatable, Sendable {
  var count: Int
  var isTimerRunning: Bool
}

enum CounterAction: Codable, Equatable, Sendable {
  case incrementButtonTapped
  case decrementButtonTapped
  case set(Int)
}

import Wire

/// Parses JSON text written in a test (a malformed literal is a bug in the test itself).
func J(_ text: String) -> JSON {
  do {
    return try JSON(parsing: text)
  } catch {
    fatalError("bad JSON in a test: \(error): \(text)")
  }
}
