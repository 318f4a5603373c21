import Foundation
import HTTPTypes

/// A command kept in the outbox until the server answers it: the HTTP request as the generated
/// operation made it, its Idempotency-Key included, minus the bearer token (the session's
/// current one is sent). It is sent only while its user is signed in.
public struct QueuedCommand: Sendable, Codable, Identifiable, Equatable {
    /// The command's Idempotency-Key, which the server takes as the command's id.
    public let id: UUID
    /// Its place in the outbox: commands are sent in this order, one at a time.
    public let sequence: UInt64
    /// The operation of openapi.yaml, such as `completeTask`.
    public let operationID: String
    /// Whose command it is; nil when queued signed out (it then goes with whoever signs in).
    public let userId: String?
    public let queuedAt: Date
    let method: String
    /// Path and query, relative to the server's URL.
    let path: String
    let headers: [Header]
    let body: Data?

    struct Header: Sendable, Codable, Equatable {
        let name: String
        let value: String
    }

    init(sequence: UInt64, operationID: String, userId: String?, request: HTTPRequest, body: Data?, now: Date = Date()) throws {
        guard let key = request.headerFields[IdempotencyKeyMiddleware.header].flatMap(UUID.init(uuidString:)) else {
            throw OutboxError.notACommand(operationID)
        }
        id = key
        self.sequence = sequence
        self.operationID = operationID
        self.userId = userId
        queuedAt = now
        method = request.method.rawValue
        path = request.path ?? "/"
        headers = request.headerFields.filter { $0.name != .authorization }.map { Header(name: $0.name.rawName, value: $0.value) }
        self.body = body
    }

    /// The request to send, as it was made.
    var request: HTTPRequest {
        var fields = HTTPFields()
        for header in headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        return HTTPRequest(method: HTTPRequest.Method(method) ?? .post, scheme: nil, authority: nil, path: path, headerFields: fields)
    }
}

/// What became of a queued command, delivered once through `Outbox.outcomes`.
public struct OutboxOutcome: Sendable, Codable, Identifiable, Equatable {
    public enum Result: Sendable, Codable, Equatable {
        /// A 2xx, with its body (decode it with `decode(_:)`).
        case accepted(status: Int, body: Data)
        /// A refusal: on replay a 409, 412 or 422 is a rejection like any other, never dropped.
        case rejected(LogbookProblem)
    }

    /// The command's id (its Idempotency-Key).
    public let id: UUID
    public let sequence: UInt64
    public let operationID: String
    public let result: Result

    /// The accepted body as `type` (a generated `Components.Schemas` type); throws the problem
    /// of a rejected command.
    public func decode<Body: Decodable>(_ type: Body.Type) throws -> Body {
        switch result {
        case let .accepted(_, body): return try WireDecoder.decode(type, from: body)
        case let .rejected(problem): throw problem
        }
    }
}

public enum OutboxError: Error, Sendable, Equatable {
    /// Only commands (POST, PUT, PATCH, DELETE) are queued.
    case notACommand(String)
    /// The client was made without a storage directory, so it has no outbox.
    case noOutbox
    /// A closure given to `enqueue` made no request.
    case nothingSent
}
