import EventSourcing
import Foundation

/// Collects every field problem of one command, so a client learns all of them at once
/// instead of fixing one per round trip.
struct ReportChecks {
    private(set) var errors: [FieldError] = []

    /// `raw` trimmed, recording a problem when it is not within `bounds` characters. Trimmed
    /// first so that a title of spaces is empty.
    mutating func text(_ raw: String, in bounds: ClosedRange<Int>, field: String) -> String {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if !bounds.contains(text.count) {
            errors.append(FieldError(field, "must be \(bounds.lowerBound) to \(bounds.upperBound) characters"))
        }
        return text
    }

    /// The category named `raw`, recording a problem when there is none.
    mutating func category(_ raw: String) -> ReportCategory? {
        guard let category = ReportCategory(rawValue: raw) else {
            errors.append(FieldError("category", "must be one of \(ReportCategory.names)"))
            return nil
        }
        return category
    }

    /// Records a problem unless `degrees` is a finite number within `bounds` (NaN and the
    /// infinities are in no finite range).
    mutating func degrees(_ degrees: Double, in bounds: ClosedRange<Double>, field: String) {
        if !bounds.contains(degrees) {
            errors.append(FieldError(field, "must be from \(Int(bounds.lowerBound)) to \(Int(bounds.upperBound)) degrees"))
        }
    }

    /// Throws the collected problems, if any.
    func check() throws(NeighbourhoodError) {
        if !errors.isEmpty { throw .validationFailed(errors) }
    }
}
