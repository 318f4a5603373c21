import HTTPTypes
import Hummingbird

/// Makes the generated routes disregard an `Accept` header they cannot satisfy, as RFC 9110
/// §12.5.1 allows, instead of answering 406.
///
/// The generated code checks `Accept` only when it encodes the response, after the handler ran:
/// a command sent with `Accept: text/html` was carried out and then answered 406, so the client
/// saw a failure for a change that happened. Every route answers JSON, so instead the request's
/// media ranges are kept (the map still chooses GeoJSON or plain JSON by them) and a last
/// `*/*;q=0.001` lets the route's own type through; values that are not media ranges are
/// dropped rather than failing the request.
struct AcceptMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let accept = request.headers[.accept] else { return try await next(request, context) }
        let ranges = accept.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter(Self.isMediaRange)
        var head = request.head
        if ranges.isEmpty {
            head.headerFields[.accept] = nil
        } else {
            let anything = ranges.contains { $0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } == "*/*" }
            head.headerFields[.accept] = (anything ? ranges : ranges + ["*/*;q=0.001"]).joined(separator: ", ")
        }
        return try await next(Request(head: head, body: request.body), context)
    }

    /// `type/subtype` with optional parameters, both of token characters (RFC 9110 §8.3.1).
    static func isMediaRange(_ value: String) -> Bool {
        guard let type = value.split(separator: ";", omittingEmptySubsequences: false).first else { return false }
        let parts = type.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { part in
            !part.isEmpty && part.unicodeScalars.allSatisfy { scalar in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~": true
                default: false
                }
            }
        }
    }
}
