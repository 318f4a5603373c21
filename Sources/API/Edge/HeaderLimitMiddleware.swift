import HTTPTypes
import Hummingbird
import HummingbirdCore

/// Refuses requests whose header fields together exceed `bytesMax` with 431 problem+json.
///
/// The HTTP parser has a limit of its own (`HeaderLimits.parserBytesMax`), past which it closes
/// the connection after a bare 400 with no body; it is set well above `bytesMax`, so that an
/// oversized header a client could plausibly send (a pasted document as a token) gets this
/// answer, which says what is wrong, while a connection still cannot make the parser buffer
/// without end.
struct HeaderLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let bytesMax: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Name, ": ", value and CRLF, as on the wire.
        let bytes = request.headers.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
        guard bytes <= bytesMax else { throw Problem.headersTooLarge(bytesMax: bytesMax) }
        return try await next(request, context)
    }
}

/// The header limits of the HTTP server.
enum HeaderLimits {
    /// Bytes of header fields a request may carry, names and values together: far above any
    /// header this API uses (a bearer token is 43 characters), at the usual proxies' limit.
    static let bytesMax = 16 * 1024
    /// Bytes of headers the HTTP parser buffers, per field and in all, before it gives up on the
    /// connection with a bare 400. Above `bytesMax`, so most oversized headers reach
    /// `HeaderLimitMiddleware` and get a problem+json answer.
    static let parserBytesMax = 512 * 1024

    /// The HTTP/1 server with the parser's limits raised to `parserBytesMax`.
    static var server: HTTPServerBuilder {
        .http1(configuration: .init(httpDecoderConfiguration: .init(
            maxHeaderFieldSize: parserBytesMax, maxHeaderListSize: parserBytesMax)))
    }
}

extension Problem {
    /// The request's header fields were larger than the service accepts.
    static func headersTooLarge(bytesMax: Int) -> Problem {
        Problem(status: .requestHeaderFieldsTooLarge, code: "headers_too_large", title: "Request headers too large",
                detail: "the header fields may hold at most \(bytesMax) bytes in all")
    }
}
