import EventSourcing
import Foundation

/// Normalisation and shape rules for account fields. Pure, so the API can apply them before it
/// builds a command (to resolve an e-mail at login or reset, or a username in the quiz) and the
/// decider applies exactly the same ones.
///
/// Each `…Problem` function answers what is wrong with an already normalised value, for a
/// person, or nil when the value is fine.
public enum AccountRules {
    /// UTF-8 bytes of an e-mail at most. RFC 5321 allows 254 characters, but the log limits a
    /// tag to 200 bytes (`EventLogLimits.tagBytesMax`) and `email:<e-mail>` must fit in one.
    public static let emailBytesMax = 200 - "email:".utf8.count
    /// Characters in a username, at least and at most.
    public static let usernameLengthRange = 3...30
    /// Characters in a display name, at least and at most (after trimming).
    public static let displayNameLengthRange = 1...100
    /// Characters in a first or last name at most (after trimming).
    public static let personNameLengthMax = 100
    /// Characters in a postcode, at least and at most (after normalising).
    public static let postcodeLengthRange = 2...10

    /// An e-mail as compared and stored: trimmed and lowercased, so uniqueness ignores case.
    public static func normaliseEmail(_ raw: String) -> String {
        EmailAddress.normalised(raw)
    }

    /// A username as compared and tagged: trimmed and lowercased. The account keeps the
    /// username as its owner wrote it (trimmed), for display.
    public static func normaliseUsername(_ raw: String) -> String {
        raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// A postcode as stored and grouped by: upper-case with all whitespace removed (`1234 ab`
    /// and `1234AB` are one neighbourhood).
    public static func normalisePostcode(_ raw: String) -> String {
        String(raw.filter { !$0.isWhitespace }).uppercased()
    }

    /// A name as stored: trimmed.
    public static func normaliseName(_ raw: String) -> String {
        raw.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// One `@`, a non-empty local part, a domain of at least two non-empty dot-separated labels,
    /// no whitespace or control characters, and short enough for its tag. Deliverability is the
    /// mailer's business; this only keeps obvious garbage out of the log and its indexes.
    public static func emailProblem(_ email: String) -> String? {
        if email.utf8.count > emailBytesMax { return "must be at most \(emailBytesMax) bytes" }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return "must be an e-mail address" }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }) else { return "must be an e-mail address" }
        if email.unicodeScalars.contains(where: isSpaceOrControl) { return "must not contain spaces" }
        return nil
    }

    /// 3–30 ASCII letters, digits, `.`, `_` or `-`. ASCII only, because look-alike letters from
    /// other scripts would let two players appear under the same name.
    public static func usernameProblem(_ username: String) -> String? {
        guard usernameLengthRange.contains(username.count) else {
            return "must be \(usernameLengthRange.lowerBound)–\(usernameLengthRange.upperBound) characters"
        }
        let allowed = username.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (isASCIILetterOrDigit(scalar) || ".-_".unicodeScalars.contains(scalar))
        }
        return allowed ? nil : "may contain only letters, digits, '.', '_' and '-'"
    }

    /// A normalised postcode: 2–10 ASCII letters or digits.
    public static func postcodeProblem(_ postcode: String) -> String? {
        guard postcodeLengthRange.contains(postcode.count) else {
            return "must be \(postcodeLengthRange.lowerBound)–\(postcodeLengthRange.upperBound) letters or digits"
        }
        return postcode.unicodeScalars.allSatisfy(isASCIILetterOrDigit) ? nil : "may contain only letters and digits"
    }

    /// A trimmed display name: 1–100 characters, and only what `TextKind.singleLine` allows
    /// (the text policy every app's names share).
    public static func displayNameProblem(_ name: String) -> String? {
        guard displayNameLengthRange.contains(name.count) else {
            return "must be \(displayNameLengthRange.lowerBound)–\(displayNameLengthRange.upperBound) characters"
        }
        return TextKind.singleLine.problem(with: name)
    }

    /// A trimmed first or last name: at most 100 characters, and only what `TextKind.singleLine`
    /// allows; empty means none.
    public static func personNameProblem(_ name: String) -> String? {
        guard name.count <= personNameLengthMax else { return "must be at most \(personNameLengthMax) characters" }
        return TextKind.singleLine.problem(with: name)
    }

    private static func isSpaceOrControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
    }

    private static func isASCIILetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": true
        default: false
        }
    }
}
