import Foundation
import HTTPTypes

/// A refusal of the server's, as its problem+json says it (RFC 9457): the status, the stable
/// machine `code` an app switches on, and for validation the fields at fault.
public struct LogbookProblem: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// One field at fault in a validation problem.
    public struct FieldError: Sendable, Equatable, Codable {
        public var field: String
        public var message: String
    }

    public var status: Int
    /// Stable across releases: `validation_failed`, `not_a_member`, `precondition_failed`, …
    public var code: String
    public var title: String
    public var detail: String?
    public var errors: [FieldError]
    /// The server's `Retry-After` in seconds, when it gave one (429, 503).
    public var retryAfterSeconds: Double?

    public init(status: Int, code: String, title: String, detail: String? = nil, errors: [FieldError] = [], retryAfterSeconds: Double? = nil) {
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.errors = errors
        self.retryAfterSeconds = retryAfterSeconds
    }

    public var description: String {
        let fields = errors.map { "\($0.field): \($0.message)" }.joined(separator: "; ")
        return "\(status) \(code)" + (detail.map { ": \($0)" } ?? "") + (fields.isEmpty ? "" : " [\(fields)]")
    }

    /// The problem a response carries: its problem+json when it has one, else one made of its
    /// status (a proxy's HTML 502 has no code of ours: `http_<status>`).
    static func of(status: Int, headers: HTTPFields, body: Data) -> LogbookProblem {
        let retryAfter = headers[.retryAfter].flatMap { RetryAfter.seconds($0) }
        struct Wire: Decodable {
            var code: String?
            var title: String?
            var detail: String?
            var errors: [FieldError]?
        }
        let wire = try? JSONDecoder().decode(Wire.self, from: body)
        return LogbookProblem(
            status: status, code: wire?.code ?? "http_\(status)", title: wire?.title ?? HTTPResponse.Status(code: status).reasonPhrase,
            detail: wire?.detail, errors: wire?.errors ?? [], retryAfterSeconds: retryAfter)
    }
}

/// `Retry-After`: delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
enum RetryAfter {
    static func seconds(_ value: String, now: Date = Date()) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text), seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
