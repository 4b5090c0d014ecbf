/// A description of an animation that a feature asks for along with an action, spelled as
/// SwiftUI's `Animation`: `.default`, `.linear`, `.spring(response:dampingFraction:)`,
/// `.interpolatingSpring(stiffness:damping:)`, `.easeInOut(duration:)`…
///
/// TCA features pass animations to `send(_:animation:)` in effects, to ``Store/send(_:animation:)``
/// and to button actions (`.send(.confirm, animation: .default)`). This library has no views, so
/// the action is applied exactly as without the animation; the value is kept where it is part of
/// state (a ``ButtonState``'s action compares it) so that such features and their tests compile
/// and behave unchanged.
///
/// ```swift
/// return .run { send in
///   for await _ in self.clock.timer(interval: .seconds(1)) {
///     await send(.timerTicked, animation: .interpolatingSpring(stiffness: 3000, damping: 40))
///   }
/// }
/// ```
///
/// Two animations are equal when they were built the same way (same factory, same arguments,
/// same modifiers), as SwiftUI compares them.
public struct Animation: Hashable, Sendable, CustomStringConvertible {
  /// How the animation was built, e.g. `spring(response: 0.5, dampingFraction: 0.8)`.
  public let description: String

  private init(_ description: String) {
    self.description = description
  }

  private static func make(_ name: String, _ arguments: [(String?, Double?)]) -> Self {
    let listed = arguments.compactMap { label, value -> String? in
      guard let value else { return nil }
      return label.map { "\($0): \(value)" } ?? "\(value)"
    }
    return Self("\(name)(\(listed.joined(separator: ", ")))")
  }

  private func modified(_ modifier: String) -> Self {
    Self("\(self.description).\(modifier)")
  }

  // MARK: - Standard animations

  /// The platform's default animation.
  public static let `default` = Self("default")
  /// A constant-speed animation.
  public static let linear = Self("linear")
  /// An animation that starts slowly.
  public static let easeIn = Self("easeIn")
  /// An animation that ends slowly.
  public static let easeOut = Self("easeOut")
  /// An animation that starts and ends slowly.
  public static let easeInOut = Self("easeInOut")
  /// A spring with the default response and damping.
  public static let spring = Self("spring")
  /// A spring for interactive gestures.
  public static let interactiveSpring = Self("interactiveSpring")
  /// A spring with a bounce.
  public static let bouncy = Self("bouncy")
  /// A spring without a bounce.
  public static let smooth = Self("smooth")
  /// A quick spring with little bounce.
  public static let snappy = Self("snappy")

  /// A constant-speed animation lasting `duration` seconds.
  public static func linear(duration: Double) -> Self { .make("linear", [("duration", duration)]) }
  /// An animation lasting `duration` seconds that starts slowly.
  public static func easeIn(duration: Double) -> Self { .make("easeIn", [("duration", duration)]) }
  /// An animation lasting `duration` seconds that ends slowly.
  public static func easeOut(duration: Double) -> Self {
    .make("easeOut", [("duration", duration)])
  }
  /// An animation lasting `duration` seconds that starts and ends slowly.
  public static func easeInOut(duration: Double) -> Self {
    .make("easeInOut", [("duration", duration)])
  }
  /// An animation along a cubic Bézier timing curve.
  public static func timingCurve(
    _ c0x: Double, _ c0y: Double, _ c1x: Double, _ c1y: Double, duration: Double = 0.35
  ) -> Self {
    .make("timingCurve", [(nil, c0x), (nil, c0y), (nil, c1x), (nil, c1y), ("duration", duration)])
  }

  /// A spring described by its response and damping.
  public static func spring(
    response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: Double = 0
  ) -> Self {
    .make(
      "spring",
      [
        ("response", response), ("dampingFraction", dampingFraction),
        ("blendDuration", blendDuration),
      ])
  }
  /// A spring described by its duration and bounce.
  public static func spring(duration: Double, bounce: Double = 0, blendDuration: Double = 0)
    -> Self
  {
    .make(
      "spring", [("duration", duration), ("bounce", bounce), ("blendDuration", blendDuration)])
  }
  /// A spring for interactive gestures, described by its response and damping.
  public static func interactiveSpring(
    response: Double = 0.15, dampingFraction: Double = 0.86, blendDuration: Double = 0.25
  ) -> Self {
    .make(
      "interactiveSpring",
      [
        ("response", response), ("dampingFraction", dampingFraction),
        ("blendDuration", blendDuration),
      ])
  }
  /// A spring described by its physical properties.
  public static func interpolatingSpring(
    mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0
  ) -> Self {
    .make(
      "interpolatingSpring",
      [
        ("mass", mass), ("stiffness", stiffness), ("damping", damping),
        ("initialVelocity", initialVelocity),
      ])
  }
  /// A spring with a bounce, lasting about `duration` seconds.
  public static func bouncy(duration: Double = 0.5, extraBounce: Double = 0) -> Self {
    .make("bouncy", [("duration", duration), ("extraBounce", extraBounce)])
  }
  /// A spring without a bounce, lasting about `duration` seconds.
  public static func smooth(duration: Double = 0.5, extraBounce: Double = 0) -> Self {
    .make("smooth", [("duration", duration), ("extraBounce", extraBounce)])
  }
  /// A quick spring, lasting about `duration` seconds.
  public static func snappy(duration: Double = 0.5, extraBounce: Double = 0) -> Self {
    .make("snappy", [("duration", duration), ("extraBounce", extraBounce)])
  }

  // MARK: - Modifiers

  /// The animation, started after `delay` seconds.
  public func delay(_ delay: Double) -> Self { self.modified("delay(\(delay))") }
  /// The animation, played `speed` times as fast.
  public func speed(_ speed: Double) -> Self { self.modified("speed(\(speed))") }
  /// The animation, repeated `repeatCount` times.
  public func repeatCount(_ repeatCount: Int, autoreverses: Bool = true) -> Self {
    self.modified("repeatCount(\(repeatCount), autoreverses: \(autoreverses))")
  }
  /// The animation, repeated forever.
  public func repeatForever(autoreverses: Bool = true) -> Self {
    self.modified("repeatForever(autoreverses: \(autoreverses))")
  }
}

extension Send {
  /// Sends an action back into the store with an animation, as TCA's `send(_:animation:)`.
  ///
  /// The store has no views to animate: the action is reduced exactly as by
  /// ``callAsFunction(_:)``.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - animation: The animation the feature asks for.
  public func callAsFunction(_ action: sending Action, animation: Animation?) async {
    await self(action)
  }
}

extension Effect {
  /// An effect that sends an action right after the current one, with an animation, as TCA's
  /// `.send(_:animation:)`. The action is reduced exactly as by ``send(_:)``.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - animation: The animation the feature asks for.
  /// - Returns: The effect.
  public static func send(_ action: Action, animation: Animation?) -> Self {
    .send(action)
  }

  /// This effect with its actions animated, as TCA's `Effect.animation(_:)`. The actions are
  /// reduced exactly as without it.
  ///
  /// - Parameter animation: The animation the feature asks for.
  /// - Returns: The same effect.
  public func animation(_ animation: Animation? = .default) -> Self {
    self
  }
}

extension Store {
  /// Sends an action with an animation, as TCA's `store.send(_:animation:)` in a view. The
  /// action is reduced exactly as by ``send(_:)``.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - animation: The animation the view asks for.
  /// - Returns: A task for the effects the action started.
  @discardableResult
  public func send(_ action: Action, animation: Animation?) -> StoreTask {
    self.send(action)
  }
}

extension StoreActor {
  /// Sends an action with an animation, as ``Store/send(_:animation:)``. The action is reduced
  /// exactly as by ``send(_:)``.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - animation: The animation the caller asks for.
  /// - Returns: A task for the effects the action started.
  @discardableResult
  public func send(_ action: Action, animation: Animation?) -> StoreTask {
    self.send(action)
  }
}
