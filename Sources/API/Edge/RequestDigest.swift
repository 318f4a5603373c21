import Crypto
import Foundation
import Hummingbird

/// A SHA-256 of what a request with an `Idempotency-Key` asks: its method, path and query, and
/// its body in a canonical form (JSON with sorted keys, so a client that re-serialises the same
/// object retries the same request). A command's fingerprint is made from it
/// (`CommandRunner`), so the key, reused for another request, is refused instead of replaying
/// the first one's outcome. Only in memory: what is stored is keyed with the server's secret,
/// since a body may hold a password.
enum RequestDigest {
    /// The digest of the request being handled; nil without an Idempotency-Key.
    @TaskLocal static var current: [UInt8]?

    /// The digest of `method` on `target` (path and query) with `body`.
    static func of(method: String, target: String, body: ByteBuffer) -> [UInt8] {
        var hasher = SHA256()
        for part in [Data(method.utf8), Data(target.utf8), canonical(body)] {
            // Each part's length first, so no two requests run together into the same bytes.
            withUnsafeBytes(of: UInt64(part.count).bigEndian) { hasher.update(bufferPointer: $0) }
            hasher.update(data: part)
        }
        return Array(hasher.finalize())
    }

    /// The body with object keys sorted, when it is JSON; else its bytes as they are.
    private static func canonical(_ body: ByteBuffer) -> Data {
        let bytes = Data(buffer: body)
        guard !bytes.isEmpty,
              let value = try? JSONSerialization.jsonObject(with: bytes, options: [.fragmentsAllowed]),
              let sorted = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        else { return bytes }
        return sorted
    }
}

/// Fills `RequestDigest.current` for requests that carry an `Idempotency-Key`. Runs after
/// `BodyLimitMiddleware`, which has collected the body within its limit.
struct RequestDigestMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // An image upload's body is streamed, not collected: its route digests the image's hash.
        guard request.headers[RequestInfo.idempotencyKeyField] != nil, request.method != .get, request.method != .head,
              !ImageUploadRoutes.isUpload(request) else {
            return try await next(request, context)
        }
        var request = request
        // Already collected within its limit, so `.max` reads nothing new.
        let body = try await request.collectBody(upTo: .max)
        let digest = RequestDigest.of(method: request.method.rawValue, target: request.uri.description, body: body)
        return try await RequestDigest.$current.withValue(digest) {
            try await next(request, context)
        }
    }
}
