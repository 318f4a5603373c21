import BlobStore
import Blobs
import Foundation
import OpenAPIRuntime

/// The image routes: `POST /v1/blobs` stores an image and records who uploaded it;
/// `GET /v1/blobs/{blobId}` serves it to those who may see it (`BlobAccess`) and to no one else.
extension LogbookAPI {
    func uploadBlob(_ input: Operations.UploadBlob.Input) async throws -> Operations.UploadBlob.Output {
        let caller = try authenticate()
        let (blob, outcome) = try await ImageUploads(runtime: runtime).store(
            ImageUploads.body(of: input.body), by: caller.userId, method: "POST", route: "/v1/blobs")
        return .created(.init(
            headers: .init(location: "/v1/blobs/\(blob.blobId)"),
            body: .json(.init(
                blobId: blob.blobId, contentType: ImageUploads.contentType(blob.type), bytes: blob.bytes,
                position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    func getBlob(_ input: Operations.GetBlob.Input) async throws -> Operations.GetBlob.Output {
        let caller = try authenticate()
        let blobId = input.path.blobId
        // The shape first: a client's text never reaches a read model key or a file path.
        guard BlobLimits.isBlobId(blobId), try BlobAccess(runtime: runtime).maySee(blobId, viewer: caller.userId) else {
            throw Problem.blobNotFound
        }
        let eTag = "\"\(blobId)\""
        // The bytes of an id never change, so the client's copy is current whenever it names it.
        if let held = input.headers.ifNoneMatch, EntityTag.ifNoneMatch(held, names: eTag) {
            return .notModified(.init(headers: .init(eTag: eTag, cacheControl: BlobResponses.cacheControl)))
        }
        let found = try runtime.blobs.read(blobId)
        // Recorded but not in the store: collected, or lost with a disk; nothing to serve.
        guard let (blob, data) = found else { throw Problem.blobNotFound }
        let headers = Operations.GetBlob.Output.Ok.Headers(
            eTag: eTag, cacheControl: BlobResponses.cacheControl, xContentTypeOptions: "nosniff")
        let body = HTTPBody(data)
        return switch blob.type {
        case .png: .ok(.init(headers: headers, body: .png(body)))
        case .jpeg: .ok(.init(headers: headers, body: .jpeg(body)))
        case .webp: .ok(.init(headers: headers, body: .imageWebp(body)))
        case .heic: .ok(.init(headers: headers, body: .imageHeic(body)))
        }
    }
}

/// The caching headers of an image response.
enum BlobResponses {
    /// Only the client may keep an image: a shared cache would serve it to people who may not see it.
    static let cacheControl = "private"
}
