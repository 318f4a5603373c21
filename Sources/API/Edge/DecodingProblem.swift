import Foundation
import NIOCore
import OpenAPIRuntime

/// The problem for a request the generated code could not decode: 400 `malformed_request`,
/// naming the field in `errors[{field, message}]` as a validation problem does whenever the
/// failure is at a field of the body.
///
/// A field is its path in the body: property names joined by dots, array items by their index
/// in brackets (`location.latitude`, `answers[0].rating`), as the deciders name fields too. The
/// decoder stops at the first field it cannot decode, so there is one (but every integer field
/// holding a fraction, found in the body itself); a body that is not JSON, or JSON that is not
/// the object the route takes, names none.
enum DecodingProblem {
    /// The problem for `decoding`, wrapped in the generated code's `error`. `body`, the
    /// request's collected body, finds the field Foundation's decoder leaves unnamed: a number
    /// that does not fit an integer field (`1.5`, `1e19`), which it reports as invalid JSON.
    static func problem(for decoding: DecodingError, in error: ServerError, body: ByteBuffer?) -> Problem {
        var fields = field(of: decoding).map { [$0] } ?? []
        var detail = describe(decoding, bodySent: error.request.headerFields[.contentType] != nil)
        if fields.isEmpty, case let .dataCorrupted(context) = decoding, context.codingPath.isEmpty, let body,
           let json = try? JSONSerialization.jsonObject(with: Data(buffer: body)) {
            fields = RequestBodySchemas.shared.integerMisfits(in: json, operationID: error.operationID)
                .map { Problem.FieldProblem(field: $0, message: integerMessage) }
            detail = fields.isEmpty ? "the body does not match the API" : fields.map { "\($0.field) \($0.message)" }.joined(separator: "; ")
        }
        return Problem(status: .badRequest, code: "malformed_request", title: "Malformed request",
                       detail: "the request does not match the API: \(detail)", errors: fields.isEmpty ? nil : fields)
    }

    /// What an integer field holding a fraction or a number beyond 64 bits is told.
    private static let integerMessage = "must be an integer (of at most 64 bits)"

    /// The field `error` is at, with what is wrong with it; nil at no field of the body.
    private static func field(of error: DecodingError) -> Problem.FieldProblem? {
        let (keys, message): ([any CodingKey], String)
        switch error {
        case let .keyNotFound(key, context): (keys, message) = (context.codingPath + [key], "is required")
        case let .typeMismatch(type, context): (keys, message) = (context.codingPath, "must be \(jsonType(type))")
        case let .valueNotFound(type, context): (keys, message) = (context.codingPath, "must be \(jsonType(type)), not null")
        case let .dataCorrupted(context): (keys, message) = (context.codingPath, "is not a valid value")
        @unknown default: return nil
        }
        return keys.isEmpty ? nil : Problem.FieldProblem(field: path(keys), message: message)
    }

    /// A readable account of a decoding failure, for `detail`. `bodySent`: whether the request
    /// had a body; a failure at no field of one without is a query, path or header parameter's
    /// (the generated code decodes those with no coding path).
    private static func describe(_ error: DecodingError, bodySent: Bool) -> String {
        if let field = field(of: error) { return "\(field.field) \(field.message)" }
        let whole = bodySent ? "the body" : "a parameter"
        switch error {
        case let .typeMismatch(type, _): return "\(whole) should be \(jsonType(type))"
        case let .valueNotFound(type, _): return "\(whole) should be \(jsonType(type)), not null"
        case .dataCorrupted: return bodySent ? "the body is not valid JSON" : "a parameter is invalid"
        default: return "\(whole) could not be read"
        }
    }

    /// `keys` as the API spells a field: `answers[0].rating`.
    private static func path(_ keys: [any CodingKey]) -> String {
        keys.reduce(into: "") { path, key in
            if let index = key.intValue { path += "[\(index)]" } else { path += (path.isEmpty ? "" : ".") + key.stringValue }
        }
    }

    /// The JSON kind of value a Swift type decodes from, as a client reads it.
    private static func jsonType(_ type: Any.Type) -> String {
        switch type {
        case is any BinaryInteger.Type: "an integer"
        case is any BinaryFloatingPoint.Type, is Decimal.Type: "a number"
        case is any StringProtocol.Type: "a string"
        case is Bool.Type: "true or false"
        default:
            String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
