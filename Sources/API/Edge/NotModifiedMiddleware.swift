import Crypto
import HTTPTypes
import Hummingbird
import NIOCore

/// Gives every read of the apps' JSON (`GET`/`HEAD` under `/v1/`, 200, `application/json` or
/// `application/geo+json`) a strong `ETag`, and answers one whose `If-None-Match` names it with
/// 304 and no body (SPEC §1): clients re-fetch on a live notification, and most re-fetches find
/// what they hold.
///
/// An entity GET's tag is its stream's version (`EntityTag`), kept, since `If-Match` needs it.
/// Any other answer's is a digest of its body, so it changes exactly when the answer does,
/// whatever read models, caller or clock the answer depends on, and one mechanism serves every
/// route. The route still reads and encodes the answer: what a 304 saves is the transfer and
/// the client's decoding. Live streams and images pass untouched (an image route answers its
/// own `If-None-Match` before it reads the file), and so does a problem, which the routes
/// throw past this middleware to `ProblemMiddleware`.
struct NotModifiedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The largest body given a digest tag. The generated routes encode an answer into one
    /// buffer of known length, so collecting it copies nothing; a larger answer (an operator's
    /// page of big events) or one of unknown length goes out as it came, untagged.
    static var digestedBytesMax: Int { 16 << 20 }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head, request.uri.path.hasPrefix("/v1/") else {
            return try await next(request, context)
        }
        var response = try await next(request, context)
        guard response.status == .ok, Self.isJSON(response.headers[.contentType]) else { return response }
        let tag: String
        if let entityTag = response.headers[.eTag] {
            tag = entityTag
        } else {
            guard let length = response.body.contentLength, length <= Self.digestedBytesMax else { return response }
            let body = try await response.body.collected(upTo: length)
            tag = Self.tag(of: body)
            response.headers[.eTag] = tag
            response.body = ResponseBody(byteBuffer: body)
        }
        guard let held = request.headers[.ifNoneMatch], EntityTag.ifNoneMatch(held, names: tag) else { return response }
        return Self.notModified(response, isHead: request.method == .head)
    }

    /// The strong tag of `body`: the first 128 bits of its SHA-256, in hex. A tag is only ever
    /// compared with earlier answers to the same request, so 128 bits put a wrong 304 out of
    /// reach (2^64 answers for an even chance of any collision at all) in half the header.
    static func tag(of body: ByteBuffer) -> String {
        let digest = body.withUnsafeReadableBytes { SHA256.hash(data: $0) }
        let hexDigits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: 34) { text in
            text[0] = UInt8(ascii: "\"")
            for (offset, byte) in digest.prefix(16).enumerated() {
                text[1 + 2 * offset] = hexDigits[Int(byte >> 4)]
                text[2 + 2 * offset] = hexDigits[Int(byte & 0x0F)]
            }
            text[33] = UInt8(ascii: "\"")
            return 34
        }
    }

    /// Whether a `Content-Type` is one of the JSON answers tagged here (not an event stream,
    /// an image or the console's files).
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.mediaType
        return mediaType == "application/json" || mediaType == "application/geo+json"
    }

    /// The 304 for `response`: its headers (the tag, Cache-Control, Vary as a 200 would send
    /// them, RFC 9110 §15.4.5) without the body's type and length. A HEAD's keeps the length
    /// its 200 gives, which HEAD's own responder would otherwise state as 0.
    static func notModified(_ response: Response, isHead: Bool) -> Response {
        var headers = response.headers
        headers[.contentType] = nil
        let length = headers[.contentLength]
        headers[.contentLength] = nil
        var notModified = Response(status: .notModified, headers: headers)
        notModified.headers[.contentLength] = isHead ? length : nil
        return notModified
    }
}

extension String {
    /// The media type of a `Content-Type` value, lowercased, without its parameters.
    fileprivate var mediaType: String {
        (split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    }
}

extension ResponseBody {
    /// The body's bytes in one buffer, refusing more than `bytesMax`; one written as a single
    /// buffer (every generated route's) is returned as it is, without a copy.
    consuming func collected(upTo bytesMax: Int) async throws -> ByteBuffer {
        let sink = CollectedBody(bytesMax: bytesMax)
        try await write(CollectingWriter(sink: sink))
        return sink.buffer ?? ByteBuffer()
    }
}

/// Where `CollectingWriter` puts what it is given; a class, since a writer is consumed.
private final class CollectedBody {
    let bytesMax: Int
    var buffer: ByteBuffer?

    init(bytesMax: Int) { self.bytesMax = bytesMax }
}

private struct CollectingWriter: ResponseBodyWriter {
    let sink: CollectedBody

    mutating func write(_ buffer: ByteBuffer) async throws {
        guard (sink.buffer?.readableBytes ?? 0) + buffer.readableBytes <= sink.bytesMax else { throw NIOTooManyBytesError(maxBytes: sink.bytesMax) }
        if sink.buffer == nil {
            sink.buffer = buffer
        } else {
            sink.buffer!.writeImmutableBuffer(buffer)
        }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
