import Foundation

/// How names compare wherever a name must be unique (an organisation's across the log, a
/// location's or form's within its organisation, a group's among its owner's): case- and
/// width-insensitively, after trimming.
public enum FoldedName {
    /// `name` trimmed, case- and width-folded: `"  ACME "` and `"acme"` are the same name.
    public static func folded(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines)
            .folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
    }

    /// The folded name's SHA-256 in lowercase hex: the same for every spelling of one name, and
    /// short enough for a tag whatever the name's length and script.
    public static func digest(_ name: String) -> String {
        SHA256Hex.digest(folded(name))
    }
}
