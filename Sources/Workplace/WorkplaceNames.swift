import Crypto
import Foundation

/// How names compare in the workplace app: an organisation's name across the log, a location's
/// and a form's within their organisation, all case-insensitively and after trimming.
public enum WorkplaceNames {
    /// `name` trimmed, case- and width-folded: `"  ACME "` and `"acme"` are the same name.
    public static func folded(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines)
            .folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
    }

    /// The folded name's SHA-256 in lowercase hex: the same for every spelling of one name.
    public static func digest(_ name: String) -> String {
        SHA256.hash(data: Data(folded(name).utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
