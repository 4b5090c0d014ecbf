import Testing

@testable import Architecture

/// A counter whose effects send with animations, as TCA features do.
private struct Animated: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    @Presents var alert: AlertState<Action.Alert>?
  }

  enum Action: Equatable, Sendable, CasePathable {
    case alert(PresentationAction<Alert>)
    case animatedRun
    case animatedSend
    case resetButtonTapped
    case tick

    enum Alert: Equatable, Sendable { case reset }

    struct AllCasePaths {
      var alert: AnyCasePath<Action, PresentationAction<Alert>> {
        .init(Action.alert) { if case .alert(let v) = $0 { v } else { nil } }
      }
      var tick: AnyCasePath<Action, Void> {
        .init(.tick) { if case .tick = $0 { true } else { false } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.reset)):
        state.count = 0
        return .none
      case .alert:
        return .none
      case .animatedRun:
        return .run { send in
          await send(.tick, animation: .interpolatingSpring(stiffness: 3000, damping: 40))
        }
        .animation(.easeInOut(duration: 0.2))
      case .animatedSend:
        return .send(.tick, animation: .default)
      case .resetButtonTapped:
        state.alert = .reset
        return .none
      case .tick:
        state.count += 1
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }
}

extension AlertState where Action == Animated.Action.Alert {
  fileprivate static let reset = Self {
    TextState("Reset?")
  } actions: {
    ButtonState(role: .destructive, action: .send(.reset, animation: .default)) {
      TextState("Reset")
    }
  }
}

/// `Animation` and the `animation:` arguments of TCA: accepted everywhere, applied as plain
/// sends (there are no views), and part of a button's identity.
@Suite struct AnimationTests {
  @Test func actionsSentWithAnAnimationAreReducedLikeAnyOther() async {
    let store = TestStore(initialState: Animated.State()) { Animated() }
    await store.send(.animatedRun)
    await store.receive(\.tick) { $0.count = 1 }
    await store.send(.animatedSend)
    await store.receive(\.tick) { $0.count = 2 }
  }

  @Test func aStoreSendsWithAnAnimation() async {
    let store = StoreActor(initialState: Animated.State()) { Animated() }
    await store.send(.tick, animation: .spring(response: 0.3, dampingFraction: 0.7)).finish()
    #expect(await store.state.count == 1)
  }

  @Test func aButtonsAnimationIsPartOfItsAction() async {
    let animated = ButtonState<Animated.Action.Alert>(action: .send(.reset, animation: .default)) {
      TextState("Reset")
    }
    let plain = ButtonState<Animated.Action.Alert>(action: .reset) { TextState("Reset") }
    let linear = ButtonState<Animated.Action.Alert>(action: .send(.reset, animation: .linear)) {
      TextState("Reset")
    }
    #expect(
      animated
        == ButtonState(action: .send(.reset, animation: .default)) {
          TextState("Reset")
        })
    #expect(animated != plain)
    #expect(animated != linear)
    #expect(animated.map { $0 }.action.animation == .default)
    #expect(_dumpLines(animated.action).joined().contains("animatedSend"))

    let store = TestStore(initialState: Animated.State(count: 3)) { Animated() }
    await store.send(.resetButtonTapped) { $0.alert = .reset }
    await store.send(.alert(.presented(.reset))) {
      $0.alert = nil
      $0.count = 0
    }
  }

  @Test func animationsAreEqualWhenBuiltTheSameWay() {
    #expect(Animation.default == .default)
    #expect(Animation.easeInOut(duration: 0.3) == .easeInOut(duration: 0.3))
    #expect(Animation.easeInOut(duration: 0.3) != .easeInOut(duration: 0.4))
    #expect(Animation.linear != .easeIn)
    #expect(Animation.spring().delay(1) == .spring().delay(1))
    #expect(Animation.spring().delay(1) != .spring())
    #expect(Animation.bouncy.speed(2).description == "bouncy.speed(2.0)")
  }
}
