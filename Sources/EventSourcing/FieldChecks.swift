import Foundation

/// Collects every field problem of one command, so a client learns all of them at once instead
/// of fixing one per round trip. Each domain adds its own checks in an extension and throws its
/// own `validationFailed` through `check(_:)`.
public struct FieldChecks: Sendable {
    /// The problems found so far, in the order the fields were checked.
    public private(set) var errors: [FieldError] = []

    /// No problems yet.
    public init() {}

    /// `raw` trimmed, recording a problem when it is not within `bounds` characters or holds a
    /// character `kind` refuses (`TextKind`: the one text policy for every name, title and free
    /// text). Trimmed first so that a value of spaces is empty and "Kitchen " cannot sit next
    /// to "Kitchen".
    public mutating func text(
        _ raw: String, in bounds: ClosedRange<Int>, field: String, kind: TextKind = .singleLine
    ) -> String {
        let text = kind.normalised(raw.trimmingCharacters(in: .whitespacesAndNewlines))
        if !bounds.contains(text.count) {
            fail(field, "must be \(bounds.lowerBound) to \(bounds.upperBound) characters")
        } else if let problem = kind.problem(with: text) {
            fail(field, problem)
        }
        return text
    }

    /// Records a problem when `value` is outside `bounds`.
    public mutating func number(_ value: Int, in bounds: ClosedRange<Int>, field: String) {
        if !bounds.contains(value) { fail(field, "must be from \(bounds.lowerBound) to \(bounds.upperBound)") }
    }

    /// Records a problem for `field` found by the caller.
    public mutating func fail(_ field: String, _ message: String) {
        errors.append(FieldError(field, message))
    }

    /// Throws `failure(errors)` when any problem was found.
    public func check<Failure: Error>(_ failure: ([FieldError]) -> Failure) throws(Failure) {
        if !errors.isEmpty { throw failure(errors) }
    }
}
