import Architecture
import Foundation
import Testing

@testable import Hosting

/// A feature whose reducer draws from every non-deterministic dependency the host records, and
/// returns an effect (which replay must not run).
private struct Notes: Reducer {
  struct Note: Equatable, Codable, Identifiable {
    let id: UUID
    let createdAt: Date
    let luckyNumber: Int
    var text: String
  }

  struct State: Equatable, Codable {
    var notes: IdentifiedArrayOf<Note> = []
    var effectRuns = 0
  }

  enum Action: Equatable, Codable {
    case add(String)
    case edit(UUID, String)
    case effectRan
  }

  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date
  @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let text):
      let lucky = withRandomNumberGenerator { Int.random(in: 1...1_000_000, using: &$0) }
      state.notes.append(Note(id: uuid(), createdAt: date.now, luckyNumber: lucky, text: text))
      return .run { send in await send(.effectRan) }
    case .edit(let id, let text):
      state.notes[id: id]?.text = text
      return .none
    case .effectRan:
      state.effectRuns += 1
      return .none
    }
  }
}

/// Collects what a recorder hands its sinks.
private final class Collector<Action>: ReductionSink {
  var reductions: [Reduction<Action>] = []
  func didReduce(_ reduction: Reduction<Action>) { reductions.append(reduction) }
}

@Suite struct ReplayerTests {
  /// The host's dependencies: live generators wrapped for recording.
  private func hostDependencies() -> DependencyValues {
    var values = DependencyValues()
    values.context = .live
    RecordingDependencies.install(into: &values)
    return values
  }

  /// Reduces `actions` live, recording each, and returns the records and the final state.
  private func reduceLive(_ actions: [Notes.Action]) -> ([Reduction<Notes.Action>], Notes.State) {
    let dependencies = hostDependencies()
    let recorder = ReductionRecorder<Notes.Action>()
    let collector = Collector<Notes.Action>()
    recorder.add(collector)
    let reduce = DependencyValues.$current.withValue(dependencies) { Notes()._makeReduce() }
    var state = Notes.State()
    var revision: Int64 = 0
    DependencyValues.$current.withValue(dependencies) {
      for action in actions {
        recorder.expect(.host)
        _ = recorder.record(action, revision: { revision }) {
          revision += 1
          return reduce(&state, action)
        }
      }
    }
    return (collector.reductions, state)
  }

  @Test func recordsEveryDrawOfTheReduceInOrder() {
    let (records, state) = reduceLive([.add("one"), .add("two")])
    #expect(records.count == 2)
    let first = state.notes[0]
    #expect(records[0].draws.count == 3)
    #expect(records[0].draws.contains(.uuid(first.id)))
    #expect(records[0].draws.contains(.date(first.createdAt.timeIntervalSinceReferenceDate)))
    #expect(records.map(\.revision) == [1, 2])
    #expect(records.allSatisfy { $0.origin == .host })
  }

  @Test func replayGivesBackTheExactStateWithoutRunningEffects() throws {
    let (records, live) = reduceLive([.add("one"), .add("two"), .add("three")])
    let id = live.notes[1].id
    let (more, _) = reduceLive([.edit(id, "edited")])
    var replayed = Notes.State()
    let replayer = Replayer(reducer: { Notes() }, dependencies: hostDependencies())
    var queue = (records + more).makeIterator()
    try replayer.replay(into: &replayed) {
      queue.next().map { ($0.revision, $0.action, $0.draws) }
    }
    var expected = live
    expected.notes[id: id]?.text = "edited"
    #expect(replayed == expected)
    #expect(replayed.effectRuns == 0, "replay must not run effects")
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(try encoder.encode(replayed) == encoder.encode(expected))
  }

  @Test func replayReportsARecordThatDoesNotMatchTheReducer() {
    let (records, _) = reduceLive([.add("one")])
    let replayer = Replayer(reducer: { Notes() }, dependencies: hostDependencies())
    var state = Notes.State()
    var queue = [(records[0].revision, records[0].action, Array(records[0].draws.dropLast()))]
      .makeIterator()
    #expect(throws: ReplayDivergence.self) {
      try replayer.replay(into: &state) { queue.next() }
    }
  }

  @Test func drawsOutsideAReduceAreNotRecorded() {
    let dependencies = hostDependencies()
    let tape = DrawTape()
    _ = dependencies.uuid()
    #expect(tape.draws.isEmpty)
    _ = ThreadLocalTape.with(tape) { dependencies.uuid() }
    #expect(tape.draws.count == 1)
  }
}
