import EventSourcing
import Foundation

/// Collects every field problem of one command, so a client learns all of them at once
/// instead of fixing one per round trip.
struct FieldChecks {
    private(set) var errors: [FieldError] = []

    /// `raw` trimmed, recording a problem when it is not 1–100 characters. Trimmed first so
    /// that "  " is empty and "Kitchen " cannot sit next to "Kitchen".
    mutating func name(_ raw: String, field: String = "name") -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        let bounds = HouseholdLimits.nameCharacters
        if !bounds.contains(name.count) {
            errors.append(FieldError(field, "must be \(bounds.lowerBound) to \(bounds.upperBound) characters"))
        }
        return name
    }

    /// Records a problem when `value` is outside `bounds`.
    mutating func number(_ value: Int, in bounds: ClosedRange<Int>, field: String) {
        if !bounds.contains(value) {
            errors.append(FieldError(field, "must be from \(bounds.lowerBound) to \(bounds.upperBound)"))
        }
    }

    /// Records a problem unless `code` is 22–64 URL-safe characters: the caller generates it,
    /// and a short one would be guessable while other characters would not survive sharing.
    mutating func joinCode(_ code: String) {
        let lengthOK = (HouseholdLimits.joinCodeCharactersMin...HouseholdLimits.joinCodeCharactersMax)
            .contains(code.unicodeScalars.count)
        if !lengthOK || !code.unicodeScalars.allSatisfy(Self.isURLSafe) {
            errors.append(FieldError(
                "joinCode",
                "must be \(HouseholdLimits.joinCodeCharactersMin) to \(HouseholdLimits.joinCodeCharactersMax) "
                    + "characters of A-Z, a-z, 0-9, '-' and '_'"))
        }
    }

    /// Records a problem for `field` found by the caller.
    mutating func fail(_ field: String, _ message: String) {
        errors.append(FieldError(field, message))
    }

    /// Throws the collected problems, if any.
    func check() throws(HouseholdError) {
        if !errors.isEmpty { throw .validationFailed(errors) }
    }

    /// The base64url alphabet.
    private static func isURLSafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "-", "_": true
        default: false
        }
    }
}
