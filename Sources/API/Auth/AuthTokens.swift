import Accounts
import Crypto
import Foundation

/// Bearer and reset tokens: 32 random bytes as unpadded base64url (43 characters). The service
/// hands a token out once and keeps only its SHA-256 (`TokenHash`).
enum AuthTokens {
    /// Random bytes in a token.
    static let tokenBytes = 32
    /// Characters in a token's text.
    static let tokenLength = 43

    /// A fresh token from the system's secure generator.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return text(of: (0..<tokenBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// `bytes` as a token: unpadded base64url.
    static func text(of bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The hash the log and the read models know the token by.
    static func hash(_ token: String) -> TokenHash {
        TokenHash(digest: SHA256.hash(data: Data(token.utf8)))
    }

    /// Whether `text` could be a token this service made; anything else needs no lookup.
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == tokenLength && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
            default: false
            }
        }
    }
}
