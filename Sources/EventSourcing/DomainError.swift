/// What kind of refusal a domain error is; the API maps kinds to HTTP statuses at its edge.
public enum DomainErrorKind: Sendable, Equatable {
    /// The input is malformed or out of range (422).
    case validation
    /// The thing does not exist, or the actor may not know that it does (404).
    case notFound
    /// The actor may see the thing but not do this to it (403).
    case forbidden
    /// The request conflicts with the current state: taken, already done, not allowed now (409).
    case conflict
}

/// One field's problem, for `validation` errors.
public struct FieldError: Sendable, Equatable {
    /// The field's name as the API spells it (`frequencyDays`).
    public var field: String
    /// What is wrong with it, for a person.
    public var message: String

    /// A problem with `field`.
    public init(_ field: String, _ message: String) {
        self.field = field
        self.message = message
    }
}

/// A decider's refusal. Each domain has one exhaustive error enum conforming to this, so the
/// API can map any of them to problem+json without knowing the domain.
public protocol DomainError: Error, Sendable, Equatable {
    /// Stable machine code for clients (`email_taken`, `not_a_member`).
    var code: String { get }
    /// The HTTP-independent kind.
    var kind: DomainErrorKind { get }
    /// A sentence for a person.
    var detail: String { get }
    /// Per-field problems, for validation errors.
    var fieldErrors: [FieldError] { get }
}

extension DomainError {
    /// No per-field problems unless an error says otherwise.
    public var fieldErrors: [FieldError] { [] }
}
