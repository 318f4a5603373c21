import Crypto
import Foundation
import HTTPTypes

/// The id that ties a request's log line to the commands it ran (their `correlationID` in the
/// log, which the audit shows): the client's `X-Correlation-ID` or `X-Request-ID` when it is a
/// safe short token, else a fresh UUID.
///
/// A client's value is checked before it is logged or echoed: at most `idBytesMax` characters of
/// `A-Z a-z 0-9 . _ -`, so it cannot carry an e-mail address, a bearer token's spaces, control
/// characters that forge log lines, or a long secret. Anything else is replaced, not refused: a
/// correlation id is a courtesy, and no request should fail for it.
struct RequestCorrelation: Sendable, Equatable {
    /// The id, as logged and echoed.
    let id: String

    /// The longest client value kept.
    static let idBytesMax = 64
    /// The request headers read, in order of preference.
    static let requestFields = [HTTPField.Name("X-Correlation-ID")!, HTTPField.Name("X-Request-ID")!]
    /// The response header that echoes the id.
    static let responseField = HTTPField.Name("X-Correlation-ID")!

    /// The current request's correlation; nil outside a request (seeding, tests calling handlers).
    @TaskLocal static var current: RequestCorrelation?

    /// The id of a request with `headers`.
    init(_ headers: HTTPFields) {
        let given = Self.requestFields.lazy.compactMap { headers[$0] }.first { Self.isSafe($0) }
        id = given ?? UUID().uuidString.lowercased()
    }

    init(id: String) {
        self.id = id
    }

    /// The id as the UUID a command's metadata holds: the id itself when it is a UUID, else a
    /// UUID derived from it (SHA-256, version 8), the same for every request carrying it.
    var commandCorrelationID: UUID {
        if let uuid = UUID(uuidString: id) { return uuid }
        var bytes = Array(SHA256.hash(data: Data(id.utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: custom
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 9562 variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// Whether `value` is kept: 1…`idBytesMax` characters of `A-Z a-z 0-9 . _ -`.
    static func isSafe(_ value: String) -> Bool {
        let bytes = value.utf8
        return (1...idBytesMax).contains(bytes.count) && bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"): true
            default: false
            }
        }
    }
}
