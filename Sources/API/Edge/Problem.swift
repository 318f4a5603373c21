import Foundation
import Hummingbird
import NIOHTTP1

/// An RFC 9457 problem with a stable machine `code`: the only shape an error leaves the service in.
public struct Problem: Error, Sendable, Equatable, Codable {
    /// One field's problem, for validation errors.
    public struct FieldProblem: Sendable, Equatable, Codable {
        /// The field as the API spells it.
        public var field: String
        /// What is wrong with it.
        public var message: String
    }

    /// A URI naming the problem type (`/problems/<code>`).
    public var type: String
    /// A short, stable summary of the type.
    public var title: String
    /// The HTTP status.
    public var status: Int
    /// What went wrong this time, for a person.
    public var detail: String?
    /// Stable machine code (`validation_failed`, `not_a_member`).
    public var code: String
    /// Per-field problems, for validation errors.
    public var errors: [FieldProblem]?
    /// Headers the response carries besides the body's (`Retry-After`).
    public var headers: HTTPFields = [:]

    private enum CodingKeys: String, CodingKey {
        case type, title, status, detail, code, errors
    }

    /// A problem of `status` with `code`.
    public init(
        status: HTTPResponse.Status, code: String, title: String, detail: String? = nil, errors: [FieldProblem]? = nil,
        headers: HTTPFields = [:]
    ) {
        type = "/problems/\(code)"
        self.headers = headers
        self.title = title
        self.status = status.code
        self.detail = detail
        self.code = code
        self.errors = errors
    }

    /// The problem as an `application/problem+json` response.
    public func response() -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a struct of strings and ints cannot fail.
        let body = (try? encoder.encode(self)) ?? Data(#"{"code":"internal_error","status":500}"#.utf8)
        var fields: HTTPFields = [.contentType: "application/problem+json"]
        fields.append(contentsOf: headers)
        return Response(
            status: HTTPResponse.Status(code: status),
            headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
    }
}

extension Problem {
    /// The body was larger than the route accepts.
    static func bodyTooLarge(bytesMax: Int) -> Problem {
        Problem(status: .contentTooLarge, code: "body_too_large", title: "Request body too large",
                detail: "the body may hold at most \(bytesMax) bytes")
    }

    /// 400 `malformed_body`: the body could not be read as its framing promised. Whatever the
    /// body's stream throws is the client's doing, or its connection's: a chunk size that is not
    /// hexadecimal, a body that ends (the client half-closed, or reset the connection) before its
    /// Content-Length or its last chunk. Where the client is gone, no one reads the answer, but
    /// the request is still counted and logged as the client's failure, not the service's.
    static func malformedBody(_ error: any Error) -> Problem {
        let detail = switch error as? HTTPParserError {
        case .invalidChunkSize?: "a chunk size of the chunked body is not a hexadecimal number"
        case .invalidEOFState?: "the body ended before its Content-Length or its last chunk"
        default: "the body could not be read as its Content-Length or chunked encoding says"
        }
        return Problem(status: .badRequest, code: "malformed_body", title: "Malformed body", detail: detail)
    }

    /// An unexpected failure; its details go to the log, never to the client.
    static let internalError = Problem(status: .internalServerError, code: "internal_error", title: "Internal error",
                                       detail: "the service failed; the failure has been logged")
}
