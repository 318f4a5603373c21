import Foundation

/// How e-mail addresses compare across domains: an account's (unique case-insensitively) and an
/// albums invitation's (which an account with that address answers) must normalise alike.
public enum EmailAddress {
    /// `raw` trimmed and lowercased.
    public static func normalised(_ raw: String) -> String {
        raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}
