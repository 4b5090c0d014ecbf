import Testing

@testable import Architecture

@Suite struct CasePathTests {
  @Test func keyPathExtractsAndEmbedsItsCaseOnly() {
    let path = AnyCasePath<Parent.Action, Counter.Action>(\.counter)
    #expect(path.extract(from: .counter(.increment)) == .increment)
    #expect(path.extract(from: .optional(.increment)) == nil)
    #expect(path.embed(.decrement) == .counter(.decrement))
  }

  @Test func nestedKeyPathComposesBothLevels() {
    let path = AnyCasePath<Parent.Action, Int>(\.counter.set)
    #expect(path.extract(from: .counter(.set(7))) == 7)
    #expect(path.extract(from: .counter(.increment)) == nil)
    #expect(path.extract(from: .optional(.set(7))) == nil)
    #expect(path.embed(3) == .counter(.set(3)))
  }

  @Test func identifiedActionIDSubscriptMatchesOnlyThatID() {
    let path = AnyCasePath<Parent.Action, Counter.Action>(\.counters[id: 3])
    #expect(path.extract(from: .counters(.element(id: 3, action: .increment))) == .increment)
    #expect(path.extract(from: .counters(.element(id: 4, action: .increment))) == nil)
    #expect(path.embed(.decrement) == .counters(.element(id: 3, action: .decrement)))
  }

  @Test func voidCaseMatchesByCase() {
    let path = AnyCasePath<Counter.Action, Void>(\.increment)
    #expect(path.extract(from: .increment) != nil)
    #expect(path.extract(from: .decrement) == nil)
    #expect(path.embed(()) == .increment)
  }

  @Test func presentationAndStackActionsAreCasePathable() {
    let presented = AnyCasePath<Host.Action, Ticker.Action>(\.destination.presented)
    #expect(presented.extract(from: .destination(.presented(.tick))) == .tick)
    #expect(presented.extract(from: .destination(.dismiss)) == nil)
    let dismiss = AnyCasePath<Host.Action, Void>(\.destination.dismiss)
    #expect(dismiss.extract(from: .destination(.dismiss)) != nil)
    let element = AnyCasePath<Host.Action, Ticker.Action>(\.path[id: 1])
    #expect(element.extract(from: .path(.element(id: 1, action: .tick))) == .tick)
    #expect(element.extract(from: .path(.element(id: 0, action: .tick))) == nil)
    #expect(element.embed(.stop) == .path(.element(id: 1, action: .stop)))
  }
}
