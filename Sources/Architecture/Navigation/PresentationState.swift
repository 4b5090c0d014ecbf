/// The state of a feature presented by its parent (a sheet, an alert, a destination), `nil`
/// when nothing is presented. Used as a property wrapper, `@Presents`:
///
/// ```swift
/// struct State {
///   @Presents var destination: Destination.State?
/// }
/// // in body:
/// Reduce { … }
///   .ifLet(\.$destination, action: \.destination) { Destination() }
/// ```
///
/// A presentation's identity is the presented value's, as in TCA: its `id` when it is
/// `Identifiable`, its case (and its payload's `id`) when it is an enum, else just its place. The
/// presentation reducer cancels the effects of a presentation once its identity is gone —
/// dismissed, set to `nil`, or replaced by a value of another identity, by any reducer (a change
/// made outside the `ifLet` is seen by the next action that reaches it). Mutating the presented
/// value in place, or replacing it by one of the same identity, keeps the presentation.
/// The value lives in a copy-on-write box, so recursive destinations are possible and copies
/// are cheap. Equality, hashing and `Codable` see only the wrapped optional value.
@propertyWrapper
public struct PresentationState<State> {
  var box: _PresentationBox<State>
  /// The identity of the presentation the presentation reducer last saw mounted (its effects
  /// run under it), or `nil`. Not part of the value: equality ignores it.
  var presentedID: AnyHashable?

  /// Wraps an optional presented state.
  public init(wrappedValue: State?) {
    self.box = _PresentationBox(wrappedValue)
    self.presentedID = nil
  }

  /// The presented state, or `nil`.
  public var wrappedValue: State? {
    get { self.box.value }
    set {
      self.uniqueBox()
      self.box.value = newValue
    }
    _modify {
      self.uniqueBox()
      yield &self.box.value
    }
  }

  /// The presentation state itself, for `\.$destination` key paths.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
    _modify { yield &self }
  }

  private mutating func uniqueBox() {
    if !isKnownUniquelyReferenced(&self.box) { self.box = _PresentationBox(self.box.value) }
  }
}

/// `@Presents var destination: Destination.State?`, as in TCA.
public typealias Presents = PresentationState

/// The copy-on-write storage of a ``PresentationState``.
final class _PresentationBox<State> {
  var value: State?
  init(_ value: State?) { self.value = value }
}

// Safe: the box is only mutated after `isKnownUniquelyReferenced` proves this state owns it
// (copy-on-write); a box shared between copies is only read.
extension PresentationState: @unchecked Sendable where State: Sendable {}

extension PresentationState: Equatable where State: Equatable {
  /// Compares the presented values; two copies of one presentation are equal at once, without
  /// comparing what they present (as TCA's fast path: comparing deeply nested destinations
  /// would otherwise compare every level).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.box === rhs.box || lhs.wrappedValue == rhs.wrappedValue
  }
}

extension PresentationState: Hashable where State: Hashable {
  /// Hashes the presented value.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.wrappedValue)
  }
}

extension PresentationState: Encodable where State: Encodable {
  /// Encodes the presented value (or `null`).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(self.wrappedValue)
  }
}

extension PresentationState: Decodable where State: Decodable {
  /// Decodes the presented value (or `null`).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(wrappedValue: container.decodeNil() ? nil : try container.decode(State.self))
  }
}

extension PresentationState: CustomReflectable {
  /// Reflects as the presented optional value.
  public var customMirror: Mirror {
    Mirror(reflecting: self.wrappedValue as Any)
  }
}

/// An action of a presented feature, or the parent dismissing it.
///
/// Synthesized `Codable`: `{"presented":{"_0":…}}`, `{"dismiss":{}}`.
public enum PresentationAction<Action>: CasePathable {
  /// Dismisses the presented feature (sets its state to `nil`, cancelling its effects).
  case dismiss
  /// An action of the presented feature.
  indirect case presented(Action)

  /// The case paths of ``PresentationAction``.
  public struct AllCasePaths: Sendable {
    /// `.dismiss`.
    public var dismiss: AnyCasePath<PresentationAction, Void> {
      .init(.dismiss) { if case .dismiss = $0 { true } else { false } }
    }
    /// `.presented`.
    public var presented: AnyCasePath<PresentationAction, Action> {
      .init(PresentationAction.presented) { if case .presented(let a) = $0 { a } else { nil } }
    }
  }

  /// The case paths of ``PresentationAction``.
  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}
extension PresentationAction: Encodable where Action: Encodable {}
extension PresentationAction: Decodable where Action: Decodable {}
