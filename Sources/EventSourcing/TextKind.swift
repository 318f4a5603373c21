/// The one policy for what a user-visible text may hold: every name, title and free text the
/// apps store and show to other people goes through it (`FieldChecks.text`).
///
/// No text may hold control characters (NUL, BEL, ESC, …) or invisible format characters, the
/// bidi overrides and isolates (U+202A–U+202E, U+2066–U+2069) among them: in other users' lists
/// and notifications they would disguise what is read ("evil\u{202E}txt.exe"), and in a terminal
/// or a log they would act instead of showing. The zero-width joiners (U+200C, U+200D) stay
/// allowed, because emoji and some scripts need them.
public enum TextKind: Sendable, Equatable {
    /// A name or title, shown on one line: no line breaks or tabs either.
    case singleLine
    /// Free text, such as a description or a message: line breaks (`\n`) and tabs allowed.
    case multiLine

    /// `text` with Windows line ends (`\r\n`) made `\n` in free text, so a text typed on any
    /// system is stored one way; a name is returned as it is.
    public func normalised(_ text: String) -> String {
        guard self == .multiLine, text.unicodeScalars.contains("\r") else { return text }
        var scalars = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if scalar == "\n", previous == "\r" { scalars.removeLast() }
            scalars.append(scalar)
            previous = scalar
        }
        return String(scalars)
    }

    /// What is wrong with `text` for this kind, worded for a person; nil when it is fine.
    public func problem(with text: String) -> String? {
        guard text.unicodeScalars.contains(where: { !allows($0) }) else { return nil }
        switch self {
        case .singleLine: return "must not contain control characters or line breaks"
        case .multiLine: return "must not contain control characters other than line breaks and tabs"
        }
    }

    /// Whether a text of this kind may hold `scalar`.
    public func allows(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control: self == .multiLine && (scalar == "\n" || scalar == "\t")
        case .format: scalar == "\u{200C}" || scalar == "\u{200D}"
        // U+2028 and U+2029 break lines where no client expects it; free text breaks with `\n`.
        case .lineSeparator, .paragraphSeparator: false
        default: true
        }
    }
}
